import Testing
@testable import TerminalUI

/// A bracketed paste is one event however the input is split, and nothing in it is a key.
@Suite struct PasteDecodingTests {
    func chars(_ s: String) -> [RawInput] { s.unicodeScalars.map { .char($0.value) } }

    /// Pasted text full of things that would be keys: q, Tab, Enter, Esc, arrows, Ctrl-S, an OSC.
    static let pasted = "q\tline 1\r\nд😀\u{1B}[A\u{13}\u{1B}]52;c;cHduZWQ=\u{07}2"
    static let expected = SafeText.sanitize(pasted, keepNewlines: true)

    /// A moment after `start`: reads this far apart are separate bursts.
    func later(_ start: ContinuousClock.Instant, _ steps: Int = 1) -> ContinuousClock.Instant {
        start + (KeyDecoder.burstGap * 2) * steps
    }

    /// Every offset but one: a read that ends right after the opening ESC is a lone Esc key
    /// (curses has already waited its Esc delay for more), as in any terminal app. A key typed a
    /// moment after the paste is a key.
    @Test func splitAtEveryOffsetIsStillOnePaste() {
        let input = chars("a\u{1B}[200~" + Self.pasted + "\u{1B}[201~")
        let start = ContinuousClock.now
        for cut in 0...input.count where cut != 2 {
            var decoder = KeyDecoder()
            let events =
                decoder.decode(Array(input[..<cut]), at: start) + decoder.decode(Array(input[cut...]), at: start)
                + decoder.decode(chars("x"), at: later(start))
            #expect(events == [.key(.char("a")), .paste(Self.expected), .key(.char("x"))], "cut at \(cut)")
        }
    }

    @Test func splitIntoSingleCharactersIsStillOnePaste() {
        var decoder = KeyDecoder()
        let start = ContinuousClock.now
        let events =
            decoder.decode(chars("\u{1B}["), at: start)
            + chars("200~" + Self.pasted + "\u{1B}[201~").flatMap { decoder.decode([$0], at: start) }
            + decoder.decode(chars("j"), at: later(start))
        #expect(events == [.paste(Self.expected), .key(.char("j"))])
    }

    /// Whatever comes in the paste's read after an end marker is pasted text: a paste holding its
    /// own end marker cannot type `rm -rf x` or `k`. Only a marker that ends a read ends it; this
    /// one waits for its end, and is delivered as it is once nothing more comes.
    @Test func anEndMarkerInsideThePasteDoesNotEndIt() {
        var decoder = KeyDecoder()
        #expect(decoder.decode(chars("\u{1B}[200~echo hi\u{1B}[201~\nrm -rf x\u{1B}[201~k")) == [])
        #expect(decoder.waitLimit == KeyDecoder.pasteIdle)
        #expect(decoder.timeOut() == [.paste("echo hi[201~\nrm -rf x[201~k")])
        #expect(decoder.waitLimit == nil)
        #expect(decoder.decode(chars("q")) == [.key(.char("q"))])
    }

    /// t3 of the audit: 1,000 characters, an end marker, then a tail of keys that arrives slowly
    /// (tmux and a busy machine cut it in pieces far apart), the terminal's own end marker last:
    /// nothing of it is a key, however far apart the pieces come.
    @Test(arguments: [KeyDecoder.burstGap / 2, KeyDecoder.burstGap * 3, .milliseconds(500)])
    func aTailArrivingSlowlyAfterAPastedEndMarkerIsPastedText(_ gap: Duration) {
        let tail = String(repeating: "qd\r\u{1B}[A3", count: 2_000)
        let input = chars(String(repeating: "x", count: 1_000) + "\u{1B}[201~" + tail + "\u{1B}[201~")
        var decoder = KeyDecoder()
        var events = decoder.decode(chars("\u{1B}[200~"))
        var time = ContinuousClock.now
        for start in stride(from: 0, to: input.count, by: 997) {
            events += decoder.decode(Array(input[start..<min(start + 997, input.count)]), at: time)
            time += gap
        }
        #expect(events.allSatisfy { if case .key = $0 { false } else { true } }, "\(events.prefix(3))")
        #expect(events.contains { if case .paste(let text) = $0 { text.contains("qd") } else { false } })
        #expect(decoder.waitLimit == nil, "the terminal's own end marker ended it")
        #expect(decoder.decode(chars("q"), at: time + KeyDecoder.burstGap * 2) == [.key(.char("q"))])
    }

