import Testing
import FakeNFTSnapshots
import FakeNFTTesting
@testable import TerminalUI

@Suite struct SafeTextTests {
    @Test(arguments: [
        ("\u{1B}[31mred\u{1B}[0m", "red"),  // CSI colour
        ("a\u{1B}]52;c;ZXZpbA==\u{07}b", "ab"),  // OSC 52 clipboard write, BEL-terminated
        ("a\u{1B}]0;title\u{1B}\\b", "ab"),  // OSC with ST
        ("x\u{9B}2Jy", "xy"),  // C1 CSI
        ("\u{1B}Pdcs payload\u{1B}\\ok", "ok"),  // DCS
        ("a\u{1B}cb", "ab"),  // RIS (two-byte)
        ("a\u{1B}(0qqq\u{1B}(Bb", "aqqqb"),  // charset switch dropped, text kept
        ("abc\u{202E}fed", "abcfed"),  // RTL override
        ("\u{2066}iso\u{2069}", "iso"),  // bidi isolates
        ("bell\u{07}del\u{7F}nul\u{0}", "belldelnul"),  // C0 and DEL
        ("tab\there", "tab here"),
        ("line1\nline2\r\n", "line1line2"),
    ])
    func removesControls(input: String, expected: String) {
        #expect(SafeText.sanitize(input) == expected)
    }

    @Test func keepsNewlinesWhenAsked() {
        #expect(SafeText.sanitize("a\r\nb\rc\nd", keepNewlines: true) == "a\nb\nc\nd")
    }

    @Test func keepsOrdinaryUnicode() {
        let family = "👩\u{200D}👩\u{200D}👧"
        #expect(SafeText.sanitize("Студентус 日本 \(family) café") == "Студентус 日本 \(family) café")
    }

    @MainActor @Test func hostileStringsDrawInert() {
        var buffer = Buffer(size: Size(width: 40, height: 3))
        buffer.draw("\u{1B}[2J\u{1B}]52;c;aGk=\u{07}evil\u{9B}31m\u{202E}txt", at: Point(x: 0, y: 0))
        buffer.draw("zw\u{200D}j 👨\u{200D}💻 end", at: Point(x: 0, y: 1))
        for cell in buffer.cells {
            #expect(!cell.text.unicodeScalars.contains { SafeText.isUnsafe($0.value) })
        }
        assertSnapshot(buffer.text(), named: "hostile-strings")
    }
}

/// Emoji sequences are drawn in a form whose width terminals agree on.
@Suite struct EmojiDisplayFormTests {
    @Test(arguments: [
        ("👩\u{200D}👩\u{200D}👧", "👩", 2), ("👨\u{200D}💻", "👨", 2), ("❤\u{FE0F}", "❤", 1), ("👍\u{1F3FD}", "👍", 2),
        ("1\u{FE0F}\u{20E3}", "1", 1), ("🇷🇺", "🇷🇺", 2), ("e\u{301}", "e\u{301}", 1),
        ("🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}", "🏴", 2),
    ])
    func sequencesBecomeTheirStableForm(cluster: String, drawn: String, width: Int) throws {
        let c = try #require(cluster.first)
        #expect(String(DisplayWidth.displayForm(c)) == drawn)
        #expect(DisplayWidth.of(c) == width && DisplayWidth.of(cluster) == width)
    }

    @MainActor @Test func aLineOfEmojiFillsExactlyTheCellsItClaims() {
        var buffer = Buffer(size: Size(width: 20, height: 1))
        let used = buffer.draw("a👩\u{200D}👧❤\u{FE0F}🇷🇺b", at: Point(x: 0, y: 0))
        #expect(used == 7 && buffer.text().hasPrefix("a👩❤🇷🇺b"))
        #expect(buffer.cells.allSatisfy { $0.text.unicodeScalars.count <= 5 })
    }
}

@Suite struct DisplayWidthTests {
    @Test func widths() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("日本") == 4)
        #expect(DisplayWidth.of("👍") == 2)
        #expect(DisplayWidth.of("é") == 1)
        #expect(DisplayWidth.of("★") == 1)
    }

    @Test func truncatesByDisplayWidthWithEllipsis() {
        #expect(DisplayWidth.truncate("Hello world", to: 8) == "Hello w…")
        #expect(DisplayWidth.truncate("日本語テキスト", to: 7) == "日本語…")
        #expect(DisplayWidth.truncate("short", to: 10) == "short")
        #expect(DisplayWidth.of(DisplayWidth.truncate("日本語テキスト", to: 6)) <= 6)
    }

    @Test func wrapsAtSpacesAndBreaksLongWords() {
        #expect(DisplayWidth.wrap("the quick brown fox", width: 9) == ["the quick", "brown fox"])
        #expect(DisplayWidth.wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(DisplayWidth.wrap("a\n\nb", width: 5) == ["a", "", "b"])
    }
}

/// Wrapping: the same lines as before for ordinary text, and bounded work for huge text.
@Suite struct WrapTests {
    @Test func wrapsAtSpacesHardBreaksLongWordsAndKeepsNewlines() {
        #expect(DisplayWidth.wrap("one two  three", width: 7) == ["one two", "three"])
        #expect(DisplayWidth.wrap("abcdefghij xy", width: 4) == ["abcd", "efgh", "ij", "xy"])
        #expect(DisplayWidth.wrap("ab cdefghij", width: 4) == ["ab", "cdef", "ghij"])
        #expect(DisplayWidth.wrap("a\n\nb\r\nc", width: 5) == ["a", "", "b", "c"])
        #expect(DisplayWidth.wrap("", width: 5) == [""])
        #expect(DisplayWidth.wrap("日本語テキスト", width: 5) == ["日本", "語テ", "キス", "ト"])
        #expect(DisplayWidth.wrap("x", width: 0).isEmpty)
    }

    /// A 3 MB description without spaces once held the main actor for 40 s: showing its first
    /// lines reads only as far as those lines.
    @Test func aHugeTextYieldsItsFirstLinesOnly() {
        let huge = String(repeating: "x", count: 3_000_000)
        let lines = DisplayWidth.wrap(huge, width: 40, maxLines: 4)
        #expect(lines == Array(repeating: String(repeating: "x", count: 40), count: 4))
        let paragraphs = String(repeating: "word ", count: 600_000)
        #expect(DisplayWidth.wrap(paragraphs, width: 11, maxLines: 3) == ["word word", "word word", "word word"])
    }
}
