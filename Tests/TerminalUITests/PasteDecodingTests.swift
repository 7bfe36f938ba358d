import Testing
@testable import TerminalUI

/// A bracketed paste is one event however the input is split, and nothing in it is a key.
@Suite struct PasteDecodingTests {
    func chars(_ s: String) -> [RawInput] { s.unicodeScalars.map { .char($0.value) } }

    /// Pasted text full of things that would be keys: q, Tab, Enter, Esc, arrows, Ctrl-S, an OSC.
    static let pasted = "q\tline 1\r\nд😀\u{1B}[A\u{13}\u{1B}]52;c;cHduZWQ=\u{07}2"
    static let expected = SafeText.sanitize(pasted, keepNewlines: true)

    /// Every offset but one: a read that ends right after the opening ESC is a lone Esc key
    /// (curses has already waited its Esc delay for more), as in any terminal app.
    @Test func splitAtEveryOffsetIsStillOnePaste() {
        let input = chars("a\u{1B}[200~" + Self.pasted + "\u{1B}[201~x")
        for cut in 0...input.count where cut != 2 {
            var decoder = KeyDecoder()
            let events = decoder.decode(Array(input[..<cut])) + decoder.decode(Array(input[cut...]))
            #expect(events == [.key(.char("a")), .paste(Self.expected), .key(.char("x"))], "cut at \(cut)")
        }
    }

    @Test func splitIntoSingleCharactersIsStillOnePaste() {
        var decoder = KeyDecoder()
        let events =
            decoder.decode(chars("\u{1B}["))
            + chars("200~" + Self.pasted + "\u{1B}[201~j").flatMap { decoder.decode([$0]) }
        #expect(events == [.paste(Self.expected), .key(.char("j"))])
    }

    @Test func anEndMarkerInsideThePasteDoesNotEndIt() {
        let events = KeyDecoder.decode(chars("\u{1B}[200~echo hi\u{1B}[201~\nrm -rf x\u{1B}[201~k"))
        #expect(events == [.paste("echo hi[201~\nrm -rf x"), .key(.char("k"))])
    }

    @Test func aHugePasteIsCutWithANotice() {
        let big = String(repeating: "ab", count: 60_000)  // 120,000 characters
        var decoder = KeyDecoder()
        var events: [TerminalEvent] = []
        let input = chars("\u{1B}[200~" + big + "\u{1B}[201~q")
        for start in stride(from: 0, to: input.count, by: 4096) {
            events += decoder.decode(Array(input[start..<min(start + 4096, input.count)]))
        }
        #expect(events.count == 3)
        #expect(events.first == .paste(String(big.prefix(KeyDecoder.maxPaste))))
        #expect(events.dropFirst().first == .pasteCut(limit: KeyDecoder.maxPaste))
        #expect(events.last == .key(.char("q")), "the key after the paste is a key again")
    }
}
