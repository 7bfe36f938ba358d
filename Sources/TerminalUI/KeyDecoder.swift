/// One item read from the terminal: a character, or an event the session built itself.
enum RawInput: Sendable, Hashable {
    case char(UInt32)
    case event(TerminalEvent)
}

/// Turns what the terminal sends into events: keys (the escape sequences of arrows, Home, End,
/// the function keys and the rest, in their xterm, VT220, rxvt and Linux console forms), Ctrl
/// combinations, mouse reports (SGR and X10), bracketed paste. Unknown escape sequences are
/// dropped instead of leaking as typed characters. An ESC that ends a read is held for
/// ``escapeDelay`` (the rest of its sequence may be on its way) and is then Escape.
///
/// The terminal's answers to the start-up queries arrive among the keys, whenever the terminal
/// sends them (at once, after a network's delay, or never): device attributes and size reports
/// (CSI), XTVERSION (DCS `>|`), the kitty graphics answer (APC `G`) and the background colour
/// (OSC 11). They are collected, never typed, and delivered as one
/// ``TerminalEvent/terminalReplies(_:)`` once the last device attributes came.
///
/// It keeps state between drains, because a paste arrives over many reads: once `ESC[200~` is
/// seen, everything is text until `ESC[201~`, however the input is split; a paste is one event
/// of at most ``maxPaste`` characters (the rest is dropped and ``TerminalEvent/pasteCut(limit:)``
/// follows). Pasted text may hold end markers of its own, and what follows one comes before the
/// terminal's own end marker however slowly it arrives, so nothing after it is a key: only an end
/// marker that ends a read ends the paste (one followed by more input is text), and a read that
/// comes within ``burstGap`` of a paste's end opens the paste again. A paste that nothing more
/// arrives for in ``pasteIdle`` is delivered as it is (``timeOut()``: the session's clock), so a
/// terminal that never ends its paste holds no key for long. A paste past ``maxPaste`` that
/// pauses that long (a slow link: the rest is still on its way) is delivered cut, and what follows
/// is its tail, dropped until its first end marker (keys may follow it in the same read) or
/// ``pasteTailIdle`` of silence: never keys. Each
/// character is looked at a bounded number of times, so no paste can keep the app busy.
struct KeyDecoder {
    /// The most characters one paste delivers.
    static let maxPaste = 64 * 1024
    private static let endMarker: [UInt32] = [0x1B] + "[201~".unicodeScalars.map(\.value)
    /// A read this close to a paste's end continues it: the tail of a paste that held an end
    /// marker of its own, which a terminal sends on at once.
    static let burstGap = Duration.milliseconds(30)
    /// How long a paste stays open with nothing more arriving.
    static let pasteIdle = Duration.seconds(1)
    /// How long the tail of a paste delivered cut is waited for with nothing arriving.
    static let pasteTailIdle = Duration.seconds(10)
    /// How long an ESC that ended a read (or a key's sequence cut by it) waits for the rest
    /// before it is Escape (the cut sequence is dropped).
    static let escapeDelay = Duration.milliseconds(25)

    /// The text of a paste still open at the end of the last drain.
    private var paste: String.UnicodeScalarView?
    private var pasteLength = 0
    private var pasteCut = false
    /// The open paste is the tail of one delivered cut: dropped up to its end.
    private var pasteIsTail = false
    /// When the last paste ended (nil: a key or nothing came since).
    private var pasteEnded: ContinuousClock.Instant?
    /// The time of the read being decoded.
    private var now = ContinuousClock.now
    /// The start of an escape sequence (or of a paste's end marker) cut off at the end of the
    /// last drain.
    private var heldInput: [RawInput] = []
    /// What is held is a key's start (an ESC, a cut sequence), decided after ``escapeDelay``;
    /// false for a reply cut by the read, which waits for its rest.
    private var holdsKeyStart = false
    /// The terminal said it has the focus again (mode 1004) since ``takeFocusIn()`` last asked.
    private var focusCameIn = false
    /// The final bytes of the replies that start `CSI ?`: c, u, y, n.
    private static let replyFinals: Set<UInt32> = [0x63, 0x75, 0x79, 0x6E]

    /// Whether the terminal said it has the focus again since the last call.
    mutating func takeFocusIn() -> Bool {
        defer { focusCameIn = false }
        return focusCameIn
    }
    /// Device attributes answers still to come (each query set ends with one); 0 when nothing was asked.
    private var awaitedAttributes = 0
    /// The replies read so far.
    private var replies: [UInt8] = []
    /// The longest reply string kept (a kitty or XTVERSION answer is far shorter).
    static let maxReply = 4096

