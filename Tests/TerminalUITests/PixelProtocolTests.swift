import CZlib
import FakeNFTCore
import Foundation
import FakeNFTTesting
import Testing
@testable import TerminalUI

/// The escapes pictures in pixels are sent with, read back: kitty uploads decoded to their
/// pixels, placeholder cells to their image, row and column; sixel decoded by libsixel's
/// `sixel2png` and compared with the source's colours.
@Suite struct PixelProtocolTests {
    /// Four flat quadrants: red, green, blue, white.
    static func quadrants(_ side: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: side * side * 4)
        for y in 0..<side {
            for x in 0..<side {
                let i = (y * side + x) * 4
                let colour: (UInt8, UInt8, UInt8) =
                    switch (x < side / 2, y < side / 2) {
                    case (true, true): (220, 30, 30)
                    case (false, true): (30, 200, 40)
                    case (true, false): (30, 40, 210)
                    case (false, false): (250, 250, 250)
                    }
                pixels[i] = colour.0
                pixels[i + 1] = colour.1
                pixels[i + 2] = colour.2
            }
        }
        return pixels
    }

    /// The kitty escapes in `text`: their keys and payloads.
    static func kittyCommands(_ text: String) -> [(keys: [String: String], payload: String)] {
        text.components(separatedBy: "\u{1B}_G").dropFirst().map { part in
            let body = part.components(separatedBy: "\u{1B}\\")[0]
            let halves = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            var keys: [String: String] = [:]
            for pair in halves[0].split(separator: ",") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                keys[String(kv[0])] = kv.count > 1 ? String(kv[1]) : ""
            }
            return (keys, halves.count > 1 ? String(halves[1]) : "")
        }
    }

    static func inflate(_ data: [UInt8], size: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: size)
        var length = uLong(size)
        let status = out.withUnsafeMutableBufferPointer { target in
            data.withUnsafeBufferPointer { uncompress(target.baseAddress, &length, $0.baseAddress, uLong(data.count)) }
        }
        return status == Z_OK ? Array(out.prefix(Int(length))) : []
    }

    @Test func aKittyUploadIsQuietChunkedAndCarriesThePixels() throws {
        var state: UInt64 = 1
        let pixels = (0..<(90 * 70 * 4)).map { _ -> UInt8 in  // noise: compresses badly, so several chunks
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let upload = KittyGraphics.upload(id: 42, rgba: pixels, width: 90, height: 70, columns: 9, rows: 4)
        let commands = Self.kittyCommands(upload)
        #expect(commands.count > 2)
        let first = commands[0].keys
        #expect(first["a"] == "T" && first["U"] == "1" && first["f"] == "32" && first["o"] == "z")
        #expect(
            first["s"] == "90" && first["v"] == "70" && first["i"] == "42" && first["c"] == "9" && first["r"] == "4")
        for (index, command) in commands.enumerated() {
            #expect(command.keys["q"] == "2", "every chunk is quiet: no answer reaches key input")
            #expect(command.keys["m"] == (index == commands.count - 1 ? "0" : "1"))
            #expect(command.payload.utf8.count <= 4096)
        }
        let joined = try #require(Data(base64Encoded: commands.map(\.payload).joined()))
        #expect(Self.inflate(Array(joined), size: pixels.count) == pixels)
        #expect(KittyGraphics.delete(id: 42) == "\u{1B}_Ga=d,d=I,i=42,q=2\u{1B}\\")
    }

    @Test func placeholderCellsNameTheImageRowAndColumn() {
        let cells = KittyGraphics.cells(id: 17, columns: 5, rows: 3)
        #expect(cells.count == 15)
        for (index, cell) in cells.enumerated() {
            let scalars = Array(cell.text.unicodeScalars)
            #expect(scalars.count == 3 && scalars[0] == KittyGraphics.placeholder)
            #expect(scalars[1] == KittyDiacritics.marks[index / 5], "row mark")
            #expect(scalars[2] == KittyDiacritics.marks[index % 5], "column mark")
            #expect(cell.style.foreground == .indexed(17))
            #expect(DisplayWidth.of(Character(cell.text)) == 1, "one cell each")
        }
        #expect(KittyGraphics.cells(id: 17, columns: KittyGraphics.maxCells + 1, rows: 1).isEmpty)
    }

    @Test func tmuxPassthroughDoublesEveryEscape() {
        #expect(Passthrough.tmux("\u{1B}_Ga=d\u{1B}\\") == "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=d\u{1B}\u{1B}\\\u{1B}\\")
    }

    @MainActor @Test func kittyImagesAreUploadedOnceAndTheirIdsRecycledLeastRecentlyDrawnFirst() async throws {
        let images = PixelImages(graphics: TerminalGraphics(mode: .kitty, cellPixels: Size(width: 2, height: 4)))
        let source = (rgba: Self.quadrants(8), width: 8, height: 8)
        func place(_ name: String) async -> [Cell] {
            var cells: [Cell] = []
            let encoded = await eventually {
                guard
                    case .cells(let placed) = images.placement(
                        for: name, size: Size(width: 2, height: 1), image: { source })
                else { return false }
                cells = placed
                return true
            }
            #expect(encoded, "\(name) encoded")
            return cells
        }
        let first = await place("a")
        #expect(first.first?.style.foreground == .indexed(16))
        let upload = images.takePendingOutput()
        #expect(Self.kittyCommands(upload).first?.keys["i"] == "16")
        #expect(await place("a") == first)
        #expect(images.takePendingOutput().isEmpty, "uploaded once")
        for n in 1..<KittyGraphics.ids.count { _ = await place("p\(n)") }
        _ = images.takePendingOutput()
        _ = await place("a")  // "a" drawn again: "p1" is now the oldest
        let recycled = await place("new")
        #expect(recycled.first?.style.foreground == .indexed(17), "p1's id")
        let output = images.takePendingOutput()
        #expect(output.hasPrefix(KittyGraphics.delete(id: 17)))
        #expect(Self.kittyCommands(output).last?.keys["i"] == "17")
        let farewell = images.farewell()
        #expect(Self.kittyCommands(farewell).count == KittyGraphics.ids.count)
        #expect(Self.kittyCommands(farewell).allSatisfy { $0.keys["a"] == "d" && $0.keys["d"] == "I" })
    }

    @MainActor @Test func aNewCellSizeEncodesPicturesAgainAtThatSize() async throws {
        let images = PixelImages(graphics: TerminalGraphics(mode: .kitty, cellPixels: Size(width: 8, height: 16)))
        let source = (rgba: Self.quadrants(8), width: 8, height: 8)
        func upload() async -> [String: String]? {
            guard
                await eventually({
                    images.placement(for: "a", size: Size(width: 3, height: 2), image: { source }) != nil
                })
            else { return nil }
            return Self.kittyCommands(images.takePendingOutput()).last { $0.keys["a"] == "T" }?.keys
        }
        #expect(await upload()?["s"] == "24")
        images.changeCellPixels(to: Size(width: 8, height: 16))  // unchanged: nothing to do
        #expect(images.placement(for: "a", size: Size(width: 3, height: 2), image: { source }) != nil)
        images.changeCellPixels(to: Size(width: 16, height: 32))  // zoomed in
        let again = await upload()
        #expect(again?["s"] == "48" && again?["v"] == "64", "the picture encoded again for the new cells")
    }

    /// Encodings have an owner: cancelled ones never land, and their pictures are encoded again
    /// when next drawn (nothing stays "encoding" for ever).
    @MainActor @Test func aCancelledEncodingIsAskedForAgain() async throws {
        let images = PixelImages(graphics: TerminalGraphics(mode: .kitty, cellPixels: Size(width: 8, height: 16)))
        let source = (rgba: Self.quadrants(8), width: 8, height: 8)
        var reads = 0
        #expect(
            images.placement(for: "a", size: Size(width: 3, height: 2)) {
                reads += 1
                return source
            } == nil)
        images.cancelEncoding()
        let placed = await eventually {
            images.placement(for: "a", size: Size(width: 3, height: 2)) {
                reads += 1
                return source
            } != nil
        }
        #expect(placed && reads == 2, "encoded again after the cancel, once")
    }

    @Test func aSixelHasTheCellsPixelSizeInWholeBandsAndTheSourcesColours() throws {
        let pixels = PixelFit.fit(Self.quadrants(64), width: 64, height: 64, into: Size(width: 60, height: 65))
        let sixel = try #require(
            SixelEncoder.encode(rgba: pixels, width: 60, height: 65, size: Size(width: 60, height: 65)))
        #expect(sixel.hasPrefix("\u{1B}P"))
        #expect(sixel.hasSuffix("\u{1B}\\"))
        #expect(
            sixel.contains("\"1;1;60;60"), "65 rows rounded down to whole sixel bands: it never reaches the next row")
        let decoded = try Self.decodeWithLibsixel(sixel)
        #expect(decoded.width == 60 && decoded.height == 60)
        // Each quadrant's middle has the source's colour (the picture is padded to 60×65 first,
        // so the quadrants sit a little lower than in the source).
        func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            let i = (y * decoded.width + x) * 4
            return (Int(decoded.rgba[i]), Int(decoded.rgba[i + 1]), Int(decoded.rgba[i + 2]))
        }
        func near(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Bool {
            abs(a.0 - b.0) + abs(a.1 - b.1) + abs(a.2 - b.2) < 40
        }
        #expect(near(pixel(15, 18), (220, 30, 30)))
        #expect(near(pixel(45, 18), (30, 200, 40)))
        #expect(near(pixel(15, 48), (30, 40, 210)))
        #expect(near(pixel(45, 48), (250, 250, 250)))
    }

    @Test func anITerm2ImageIsAPNGOverItsCells() throws {
        let escape = ITerm2Images.encode(rgba: Self.quadrants(16), width: 16, height: 16, columns: 4, rows: 2)
        #expect(escape.hasPrefix("\u{1B}]1337;File=inline=1;"))
        #expect(escape.contains("width=4;height=2;preserveAspectRatio=0:"))
        #expect(escape.hasSuffix("\u{07}"))
        let base64 = try #require(escape.split(separator: ":").last).dropLast()
        let image = try ImageDecoder.decode(try #require(Data(base64Encoded: String(base64))))
        #expect(image.width == 16 && image.rgba[0] == 220)
    }

    /// `sixel2png` (Debian's libsixel-bin) decodes `sixel`; the PNG is read back with the app's decoder.
    static func decodeWithLibsixel(_ sixel: String) throws -> DecodedImage {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sixel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.six"), output = directory.appendingPathComponent("out.png")
        try Data(sixel.utf8).write(to: input)
        // The tests' one way to run a program (posix_spawn, waitpid): Foundation's Process once
        // missed sixel2png's exit and left waitUntilExit, and the whole suite, waiting for ever.
        let (status, printed) = try spawnAndWait("/usr/bin/sixel2png", ["-i", input.path, "-o", output.path])
        #expect(status == 0, "\(printed)")
        return try ImageDecoder.decode(try Data(contentsOf: output))
    }
}
