import FakeNFTApp
import FakeNFTCore
import FakeNFTServer
import Foundation
import TerminalUI

/// Pictures: decoding and character art per picture, a collection's pictures from a key press,
/// and memory after many pictures.
@MainActor
enum PictureBenchmarks {
    /// Decode a 512×512 PNG and JPEG and draw each as a 12×6-cell thumbnail.
    static func decodeAndRender() throws {
        for name in ["picture-512.png", "picture-512.jpg"] {
            guard let url = Bundle.module.url(forResource: name, withExtension: nil) else { continue }
            let data = try Data(contentsOf: url)
            var decode = Samples(), render = Samples()
            let clock = ContinuousClock()
            for _ in 0..<30 {
                var start = clock.now
                let image = try ImageDecoder.decode(data)
                decode.add(milliseconds(clock.now - start))
                start = clock.now
                _ = CharacterArt.cells(
                    rgba: image.rgba, width: image.width, height: image.height, columns: 12, rows: 6,
                    palette: .indexed240)
                render.add(milliseconds(clock.now - start))
            }
            report(
                "decode 512×512 \(name.hasSuffix("png") ? "PNG" : "JPEG") / draw as 12×6 cells (median)",
                "\(format(decode.median)) / \(format(render.median)) ms")
        }
    }

    /// From Enter on a collection to the frame with all its pictures, cold (empty disk cache)
    /// and warm (a second run on the same cache), on the embedded server.
    static func collectionPictures() async throws {
        let server = try await FakeNFTServer.start(
            ServerConfiguration(port: 0, dataDirectory: ServerBenchmarks.temporaryDirectory()))
        defer { Task { await server.stop() } }
        let cache = ServerBenchmarks.temporaryDirectory()
        for run in ["cold", "warm"] {
            let preferences = ServerBenchmarks.temporaryDirectory().appendingPathComponent("prefs.json")
            let services = Services(
                api: APIClient(APIConfiguration(baseURL: server.baseURL)),
                preferences: PreferencesStore(fileURL: preferences))
            let pictures = Pictures(loader: ImageLoader(disk: ImageDiskCache(directory: cache)), palette: .indexed240)
            let context = AppContext(services: services, effects: .toastsOnly(), pictures: pictures)
            let shell = FakeNFTTerminalApp.makeShell(context: context)
            let size = Size(width: 120, height: 40)
            // The catalog with its covers, before the key press.
            for _ in 0..<500 {
                var frame = Buffer(size: size)
                shell.draw(into: &frame)
                shell.shown(frame)
                if frame.contains("collections,") && !pictures.isLoading { break }
                try await Task.sleep(for: .milliseconds(2))
            }
            let clock = ContinuousClock()
            let start = clock.now
            _ = shell.handle(.key(.enter))
            var frames = 0
            while clock.now - start < .seconds(10) {
                var frame = Buffer(size: size)
                shell.draw(into: &frame)
                shell.shown(frame)
                frames += 1
                if frames > 1, !pictures.isLoading, frame.pictures.count > 1 { break }
                await Task.yield()
                try await Task.sleep(for: .microseconds(200))
            }
            report(
                "Enter to a 21-NFT collection with all pictures, \(run)",
                "\(format(milliseconds(clock.now - start), 1)) ms")
        }
    }

    /// Resident memory after 500 different pictures were loaded and drawn.
    static func memoryAfterManyPictures() async throws {
        let server = try await FakeNFTServer.start(
            ServerConfiguration(
                port: 0, dataDirectory: ServerBenchmarks.temporaryDirectory(),
                seed: .large(users: 10, nfts: 600)))
        defer { Task { await server.stop() } }
        let api = APIClient(APIConfiguration(baseURL: server.baseURL))
        let pictures = Pictures(
            loader: ImageLoader(disk: ImageDiskCache(directory: ServerBenchmarks.temporaryDirectory())),
            palette: .indexed240)
        let before = residentMegabytes()
        var links: [String] = []
        for id in 1...170 { links += try await api.nft(id: String(id)).images }
        links = Array(links.prefix(500))
        for batch in stride(from: 0, to: links.count, by: 20) {
            let wanted = Array(links[batch..<min(batch + 20, links.count)])
            pictures.want(wanted)
            while pictures.isLoading { try await Task.sleep(for: .milliseconds(2)) }
            var frame = Buffer(size: Size(width: 120, height: 40))
            for link in wanted {
                frame.render(PictureView(link, pictures: pictures), in: Rect(x: 0, y: 0, width: 12, height: 6))
            }
        }
        report("resident memory after 500 different pictures", "+\(format(residentMegabytes() - before, 1)) MB")
    }

    private static func residentMegabytes() -> Double {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let pages = Double(statm.split(separator: " ").dropFirst().first ?? "0") ?? 0
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }
}