    /// 100 KB pasted with its own end marker near the start, arriving in 4 KB reads a millisecond
    /// apart, however the reads fall: nothing in it is a key (q quits, d deletes a cart item), and
    /// a key pressed a moment later is a key again.
    @Test(arguments: [0, 1, 7, 4_084, 4_087, 4_090]) func aPasteHoldingItsEndMarkerTypesNothing(_ offset: Int) {
        let text = String(repeating: "x", count: offset) + "\u{1B}[201~" + String(repeating: "qd\r", count: 34_000)
        let input = chars("\u{1B}[200~" + text + "\u{1B}[201~")
        var decoder = KeyDecoder()
        var events: [TerminalEvent] = []
        var time = ContinuousClock.now
        for start in stride(from: 0, to: input.count, by: 4096) {
            events += decoder.decode(Array(input[start..<min(start + 4096, input.count)]), at: time)
            time += .milliseconds(1)
        }
        #expect(!events.isEmpty)
        #expect(
            events.allSatisfy {
                if case .paste = $0 { return true }
                return $0 == .pasteCut(limit: KeyDecoder.maxPaste)
            }, "\(events.filter { if case .key = $0 { true } else { false } }.prefix(5))")
        #expect(decoder.decode(chars("q"), at: time + KeyDecoder.burstGap * 2) == [.key(.char("q"))])
    }

    /// A paste the terminal never ends (or a read right after a paste's end, taken for its tail)
    /// is delivered after ``KeyDecoder/pasteIdle`` with nothing more: keys work again.
    @Test func aPasteThatNeverEndsIsDeliveredAfterAPause() {
        var decoder = KeyDecoder()
        let start = ContinuousClock.now
        #expect(decoder.decode(chars("\u{1B}[200~a\u{1B}[201~"), at: start) == [.paste("a")])
        #expect(decoder.decode(chars("z\u{1B}[20"), at: start + .milliseconds(5)) == [], "the tail, a marker cut")
        #expect(decoder.waitLimit == KeyDecoder.pasteIdle)
        let delivered = decoder.timeOut()
        #expect(
            delivered.count == 1
                && delivered.allSatisfy { if case .paste(let text) = $0 { text.hasPrefix("z") } else { false } })
        #expect(decoder.decode(chars("q"), at: start + .seconds(2)) == [.key(.char("q"))])
    }

    @Test func aHugePasteIsCutWithANotice() {
        let big = String(repeating: "ab", count: 60_000)  // 120,000 characters
        var decoder = KeyDecoder()
        var events: [TerminalEvent] = []
        let input = chars("\u{1B}[200~" + big + "\u{1B}[201~")
        let start = ContinuousClock.now
        for begin in stride(from: 0, to: input.count, by: 4096) {
            events += decoder.decode(Array(input[begin..<min(begin + 4096, input.count)]), at: start)
        }
        events += decoder.decode(chars("q"), at: later(start))
        #expect(events.count == 3)
        #expect(events.first == .paste(String(big.prefix(KeyDecoder.maxPaste))))
        #expect(events.dropFirst().first == .pasteCut(limit: KeyDecoder.maxPaste))
        #expect(events.last == .key(.char("q")), "the key after the paste is a key again")
    }

    /// Over a slow link a 100,000-character paste pauses past ``KeyDecoder/pasteIdle`` after its
    /// first 64 K: it is delivered cut, and the rest that arrives after the pause is its tail,
    /// dropped up to its end marker (its `q`s and ESCs are no keys); the next key acts.
    @Test func aCutPasteThatPausesKeepsItsTailFromBeingKeys() {
        let big = String(repeating: "q\u{1B}x", count: 33_334)  // 100,002 characters
        let input = chars("\u{1B}[200~" + big + "\u{1B}[201~")
        var decoder = KeyDecoder()
        var events: [TerminalEvent] = []
        let start = ContinuousClock.now
        let pause = 70_000
        for begin in stride(from: 0, to: pause, by: 4096) {
            events += decoder.decode(Array(input[begin..<min(begin + 4096, pause)]), at: start)
        }
        events += decoder.timeOut()  // the link paused for a second
        #expect(events.count == 2 && events.last == .pasteCut(limit: KeyDecoder.maxPaste), "\(events.count)")
        #expect(decoder.waitLimit == KeyDecoder.pasteTailIdle)
        var tail: [TerminalEvent] = []
        for begin in stride(from: pause, to: input.count, by: 4096) {
            tail += decoder.decode(Array(input[begin..<min(begin + 4096, input.count)]), at: start + .seconds(2))
        }
        #expect(tail.isEmpty, "the tail is dropped: \(tail.prefix(3))")
        #expect(decoder.decode(chars("q"), at: start + .seconds(3)) == [.key(.char("q"))])
        // Keys typed after the paste that arrive in the tail's last read, after its end marker, act.
        _ = decoder.decode(chars("\u{1B}[200~" + big), at: start + .seconds(4))
        _ = decoder.timeOut()
        let keys = decoder.decode(chars("rest of it\u{1B}[201~q"), at: start + .seconds(6))
        #expect(keys == [.key(.char("q"))], "\(keys)")
        // ... and so do keys in the read right after the tail's end (no burst of the paste's own).
        _ = decoder.decode(chars("\u{1B}[200~" + big), at: start + .seconds(7))
        _ = decoder.timeOut()
        #expect(decoder.decode(chars("rest\u{1B}[201~"), at: start + .seconds(9)).isEmpty)
        #expect(decoder.decode(chars("q"), at: start + .seconds(9) + .milliseconds(5)) == [.key(.char("q"))])
        // A tail that never ends holds keys for ``KeyDecoder/pasteTailIdle`` only.
        _ = decoder.decode(chars("\u{1B}[200~" + big), at: start + .seconds(10))
        _ = decoder.timeOut()
        #expect(decoder.timeOut().isEmpty && decoder.waitLimit == nil)
        #expect(decoder.decode(chars("j"), at: start + .seconds(30)) == [.key(.char("j"))])
    }
}
