import Foundation
import Testing
import FakeNFTTesting

extension EndToEnd {
    /// What the real binary writes to the terminal with pictures in pixels, read from tmux's copy
    /// of the pane's output (`pipe-pane -O`): kitty uploads and placeholder cells, and sixel images
    /// written after the text, hidden by dialogs, written again after a resize and after `fg`, and
    /// nothing left behind on exit.
    @Suite struct PixelStreamEndToEndTests {
        static let esc = "\u{1B}"

        /// Starts copying the pane's output to `out.bin` in the test's folder.
        static func record(_ tmux: Tmux) async throws {
            try await tmux.run(["pipe-pane", "-t", tmux.session, "-O", "cat >> '\(tmux.directory.path)/out.bin'"])
        }

        /// What the pane's program wrote after its first `mark` bytes.
        static func output(_ tmux: Tmux, after mark: Int = 0) -> String {
            String(
                decoding: ((try? Data(contentsOf: tmux.directory.appendingPathComponent("out.bin"))) ?? Data())
                    .dropFirst(
                        mark), as: UTF8.self)
        }

        /// The output after `mark` once it holds `text`, or as it is after 10 s: tmux copies the
        /// output to the file a moment after it draws it, so what the screen shows may not be there yet.
        static func output(_ tmux: Tmux, after mark: Int, holding text: String) async -> String {
            var written = ""
            _ = await polled(every: .milliseconds(50), within: .seconds(10)) {
                written = output(tmux, after: mark)
                return written.contains(text)
            }
            return written
        }

        @Test func kittyPicturesAreUploadedOnceShownAsPlaceholderCellsAndDeletedOnExit() async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            try await Self.record(tmux)
            try await tmux.launchApp("--images kitty")
            try await tmux.keys("Enter")
            try await tmux.waitFor("Collection author")
            try await tmux.waitFor("ETH")  // the grid's NFTs
            try await tmux.keys("Enter")
            try await tmux.waitFor("Price:")
            let screen = try await tmux.waitUntil("placeholder cells", colors: true) { screen in
                screen.unicodeScalars.contains("\u{10EEEE}")  // a scalar: the cell's cluster has marks too
            }
            // Every placeholder is drawn in its image's id as a 256-colour foreground.
            var ids = Set<Int>()
            for line in screen.split(separator: "\n") where line.unicodeScalars.contains("\u{10EEEE}") {
                let before = String(line.unicodeScalars.prefix { $0 != "\u{10EEEE}" })
                let sgr = try #require(before.components(separatedBy: "38;5;").last?.prefix { $0.isNumber })
                ids.insert(try #require(Int(sgr)))
            }
            #expect(!ids.isEmpty && ids.allSatisfy { (16...255).contains($0) })
            let written = Self.output(tmux)
            for id in ids {
                let uploads = written.components(separatedBy: "\(Self.esc)_Ga=T,U=1,q=2,f=32,o=z,").filter {
                    $0.contains(",i=\(id),")
                }
                #expect(uploads.count == 1, "image \(id) uploaded once, quietly, as a virtual placement")
            }
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            let lastDelete = "\(Self.esc)_Ga=d,d=I,i=\(ids.max() ?? 0),q=2\(Self.esc)\\"
            let atExit = await Self.output(tmux, after: 0, holding: lastDelete)
            for id in ids {
                #expect(atExit.contains("\(Self.esc)_Ga=d,d=I,i=\(id),q=2\(Self.esc)\\"), "image \(id) deleted on exit")
            }
        }

        @Test func sixelsAreWrittenAfterTheTextHiddenUnderDialogsAndWrittenAgainAfterResizeAndFg() async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            try await Self.record(tmux)
            try await tmux.launchApp("--images sixel")
            try await tmux.keys("Enter")
            try await tmux.waitFor("Collection author")
            try await tmux.waitFor("ETH")  // the grid's NFTs
            func output() -> [UInt8] {
                Array((try? Data(contentsOf: tmux.directory.appendingPathComponent("out.bin"))) ?? Data())
            }
            let beforeNFT = output().count
            try await tmux.keys("Enter")
            try await tmux.waitFor("Price:")
            func sixels(after mark: Int, where condition: (WrittenSixel) -> Bool = { _ in true }) async throws
                -> [WrittenSixel]
            {
                var found: [WrittenSixel] = []
                let written = await polled(every: .milliseconds(30), within: .seconds(9)) {
                    found = WrittenSixel.all(in: output(), from: mark)
                    return found.contains(where: condition)
                }
                return written ? found : []
            }
            // The NFT screen's picture starts right under the breadcrumb (row 2).
            let picture = try #require(
                try await sixels(after: beforeNFT) { $0.row == 2 }.last { $0.row == 2 }, "the NFT's picture")
            try await Task.sleep(for: .milliseconds(300))  // nothing else is on its way
            var text = Self.output(tmux)
            for sixel in WrittenSixel.all(in: output()) {
                #expect(sixel.row + (sixel.height + 19) / 20 <= 29, "never on the last row")
            }
            #expect(
                text.components(separatedBy: "\(Self.esc)7\(Self.esc)[").count
                    == text.components(separatedBy: "\(Self.esc)\\\(Self.esc)8").count,
                "each image bracketed by DECSC … DECRC")

            var mark = output().count
            try await tmux.keys("?")
            try await tmux.waitFor("Keys:")
            try await Task.sleep(for: .milliseconds(300))
            #expect(WrittenSixel.all(in: output(), from: mark).isEmpty, "no image under a dialog")
            mark = output().count
            try await tmux.keys("Escape")
            let back = try await sixels(after: mark) { $0.row == picture.row }
            #expect(
                back.contains { $0.row == picture.row && $0.column == picture.column },
                "the picture written again when the dialog closes")

            mark = output().count
            try await tmux.resize(width: 110, height: 32)
            #expect(!(try await sixels(after: mark)).isEmpty, "written again after a resize")

            mark = output().count
            try await tmux.keys("C-z")
            try await tmux.waitFor("Stopped", timeout: 30)
            text = Self.output(tmux)
            let suspended = await Self.output(tmux, after: mark, holding: "\(Self.esc)[H\(Self.esc)[2J")
            #expect(
                suspended.contains("\(Self.esc)[H\(Self.esc)[2J"),
                "the screen is cleared of pictures before the shell gets it back")
            mark = output().count
            try await tmux.type("fg")
            #expect(!(try await sixels(after: mark)).isEmpty, "written again after fg")

            mark = output().count
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            let exit = await Self.output(tmux, after: mark, holding: "\(Self.esc)[H\(Self.esc)[2J")
            #expect(exit.contains("\(Self.esc)[H\(Self.esc)[2J"), "no picture left behind on exit")
        }
    }
}
