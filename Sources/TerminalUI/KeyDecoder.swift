import CNCursesW

/// One item read from curses: a character, a keypad code, or an event the session built itself.
enum RawInput: Sendable, Hashable {
    case char(UInt32)
    case code(Int32)
    case event(TerminalEvent)
}

/// Turns what curses read in one drain into events: keys, Ctrl combinations, bracketed paste.
/// Unknown escape sequences are dropped instead of leaking as typed characters.
enum KeyDecoder {
    static func decode(_ input: [RawInput]) -> [TerminalEvent] {
        var events: [TerminalEvent] = []
        var i = 0
        while i < input.count {
            switch input[i] {
            case .event(let e): events.append(e); i += 1
            case .code(let code):
                if let key = key(forCode: code) { events.append(.key(key)) }
                i += 1
            case .char(0x1B):
                i = decodeEscape(input, from: i, into: &events)
            case .char(let v):
                if let key = key(forChar: v) { events.append(.key(key)) }
                i += 1
            }
        }
        return events
    }

    private static func decodeEscape(_ input: [RawInput], from start: Int, into events: inout [TerminalEvent]) -> Int {
        let next = start + 1
        guard next < input.count, case .char(let c) = input[next], c == 0x5B || c == 0x4F else {
            events.append(.key(.escape))
            return next
        }
        // A CSI/SS3 sequence curses did not know: read to its final byte.
        var j = next + 1
        var params: [UInt32] = []
        while j < input.count, case .char(let v) = input[j] {
            j += 1
            if v >= 0x40 && v <= 0x7E { params.append(v); break }
            params.append(v)
        }
        if c == 0x5B, params == Array("200~".unicodeScalars.map(\.value)) {
            return decodePaste(input, from: j, into: &events)
        }
        if let key = alternativeKey(String(String.UnicodeScalarView(params.compactMap(Unicode.Scalar.init)))) {
            events.append(.key(key))
        }
        return j
    }

    private static func decodePaste(_ input: [RawInput], from start: Int, into events: inout [TerminalEvent]) -> Int {
        let end: [UInt32] = [0x1B] + "[201~".unicodeScalars.map(\.value)
        var text = String.UnicodeScalarView()
        var j = start
        while j < input.count {
            if case .char = input[j], j + end.count <= input.count,
               (0..<end.count).allSatisfy({ input[j + $0] == .char(end[$0]) }) {
                j += end.count
                break
            }
            if case .char(let v) = input[j], let s = Unicode.Scalar(v) { text.append(s) }
            j += 1
        }
        events.append(.paste(SafeText.sanitize(String(text), keepNewlines: true)))
        return j
    }

    /// Sequences that terminals (tmux, screen, rxvt, linux console) send for keys their terminfo
    /// entry may not list: `ESC [ 4 ~` for End, `ESC O H` for Home, and so on.
    static func alternativeKey(_ sequence: String) -> Key? {
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
        default: return nil
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

    static func key(forCode code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME: return .home
        case KEY_END, KEY_LL: return .end
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .backTab
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case (KEY_F0 + 1)...(KEY_F0 + 12): return .function(Int(code - KEY_F0))
        default: return nil
        }
    }
}