    /// Expects the answers to queries that end with `attributes` device attributes requests.
    mutating func expectReplies(endingWithDeviceAttributes attributes: Int) {
        awaitedAttributes = attributes
        replies = []
    }

    /// Whether answers to queries are still awaited.
    var awaitsReplies: Bool { awaitedAttributes > 0 }

    /// Expects no more answers (a terminal that has not answered by now never will): a reply
    /// string cut by a read is then Alt and keys, not the start of an answer.
    mutating func stopExpectingReplies() {
        awaitedAttributes = 0
        replies = []
    }

    /// How long to wait for more input before ``timeOut()`` decides what is held: a key's
    /// start (``escapeDelay``), an open paste (``pasteIdle``); nil when nothing is held.
    var waitLimit: Duration? {
        if paste != nil { return pasteIsTail ? Self.pasteTailIdle : Self.pasteIdle }
        return holdsKeyStart ? Self.escapeDelay : nil
    }

    /// What is held, decided as if no more input came: an open paste is delivered as it is (a
    /// cut end marker with it, as text), a lone ESC is Escape (no terminal cuts its own answer
    /// there for that long), whatever answers are still awaited; ESC and one character are
    /// Escape and that key (typed fast); a longer cut sequence is dropped.
    mutating func timeOut() -> [TerminalEvent] {
        var events: [TerminalEvent] = []
        if paste != nil {
            for case .char(let v) in heldInput { if let scalar = Unicode.Scalar(v) { append(scalar) } }
            heldInput = []
            let cutAndPaused = pasteCut && !pasteIsTail
            finishPaste(into: &events)
            if cutAndPaused {  // the rest is still coming: its tail, never keys
                openPaste()
                (pasteLength, pasteIsTail) = (Self.maxPaste, true)
            }
        } else if holdsKeyStart {
            if heldInput.count <= 2 {
                events.append(.key(.escape))
                for case .char(let v) in heldInput.dropFirst() {
                    if let key = Self.key(forChar: v) { events.append(.key(key)) }
                }
            }
            heldInput = []
            holdsKeyStart = false
        }
        return events
    }

    /// Decodes one read followed by silence, in a decoder that remembers nothing (tests).
    static func decode(_ input: [RawInput]) -> [TerminalEvent] {
        var decoder = KeyDecoder()
        return decoder.decode(input) + decoder.timeOut()
    }

    /// The events of one drain read at `now`, continuing any paste the last one left open.
    mutating func decode(_ drained: [RawInput], at now: ContinuousClock.Instant = .now) -> [TerminalEvent] {
        self.now = now
        var events: [TerminalEvent] = []
        if let pasteEnded, paste == nil, heldInput.isEmpty, now - pasteEnded < Self.burstGap,
            drained.contains(where: { if case .char = $0 { true } else { false } })
        {
            openPaste()  // the tail of a paste that held an end marker of its own
        }
        pasteEnded = nil
        let input = heldInput + drained
        heldInput = []
        holdsKeyStart = false
        var i = 0
        if paste != nil { i = continuePaste(input, from: 0, into: &events) }
        while i < input.count {
            switch input[i] {
            case .event(let e):
                events.append(e)
                i += 1
            case .char(0x1B):
                i = decodeEscape(input, from: i, into: &events)
                if paste != nil { i = continuePaste(input, from: i, into: &events) }
            case .char(let v):
                if let key = Self.key(forChar: v) { events.append(.key(key)) }
                i += 1
            }
        }
        return events
    }

