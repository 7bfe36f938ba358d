import Testing
import FakeNFTSnapshots
import FakeNFTTesting
@testable import TerminalUI

@MainActor @Suite struct TextEditorTests {
    @Test func editsByGraphemeWithWideCharacters() {
        var editor = TextEditor("日本")
        #expect(editor.cursor == 2)
        _ = editor.handle(.left)
        _ = editor.handle(.char("語"))
        #expect(editor.text == "日語本")
        _ = editor.handle(.backspace)
        #expect(editor.text == "日本")
        editor.insert("👩‍👩‍👧")
        _ = editor.handle(.backspace)  // one grapheme, not one scalar
        #expect(editor.text == "日本")
        _ = editor.handle(.home)
        _ = editor.handle(.delete)
        #expect(editor.text == "本" && editor.cursor == 0)
        _ = editor.handle(.end)
        #expect(editor.cursor == 1)
    }

    @Test func pastedControlSequenceIsStripped() {
        var editor = TextEditor("name")
        editor.insert(" \u{1B}[2J\u{1B}]52;c;aGk=\u{07}Иван\u{202E}\u{9B}1m")
        #expect(editor.text == "name Иван")
        var multi = TextEditor("", multiline: true)
        multi.insert("line1\r\nline2\u{1B}[A")
        #expect(multi.text == "line1\nline2")
    }

    @Test func multilineCursorMovesBetweenLines() {
        var editor = TextEditor("first line\nab\nthird", multiline: true)
        _ = editor.handle(.up)  // from end of "third" (col 5) to "ab" end
        #expect(editor.lines.cursorLine == 1 && editor.lines.cursorColumn == 2)
        _ = editor.handle(.up)
        #expect(editor.lines.cursorLine == 0 && editor.lines.cursorColumn == 2)
        _ = editor.handle(.enter)
        #expect(editor.text == "fi\nrst line\nab\nthird")
    }

    @Test func maxLengthAndWordDelete() {
        var editor = TextEditor("", maxLength: 5)
        editor.insert("abcdefgh")
        #expect(editor.text == "abcde")
        var words = TextEditor("hello big world")
        _ = words.handle(.ctrl("w"))
        #expect(words.text == "hello big ")
        _ = words.handle(.ctrl("u"))
        #expect(words.text == "")
    }

    /// The text kept beside the characters is theirs after any edit: typed and erased at the end
    /// (kept in place), in the middle, with marks that join the character before.
    @Test func theTextIsAlwaysTheCharacters() {
        var editor = TextEditor("ab", multiline: true)
        let keys: [Key] = [
            .char("x"), .char("e"), .char("\u{301}"), .backspace, .backspace, .left, .char("é"), .backspace,
            .enter, .char("y"), .home, .char("z"), .delete, .end, .ctrl("w"), .char("q"), .ctrl("u"), .char("r"),
            .left, .ctrl("k"), .backspace, .char("👍"), .char("\u{1F3FD}"), .backspace,
        ]
        for key in keys {
            _ = editor.handle(key)
            #expect(editor.text == String(editor.characters), "after \(key): \(editor.text)")
        }
        editor.insert("pasted\ntext")
        #expect(editor.text == String(editor.characters))
    }

    @Test func fieldScrollsAndPlacesCursor() {
        var buffer = Buffer(size: Size(width: 20, height: 3))
        let editor = TextEditor("日本語のテキストです、長い")
        buffer.render(TextFieldView(editor, focused: true), in: Rect(x: 2, y: 1, width: 10, height: 1))
        // Right after the last whole character in view (the cursor once sat a cell past it).
        #expect(buffer.cursor == Point(x: 10, y: 1))
        assertSnapshot(buffer.text(), named: "text-field-wide-scrolled")
    }
}

@Suite struct KeyDecoderTests {
    func chars(_ s: String) -> [RawInput] { s.unicodeScalars.map { .char($0.value) } }

