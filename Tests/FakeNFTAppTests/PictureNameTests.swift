import Testing
@testable import FakeNFTApp

/// `--accessible` draws a picture as its name: words whole, or shortened with "…", never split.
@Suite struct PictureNameTests {
    /// Each word of `lines` is a whole word of `name` or a shortened one ending in "…".
    static func wordsAreWhole(_ lines: [String], of name: String) -> Bool {
        let words = Set(name.split(separator: " "))
        return lines.flatMap { $0.split(separator: " ") }.allSatisfy { words.contains($0) || $0.hasSuffix("…") }
    }

    @Test(arguments: [3, 6, 8, 12, 14, 20])
    func aNameIsNeverSplitMidWord(width: Int) {
        for name in ["Picture: Peach", "Картинка: Студентус Практикумус", "Picture: A very long name indeed"] {
            for height in 1...4 {
                let lines = PictureView.nameLines(name, width: width, maxLines: height)
                #expect(lines.count <= height && !lines.isEmpty)
                #expect(lines.allSatisfy { $0.count <= width }, "\(lines)")
                #expect(Self.wordsAreWhole(lines, of: name), "\(name) at \(width)×\(height): \(lines)")
            }
        }
    }

    @Test func whatFitsIsShownWhole() {
        #expect(PictureView.nameLines("Picture: Peach", width: 6, maxLines: 3) == ["Pictu…", "Peach"])
        #expect(PictureView.nameLines("Picture: Peach", width: 14, maxLines: 1) == ["Picture: Peach"])
        #expect(PictureView.nameLines("Picture: Peach", width: 10, maxLines: 1) == ["Picture: …"])
    }
}
