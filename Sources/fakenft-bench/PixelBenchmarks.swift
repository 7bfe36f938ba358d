import FakeNFTApp
import FakeNFTCore
import FakeNFTServer
import Foundation
import TerminalUI
import FakeNFTTesting

/// Pictures in pixels: encoding one picture for sixel and kitty, and scrolling a collection's
/// grid of sixel pictures (key to frame, bytes written per step).
@MainActor
enum PixelBenchmarks {
    static let cell = Size(width: 10, height: 20)

    /// Fitting and encoding a 512×512 PNG at the sizes the app draws, cells of 10×20 pixels.
    static func encode() throws {
        guard let url = Bundle.module.url(forResource: "picture-512.png", withExtension: nil) else { return }
        let image = try ImageDecoder.decode(Data(contentsOf: url))
        for (label, cells) in [
            ("grid picture 18×9 cells", Size(width: 18, height: 9)),
            ("NFT picture 30×14 cells", Size(width: 30, height: 14)),
        ] {
            let pixels = Size(width: cells.width * cell.width, height: cells.height * cell.height)
            var sixel = Samples(), kitty = Samples()
            var sixelBytes = 0, kittyBytes = 0
            let clock = ContinuousClock()
            for _ in 0..<20 {
                var start = clock.now
                let fitted = PixelFit.fit(image.rgba, width: image.width, height: image.height, into: pixels)
                sixelBytes =
                    SixelEncoder.encode(rgba: fitted, width: pixels.width, height: pixels.height, size: pixels)?.utf8
                    .count ?? 0
                sixel.add(milliseconds(clock.now - start))
                start = clock.now
                let again = PixelFit.fit(image.rgba, width: image.width, height: image.height, into: pixels)
                kittyBytes =
                    KittyGraphics.upload(
                        id: 16, rgba: again, width: pixels.width, height: pixels.height,
                        columns: cells.width, rows: cells.height
                    ).utf8.count
                kitty.add(milliseconds(clock.now - start))
            }
            report(
                "sixel encode, \(label) (\(pixels.width)×\(pixels.height) px), median / p99",
                "\(format(sixel.median)) / \(format(sixel.percentile(0.99))) ms, \(sixelBytes / 1024) KB")
            report("kitty upload encode, \(label), median", "\(format(kitty.median)) ms, \(kittyBytes / 1024) KB")
        }
    }

    /// Up and down through the biggest collection's grid at 120×40 with every picture in sixel
    /// (after one pass encoded them all): key press to frame on the terminal, and bytes written
    /// per step (text and pictures written again).
    static func scrollSixelGrid() async throws {
        guard let terminal = HeadlessTerminal(size: Size(width: 120, height: 40)) else {
            report("sixel grid scrolling", "skipped: no pseudo-terminal")
            return
        }
        defer { terminal.close() }
        let server = try await FakeNFTServer.start(
            ServerConfiguration(port: 0, dataDirectory: ServerBenchmarks.temporaryDirectory()))
        defer { Task { await server.stop() } }
        let pixels = PixelImages(graphics: TerminalGraphics(mode: .sixel, cellPixels: cell))
        terminal.surface.pixels = pixels
        let services = Services(
            api: APIClient(APIConfiguration(baseURL: server.baseURL)),
            preferences: PreferencesStore(
                fileURL: ServerBenchmarks.temporaryDirectory().appendingPathComponent("prefs.json")))
        let pictures = Pictures(
            loader: ImageLoader(disk: ImageDiskCache(directory: ServerBenchmarks.temporaryDirectory())),
            palette: .indexed240, pixels: pixels)
        let shell = FakeNFTTerminalApp.makeShell(
            context: AppContext(services: services, effects: .toastsOnly(), pictures: pictures))
        let presenter = FramePresenter(surface: terminal.surface)
        let size = Size(width: 120, height: 40)
        /// Presents frames until every picture drawn is in pixels (else the figures would time
        /// character art: said, not printed). There can be one picture more in pixels than wanted:
        /// the grid shows the top of the next row, whose pictures were wanted while in view.
        func settle(_ ready: (Buffer) -> Bool = { _ in true }) async throws {
            var last = Buffer(size: size)
            for _ in 0..<2_000 {
                presenter.present(size: size) {
                    shell.draw(into: &$0)
                    shell.shown($0)
                    last = $0
                }
                pictures.want(last.pictures)
                if ready(last), !last.pictures.isEmpty, !pictures.isLoading, last.overlays.count >= last.pictures.count
                {
                    return
                }
                try await Task.sleep(for: .milliseconds(2))
            }
            throw BenchmarkFailure(
                description: "the grid's pictures were not all in pixels after 2,000 frames: "
                    + "\(last.overlays.count) of \(last.pictures.count) drawn, loading: \(pictures.isLoading), "
                    + "the screen's awaited text shown: \(ready(last))")
        }
        try await settle { $0.contains("collections,") }
        _ = shell.handle(.key(.enter))
        try await settle { $0.contains("Collection author") }
        // encode every picture once
        for key in Array(repeating: Key.down, count: 8) + Array(repeating: Key.up, count: 8) {
            _ = shell.handle(.key(key))
            try await settle()
        }
        _ = terminal.drainOutput()
        var times = Samples(), bytes = Samples()
        let clock = ContinuousClock()
        for i in 0..<200 {
            let key: Key = (i / 8) % 2 == 0 ? .down : .up
            let start = clock.now
            _ = shell.handle(.key(key))
            var frame = Buffer(size: size)
            presenter.present(size: size) {
                shell.draw(into: &$0)
                shell.shown($0)
                frame = $0
            }
            times.add(milliseconds(clock.now - start))
            pictures.want(frame.pictures)
            bytes.add(Double(terminal.drainOutput()))
        }
        report(
            "key to frame, scrolling a grid of sixel pictures, 120×40 (median / p99)",
            "\(format(times.median)) / \(format(times.percentile(0.99))) ms")
        report(
            "bytes written per grid step with sixel pictures (median / p99)",
            "\(Int(bytes.median / 1024)) / \(Int(bytes.percentile(0.99) / 1024)) KB")
    }
}
