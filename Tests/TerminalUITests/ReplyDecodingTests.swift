import Testing
@testable import TerminalUI

/// The terminal's answers to the start-up queries arrive among the keys, whenever it sends them:
/// they are collected into one event once the last device attributes came, never typed, however
/// the reads cut them; keys around them stay keys.
@Suite struct ReplyDecodingTests {
    static let esc = "\u{1B}"
    /// Recorded and documented answers (TerminalDetectionTests has where each comes from).
    static let kitty =
        """
        \(esc)P>|kitty(0.35.2)\(esc)\\\(esc)_Gi=31;OK\(esc)\\\(esc)[6;20;10t\(esc)[4;800;1000t\
        \(esc)[?0u\(esc)[?2026;2$y\(esc)[?997;2n\(esc)]11;rgb:ffff/ffff/ffff\(esc)\\\(esc)[?62;c
        """
    static let tmuxOpen =
        """
        \(esc)P>|tmux \
        3.3a\(esc)\\\(esc)]11;rgb:0000/0000/0000\u{07}\(esc)[?1;2c\
        \(esc)P>|XTerm(379)\(esc)\\\(esc)[?63;1;2;4;6;9;15;16;22;28c
        """

    func chars(_ s: String) -> [RawInput] { s.unicodeScalars.map { .char($0.value) } }

    /// The one replies event of `events`, parsed; every other event must be a key of `keys`.
    func replies(in events: [TerminalEvent], keys: [Key]) -> TerminalReplies? {
        var found: [TerminalReplies] = []
        var typed: [Key] = []
        for event in events {
            switch event {
            case .terminalReplies(let replies): found.append(replies)
            case .key(let key): typed.append(key)
            default: Issue.record("unexpected \(event)")
            }
        }
        #expect(typed == keys, "typed: \(typed)")
        #expect(found.count <= 1)
        return found.first
    }

    @Test(arguments: [(kitty, 1), (tmuxOpen, 2)]) func answersCutAtEveryOffsetAreOneEventAndNoKey(
        _ answer: String, attributes: Int
    ) {
        let whole = TerminalReplies(parsing: Array(answer.utf8))
        let input = chars("j" + answer + "k")
        for cut in 0...input.count {  // a read ending right after an ESC holds it for the rest
            var decoder = KeyDecoder()
            decoder.expectReplies(endingWithDeviceAttributes: attributes)
            let events = decoder.decode(Array(input[..<cut])) + decoder.decode(Array(input[cut...]))
            let parsed = replies(in: events, keys: [.char("j"), .char("k")])
            #expect(parsed == whole, "cut at \(cut)")
        }
    }

    /// tmux answers for itself but, with passthrough off (its default), never forwards the
    /// outer terminal's: a lone ESC read while that answer is still awaited is kept back only
    /// until the escape delay ends, then it is Escape, and the next key is its own.
    @Test func aLoneEscapeActsWhileAnAnswerNeverComes() {
        let tmuxOwn = "\(Self.esc)P>|tmux 3.3a\(Self.esc)\\\(Self.esc)]11;rgb:0000/0000/0000\u{07}\(Self.esc)[?1;2c"
        var decoder = KeyDecoder()
        decoder.expectReplies(endingWithDeviceAttributes: 2)
        #expect(decoder.decode(chars(tmuxOwn)) == [])
        #expect(decoder.decode(chars(Self.esc)) == [], "kept back: a reply may follow")
        #expect(decoder.waitLimit == KeyDecoder.escapeDelay)
        #expect(decoder.timeOut() == [.key(.escape)])
        #expect(decoder.waitLimit == nil)
        #expect(decoder.timeOut() == [], "released once")
        #expect(decoder.decode(chars("\r")) == [.key(.enter)])
        #expect(decoder.decode(chars("j")) == [.key(.char("j"))])
    }