    private mutating func decodeEscape(_ input: [RawInput], from start: Int, into events: inout [TerminalEvent]) -> Int
    {
        let next = start + 1
        if next == input.count {  // Escape, or the start of a key's sequence or of a reply still on its way
            return hold(input, from: start)
        }
        if next < input.count, case .char(let c) = input[next],
            let reply = replyString(input, introducer: c, from: start)
        {
            switch reply {
            case .read(let end): return end
            case .cut:  // decode it with the next read
                heldInput = Array(input[start...])
                return input.count
            }
        }
        guard next < input.count, case .char(let c) = input[next], c == 0x5B || c == 0x4F else {
            events.append(.key(.escape))
            return next
        }
        // A CSI or SS3 sequence: read to its final byte.
        var j = next + 1
        var params: [UInt32] = []
        var complete = false
        while j < input.count, case .char(let v) = input[j] {
            j += 1
            params.append(v)
            if v >= 0x40 && v <= 0x7E {
                complete = true
                break
            }
        }
        if !complete && j == input.count {  // cut by the read: decode it with the next one
            return hold(input, from: start)
        }
        if c == 0x5B, params == Array("200~".unicodeScalars.map(\.value)) {
            openPaste()
            return j
        }
        if c == 0x5B, let final = params.last, params.first == 0x3F && Self.replyFinals.contains(final) || final == 0x74
        {
            // A reply: device attributes (CSI ? … c), a size report (CSI 4/6 ; … t), the kitty keyboard
            // flags (CSI ? … u), a mode's state (CSI ? … $ y), a colour scheme (CSI ? 997 ; … n).
            let sequence = input[start..<j]
            if awaitedAttributes == 0, final == 0x6E {  // a colour scheme the terminal reports on its own
                let bytes = sequence.compactMap {
                    if case .char(let v) = $0 { UInt8(truncatingIfNeeded: v) } else { nil }
                }
                events.append(.terminalReplies(TerminalReplies(parsing: bytes)))
            }
            keep(sequence, into: &events, endsAttributes: final == 0x63)
            return j
        }
        if c == 0x5B, params == [0x49] || params == [0x4F] {  // focus in (CSI I) or out (CSI O)
            if params == [0x49] { focusCameIn = true }
            return j
        }
        if c == 0x5B, params.last == 0x75, let first = params.first, (0x30...0x39).contains(first) {
            // the kitty keyboard protocol: CSI code ; modifiers u
            if let key = Self.key(
                forKittyKey: String(String.UnicodeScalarView(params.dropLast().compactMap(Unicode.Scalar.init))))
            {
                events.append(.key(key))
            }
            return j
        }
        if c == 0x5B, params == [0x4D] || params == [0x5B] {  // X10 mouse (3 bytes more), Linux F1-F5 (1 more)
            let end = j + (params == [0x4D] ? 3 : 1)
            guard end <= input.count else { return hold(input, from: start) }
            let more = input[j..<end].compactMap { if case .char(let v) = $0 { Int(v) } else { nil } }
            if params == [0x4D], more.count == 3 {
                if let mouse = Self.mouse(button: more[0] - 32, column: more[1] - 32, row: more[2] - 32, pressed: true)
                {
                    events.append(.mouse(mouse))
                }
            } else if let f = more.first, (0x41...0x45).contains(f) {
                events.append(.key(.function(f - 0x40)))
            }
            return end
        }
        let sequence = String(String.UnicodeScalarView(params.compactMap(Unicode.Scalar.init)))
        if c == 0x5B, sequence.hasPrefix("<") {  // SGR mouse: CSI < button ; column ; row M (pressed) or m
            let fields = sequence.dropFirst().dropLast().split(separator: ";", omittingEmptySubsequences: false)
            let numbers = fields.compactMap { $0.count <= 6 ? Int($0) : nil }
            if numbers.count == 3,
                let mouse = Self.mouse(
                    button: numbers[0], column: numbers[1], row: numbers[2], pressed: sequence.last == "M")
            {
                events.append(.mouse(mouse))
            }
        } else if let key = Self.key(forSequence: sequence, ss3: c == 0x4F) {
            events.append(.key(key))
        }
        return j
    }

    /// Holds `input` from `start` (an ESC and what followed it) for the next read, as a key's
    /// start: decided by ``timeOut()`` if the rest does not come within ``escapeDelay``.
    private mutating func hold(_ input: [RawInput], from start: Int) -> Int {
        heldInput = Array(input[start...])
        holdsKeyStart = true
        return input.count
    }

    /// The mouse event of a report (`button` with its modifier bits, a 1-based cell); nil for a
    /// release, a motion, or a button the app does not use.
    static func mouse(button: Int, column: Int, row: Int, pressed: Bool) -> MouseEvent? {
        guard pressed, column >= 1, row >= 1, button >= 0, button & 32 == 0 else { return nil }
        let point = Point(x: column - 1, y: row - 1)
        switch button & ~(4 | 8 | 16) {  // Shift, Alt, Ctrl
        case 0: return MouseEvent(kind: .click, point: point)
        case 64: return MouseEvent(kind: .wheelUp, point: point)
        case 65: return MouseEvent(kind: .wheelDown, point: point)
        default: return nil
        }
    }

    /// A reply string as read: whole (up to the index after it), or cut by the end of the read.
    private enum ReplyString { case read(end: Int), cut }

