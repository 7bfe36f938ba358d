import Localization
import Testing
import TerminalUI
@testable import FakeNFTApp

/// `--accessible` draws a picture as its name: words whole, never split nor shortened.
@Suite struct PictureNameTests {
    /// Each word of `lines` is a whole word of `text` ("…" may follow the last).
    static func wordsAreWhole(_ lines: [String], of text: String) -> Bool {
        let words = Set(text.split(separator: " "))
        return lines.flatMap { $0.split(separator: " ") }.allSatisfy { word in
            words.contains(word) || (word.hasSuffix("…") && words.contains(word.dropLast()))
        }
    }

    @Test(arguments: [1, 3, 6, 8, 12, 14, 20])
    func aNameIsNeverSplitMidWord(width: Int) {
        for label in ["Peach", "Студентус Практикумус", "A very long name indeed"] {
            for height in 1...4 {
                let lines = PictureView.nameLines(of: label, width: width, maxLines: height)
                #expect(lines.count <= height)
                #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(lines)")
                #expect(
                    Self.wordsAreWhole(lines, of: tr(.pictureNamed, label)), "\(label) at \(width)×\(height): \(lines)")
            }
        }
    }

    @Test func whatFitsIsShownWhole() async {
        await Language.with(.en) {
            #expect(PictureView.nameLines(of: "Peach", width: 14, maxLines: 1) == ["Picture: Peach"])
            #expect(PictureView.nameLines(of: "Peach", width: 8, maxLines: 2) == ["Picture:", "Peach"])
            #expect(PictureView.nameLines(of: "Peach", width: 6, maxLines: 3) == ["Peach"], "the name alone")
            #expect(PictureView.nameLines(of: "Peach", width: 10, maxLines: 1) == ["Peach"])
            #expect(PictureView.nameLines(of: "Big Peach", width: 4, maxLines: 1) == ["Big…"])
            #expect(PictureView.nameLines(of: "Peach", width: 3, maxLines: 2) == [], "no piece of a word")
        }
    }
}