    @Test func decodesKeysAndControls() {
        let events = KeyDecoder.decode(chars("aé") + [.char(3), .char(13), .char(9), .char(127), .char(0x1B)])
        #expect(
            events == [
                .key(.char("a")), .key(.char("é")), .key(.ctrl("c")), .key(.enter), .key(.tab), .key(.backspace),
                .key(.escape),
            ])
    }

    @Test func decodesBracketedPasteAndDropsUnknownSequences() {
        let paste = chars("\u{1B}[200~hi\u{1B}[31mthere\u{1B}[201~")
        #expect(KeyDecoder.decode(paste) == [.paste("hithere")])
        #expect(KeyDecoder.decode(chars("\u{1B}[1;5Ax")) == [.key(.char("x"))])
        #expect(KeyDecoder.decode(chars("\u{1B}[Z")) == [.key(.backTab)])
        #expect(
            KeyDecoder.decode(chars("\u{1B}[4~\u{1B}[1~\u{1B}OF\u{1B}[H\u{1B}[3~")) == [
                .key(.end), .key(.home), .key(.end), .key(.home), .key(.delete),
            ])
    }

    @Test func decodesTheKeysOfEveryCommonTerminal() {
        let keys: [(String, Key)] = [
            ("\u{1B}[A", .up), ("\u{1B}OA", .up), ("\u{1B}[B", .down), ("\u{1B}OD", .left), ("\u{1B}[C", .right),
            ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown), ("\u{1B}OH", .home), ("\u{1B}[7~", .home),
            ("\u{1B}[8~", .end), ("\u{1B}[1;2A", .shiftUp), ("\u{1B}[d", .shiftLeft), ("\u{1B}OM", .enter),
            ("\u{1B}OP", .function(1)), ("\u{1B}OS", .function(4)), ("\u{1B}[15~", .function(5)),
            ("\u{1B}[17~", .function(6)), ("\u{1B}[21~", .function(10)), ("\u{1B}[24~", .function(12)),
            ("\u{1B}[[A", .function(1)), ("\u{1B}[[E", .function(5)),
        ]
        for (sequence, key) in keys {
            #expect(
                KeyDecoder.decode(chars(sequence + "x")) == [.key(key), .key(.char("x"))],
                "\(sequence.debugDescription)")
        }
        #expect(KeyDecoder.decode(chars("\u{1B}[99~\u{1B}[1;5Cy")) == [.key(.char("y"))], "unknown: dropped")
    }

    @Test func decodesTheKittyKeyboardProtocolsKeys() {
        let keys: [(String, Key?)] = [
            ("27", .escape), ("13", .enter), ("57414", .enter), ("9", .tab), ("9;2", .backTab), ("127", .backspace),
            ("99;5", .ctrl("c")), ("122;5", .ctrl("z")), ("99;69", .ctrl("c")), ("97;2", .char("A")),
            ("1089", .char("с")), ("57399", .char("0")), ("57410", .char("/")), ("57419", .up), ("57424", .end),
            ("97;3", nil), ("27;5", nil), ("57441", nil), ("99999999999", nil), ("97;99999", nil), ("1;2;3;4", nil),
            ("0", nil), (";5", nil),
        ]
        for (report, key) in keys {
            #expect(
                KeyDecoder.decode(chars("\u{1B}[\(report)uq")) == (key.map { [.key($0)] } ?? []) + [.key(.char("q"))],
                "\(report)")
        }
    }

    @Test func decodesMouseReports() {
        #expect(
            KeyDecoder.decode(chars("\u{1B}[<0;5;3M")) == [.mouse(MouseEvent(kind: .click, point: Point(x: 4, y: 2)))])
        #expect(KeyDecoder.decode(chars("\u{1B}[<0;5;3m")) == [], "a release")
        #expect(
            KeyDecoder.decode(chars("\u{1B}[<64;1;1M\u{1B}[<65;200;60M")) == [
                .mouse(MouseEvent(kind: .wheelUp, point: Point(x: 0, y: 0))),
                .mouse(MouseEvent(kind: .wheelDown, point: Point(x: 199, y: 59))),
            ])
        #expect(
            KeyDecoder.decode(chars("\u{1B}[<0;99999999999999999999;1Mj")) == [.key(.char("j"))], "hostile: dropped")
        #expect(
            KeyDecoder.decode(chars("\u{1B}[M !\"j")) == [
                .mouse(MouseEvent(kind: .click, point: Point(x: 0, y: 1))), .key(.char("j")),
            ])
    }

    @Test func anEscapeThatEndsAReadWaitsForTheRestOfItsSequence() {
        var decoder = KeyDecoder()
        #expect(decoder.decode(chars("j\u{1B}")) == [.key(.char("j"))])
        #expect(decoder.waitLimit == KeyDecoder.escapeDelay)
        #expect(decoder.decode(chars("[A")) == [.key(.up)], "an arrow cut by a read")
        #expect(decoder.decode(chars("\u{1B}[1;")) == [] && decoder.waitLimit == KeyDecoder.escapeDelay)
        #expect(decoder.decode(chars("2B")) == [.key(.shiftDown)])
        #expect(decoder.decode(chars("\u{1B}")) == [])
        #expect(decoder.timeOut() == [.key(.escape)] && decoder.waitLimit == nil, "nothing followed: Escape")
        #expect(decoder.decode(chars("\u{1B}[")) == [])
        #expect(decoder.timeOut() == [.key(.escape), .key(.char("["))], "Escape and [ typed fast")
        #expect(decoder.decode(chars("\u{1B}[<0;1")) == [])
        #expect(decoder.timeOut() == [] && decoder.decode(chars("q")) == [.key(.char("q"))], "a cut report: dropped")
    }

    @Test func noColorKeepsSelectionVisible() {
        #expect(ColorSupport.detect(environment: ["NO_COLOR": "1"], cursesColors: 256, hasColors: true) == .none)
        #expect(ColorSupport.detect(environment: [:], cursesColors: 256, hasColors: true) == .full)
        #expect(ColorSupport.detect(environment: [:], cursesColors: 16, hasColors: true) == .sixteen)
        #expect(ColorSupport.detect(environment: [:], cursesColors: 8, hasColors: true) == .basic)
        #expect(CharacterArt.Palette.for(.sixteen) == .indexed16 && CharacterArt.Palette.for(.basic) == .indexed8)
        #expect(CharacterArt.Palette.for(.full) == .indexed240 && CharacterArt.Palette.for(.none) == nil)
        #expect(ColorSupport.detect(environment: [:], cursesColors: 8, hasColors: true) == .basic)
        #expect(Style.selected.reverse)
        #expect(ColorSupport.nearestBasic(196) == 1)  // bright red cube entry -> red
        #expect(
            ColorSupport.sixteen.cursesNumber(.indexed(12)) == 12
                && ColorSupport.sixteen.cursesNumber(.indexed(196)) == 1,
            "16 colours keep the bright ones")
    }
}