    /// When `ESC introducer` starts a reply string (DCS `>|`, APC `G`, OSC and a digit): where it
    /// ends (ST or BEL), its bytes kept with the replies (up to ``maxReply``: a longer one is
    /// dropped); nil when it is not a reply (Alt and a key).
    private mutating func replyString(_ input: [RawInput], introducer: UInt32, from start: Int) -> ReplyString? {
        guard [0x50, 0x5F, 0x5D].contains(introducer) else { return nil }  // P, _, ]
        guard start + 2 < input.count else { return awaitedAttributes > 0 ? .cut : nil }
        guard case .char(let first) = input[start + 2] else { return nil }
        let looksLikeReply =
            switch introducer {
            case 0x50: first == 0x3E  // DCS >|
            case 0x5F: first == 0x47  // APC G
            default: (0x30...0x39).contains(first)  // OSC 11;
            }
        guard looksLikeReply else { return nil }
        var j = start + 2
        while true {
            // Cut by the read: wait for the rest only while answers are expected (else it is Alt and keys).
            guard j < input.count else {
                return j - start > Self.maxReply ? .read(end: j) : awaitedAttributes > 0 ? .cut : nil
            }
            guard case .char(let v) = input[j] else { return .read(end: j) }  // a curses code: not a reply
            if v == 0x07 {
                j += 1
                break
            }  // BEL
            if v == 0x1B {
                guard j + 1 < input.count else { return awaitedAttributes > 0 ? .cut : nil }
                if input[j + 1] == .char(0x5C) {
                    j += 2
                    break
                }  // ST
            }
            j += 1
            if j - start > Self.maxReply { return .read(end: j) }  // too long for a reply: dropped
        }
        var none: [TerminalEvent] = []
        keep(input[start..<j], into: &none, endsAttributes: false)
        return .read(end: j)
    }

    /// Adds a reply's bytes; once the last device attributes came, delivers them all.
    private mutating func keep(
        _ sequence: ArraySlice<RawInput>, into events: inout [TerminalEvent], endsAttributes: Bool
    ) {
        guard awaitedAttributes > 0 else { return }  // not asked (or answered already): dropped
        for case .char(let v) in sequence where replies.count < 16 * Self.maxReply {
            replies.append(UInt8(truncatingIfNeeded: v))
        }
        if endsAttributes {
            awaitedAttributes -= 1
            if awaitedAttributes == 0 {
                events.append(.terminalReplies(TerminalReplies(parsing: replies)))
                replies = []
            }
        }
    }

    private mutating func openPaste() {
        paste = String.UnicodeScalarView()
        pasteLength = 0
        pasteCut = false
        pasteIsTail = false
    }

    /// Reads pasted text from `start` to the end of the input: the paste ends with this read
    /// when an end marker ends it; a marker with more after it in the read was pasted (text),
    /// and without an end the paste stays open for the next read. What the session made itself
    /// (a resize) passes.
    private mutating func continuePaste(_ input: [RawInput], from start: Int, into events: inout [TerminalEvent]) -> Int
    {
        var j = start
        while j < input.count {
            let matched = Self.markerMatch(input, at: j)
            if matched == Self.endMarker.count {
                j += matched
                if pasteIsTail {  // a dropped tail's end: what follows it, now or soon, is keys typed after it
                    finishPaste(into: &events)
                    return j
                }
                if j == input.count {  // the terminal's own end
                    finishPaste(into: &events)
                    pasteEnded = now
                    return j
                }
                append("[201~")  // more in this read: the marker was pasted
                continue
            }
            if matched > 0 && j + matched == input.count {  // a marker cut by the read: wait for the rest
                heldInput = Array(input[j...])
                return input.count
            }
            switch input[j] {
            case .char(let v): if let scalar = Unicode.Scalar(v) { append(scalar) }
            case .event(let event): events.append(event)
            }
            j += 1
        }
        return j
    }

    /// How many elements at `index` match the start of the end marker.
    private static func markerMatch(_ input: [RawInput], at index: Int) -> Int {
        var n = 0
        while n < endMarker.count, index + n < input.count, input[index + n] == .char(endMarker[n]) { n += 1 }
        return n
    }

    private mutating func append(_ scalar: Unicode.Scalar) {
        guard paste != nil else { return }
        if pasteLength < Self.maxPaste {
            paste?.append(scalar)  // in place: no copy of the text so far
            pasteLength += 1
        } else {
            pasteCut = true
        }
    }

    private mutating func append(_ string: String) { string.unicodeScalars.forEach { append($0) } }

    private mutating func finishPaste(into events: inout [TerminalEvent]) {
        guard let text = paste else { return }
        if !pasteIsTail {
            let sanitized = SafeText.sanitize(String(text), keepNewlines: true)
            if !sanitized.isEmpty { events.append(.paste(sanitized)) }
            if pasteCut { events.append(.pasteCut(limit: Self.maxPaste)) }
        }
        paste = nil
        pasteCut = false
        pasteIsTail = false
    }