    /// Answers nobody asked for (or that come again later) are dropped, still never typed; only
    /// a colour scheme report is news whenever it comes (mode 2031 sends it unasked).
    @Test func unaskedAnswersAreDroppedNotTyped() {
        var scheme = TerminalReplies()
        scheme.colorScheme = .light
        let events = KeyDecoder.decode(chars(Self.kitty + "x"))
        #expect(events == [.terminalReplies(scheme), .key(.char("x"))])
    }

    /// Until the last device attributes come there is no event: a terminal that never answers
    /// costs nothing, and its keys are keys.
    @Test func silenceOrHalfAnAnswerIsNoEvent() {
        var decoder = KeyDecoder()
        decoder.expectReplies(endingWithDeviceAttributes: 2)
        #expect(decoder.decode(chars("a\(Self.esc)[?1;2cb")) == [.key(.char("a")), .key(.char("b"))])
    }

    /// Alt and a key is not a reply: ESC P followed by anything but `>|`'s `>` stays Esc and P.
    @Test func altAndAKeyStaysKeys() {
        var decoder = KeyDecoder()
        decoder.expectReplies(endingWithDeviceAttributes: 1)
        #expect(
            decoder.decode(chars("\(Self.esc)Px\(Self.esc)]q")) == [
                .key(.escape), .key(.char("P")), .key(.char("x")),
                .key(.escape), .key(.char("]")), .key(.char("q")),
            ])
    }

    /// A string that never ends is bounded: past the longest reply it is dropped, and input goes on.
    @Test func anEndlessReplyStringIsBounded() {
        var decoder = KeyDecoder()
        decoder.expectReplies(endingWithDeviceAttributes: 1)
        let endless = "\(Self.esc)_G" + String(repeating: "A", count: KeyDecoder.maxReply + 10)
        let events = decoder.decode(chars(endless))
        #expect(events.allSatisfy { if case .key(.char("A")) = $0 { true } else { false } } && events.count < 20)
    }

    /// Once answers are no longer expected, a reply string cut by the read is Alt and keys (no
    /// input is held back waiting for an end that will not come); a whole one is still dropped.
    @Test func afterTheWaitACutStringIsKeys() {
        var decoder = KeyDecoder()
        decoder.expectReplies(endingWithDeviceAttributes: 1)
        decoder.stopExpectingReplies()
        #expect(decoder.decode(chars("\(Self.esc)]1")) == [.key(.escape), .key(.char("]")), .key(.char("1"))])
        #expect(decoder.decode(chars("\(Self.esc)]11;rgb:0/0/0\u{07}x")) == [.key(.char("x"))])
    }

    @Test func theModesAnswersAreRead() {
        let kitty = TerminalReplies(parsing: Array(Self.kitty.utf8))
        #expect(kitty.keyboardFlags == 0 && kitty.synchronizedOutput == 2 && !kitty.cannotSynchronize)
        #expect(kitty.colorScheme == .light)
        let unknown = TerminalReplies(parsing: Array("\(Self.esc)[?2026;0$y\(Self.esc)[?1;2c".utf8))
        #expect(unknown.cannotSynchronize && unknown.keyboardFlags == nil && unknown.colorScheme == nil)
        #expect(Theme.decide(choice: .auto, environment: [:], replies: kitty).theme == .light, "the scheme wins")
    }

    /// Once the start-up answers are in, a colour scheme report (mode 2031) is an event of its
    /// own, and a focus report is taken by the session; neither is a key.
    @Test func reportsAfterTheStartAreEventsNotKeys() {
        var decoder = KeyDecoder()
        let events = decoder.decode(chars("j\(Self.esc)[?997;2nk\(Self.esc)[I\(Self.esc)[O"))
        guard events.count == 3, case .terminalReplies(let replies) = events[1] else {
            Issue.record("\(events)")
            return
        }
        #expect(events[0] == .key(.char("j")) && events[2] == .key(.char("k")))
        #expect(replies.colorScheme == .light)
        #expect(decoder.takeFocusIn() && !decoder.takeFocusIn(), "told once")
    }
}