    /// The key of a CSI or SS3 sequence (`ss3`) without its ESC and introducer, in the forms
    /// xterm, VT220, tmux, screen, rxvt and the Linux console send; nil for one the app does not
    /// use (Ctrl and Alt combinations among them).
    static func key(forSequence sequence: String, ss3: Bool) -> Key? {
        switch sequence {
        case "1~", "7~", "H": return .home
        case "4~", "8~", "F": return .end
        case "5~": return .pageUp
        case "6~": return .pageDown
        case "3~": return .delete
        case "Z": return .backTab
        case "A": return .up
        case "B": return .down
        case "C": return .right
        case "D": return .left
        case "1;2A", "a": return .shiftUp  // xterm's, rxvt's
        case "1;2B", "b": return .shiftDown
        case "1;2C", "c": return .shiftRight
        case "1;2D", "d": return .shiftLeft
        case "M" where ss3: return .enter  // the keypad's
        case "P", "Q", "R", "S": return .function(Int(sequence.unicodeScalars.first!.value) - 0x4F)
        default:
            // VT220 function keys: F1-F5 are 11~…15~, F6-F10 17~…21~, F11 and F12 23~ and 24~
            guard sequence.hasSuffix("~"), let number = Int(sequence.dropLast()) else { return nil }
            return switch number {
            case 11...15: .function(number - 10)
            case 17...21: .function(number - 11)
            case 23, 24: .function(number - 12)
            default: nil
            }
        }
    }

    /// The key of a kitty keyboard protocol report (`code` or `code;modifiers`, the disambiguate
    /// flag's forms): Esc, Enter, Tab, Backspace, Ctrl- and Shift- combinations and the keypad;
    /// nil for one the app does not use (Alt, Super, and a lock or modifier key alone).
    static func key(forKittyKey sequence: String) -> Key? {
        let fields = sequence.split(separator: ";", omittingEmptySubsequences: false)
        let codeField = fields.first?.split(separator: ":").first ?? ""  // alternate keys after `:`, unasked
        let modifierField = fields.count > 1 ? fields[1].split(separator: ":").first ?? "" : "1"
        guard fields.count <= 3, codeField.count <= 7, modifierField.count <= 4, let code = UInt32(codeField),
            let modifierValue = Int(modifierField.isEmpty ? "1" : modifierField), modifierValue >= 1
        else { return nil }
        let modifiers = (modifierValue - 1) & ~(64 | 128)  // Caps Lock and Num Lock change nothing here
        let (shift, ctrl) = (modifiers & 1 != 0, modifiers & 4 != 0)
        guard modifiers & ~(1 | 4) == 0 else { return nil }  // Alt, Super, Hyper, Meta
        switch code {
        case 27: return modifiers == 0 ? .escape : nil
        case 13, 57414: return ctrl ? nil : .enter
        case 9: return ctrl ? nil : shift ? .backTab : .tab
        case 127, 8: return ctrl ? nil : .backspace
        case 57399...57408: return .char(Character(Unicode.Scalar(code - 57399 + 0x30)!))  // the keypad's digits
        case 57409...57416: return .char(Array("./*-+ =,")[Int(code - 57409)])  // 57414, Enter, is above
        case 57417: return .left
        case 57418: return .right
        case 57419: return .up
        case 57420: return .down
        case 57421: return .pageUp
        case 57422: return .pageDown
        case 57423: return .home
        case 57424: return .end
        case 57426: return .delete
        default:
            // a key of the private use area is a functional key the app does not use (Caps Lock, F13, …)
            guard code < 57344 || code > 63743, let scalar = Unicode.Scalar(code) else { return nil }
            if ctrl {
                let letter = Character(scalar).lowercased()
                guard !shift, letter.count == 1, let first = letter.unicodeScalars.first,
                    (0x61...0x7A).contains(first.value)
                else { return nil }
                return .ctrl(Character(letter))
            }
            let text = shift ? Character(scalar).uppercased() : String(Character(scalar))
            return text.count == 1 ? key(forChar: text.unicodeScalars.first!.value) : nil
        }
    }

    static func key(forChar v: UInt32) -> Key? {
        switch v {
        case 0x0D, 0x0A: return .enter
        case 0x09: return .tab
        case 0x7F, 0x08: return .backspace
        case 0x01...0x1A:
            return .ctrl(Character(Unicode.Scalar(v + 0x60)!))
        case 0x00..<0x20, 0x80...0x9F: return nil
        default:
            guard let scalar = Unicode.Scalar(v), !SafeText.isUnsafe(v) else { return nil }
            return .char(Character(scalar))
        }
    }
}
