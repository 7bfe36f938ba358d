/// What the app acts on of one read's events. A person types a few keys between two reads (a
/// terminal without bracketed paste types a short paste as keys: a link, an address); a read of
/// more than ``maxKeys`` keys is a flood (a script, a stuck key over a slow link), which
/// would keep the app busy for seconds, each key a frame, with Ctrl-C, `q` and Esc waiting behind
/// it. Of a flood only those three are kept, and a ``TerminalEvent/keysDropped(_:)`` says how
/// many keys went. In any read Ctrl-C acts first, and of several resizes only the last is kept.
public enum InputBacklog {
    /// The most keys one read may hold and all be acted on.
    public static let maxKeys = 256

    /// The events of one read to act on, in order.
    public static func fair(_ events: [TerminalEvent]) -> [TerminalEvent] {
        guard events.count > 1 else { return events }
        let lastResize = events.lastIndex { if case .resize = $0 { true } else { false } }
        var kept = events.enumerated().filter { index, event in
            if case .resize = event { return index == lastResize }
            return true
        }.map(\.element)
        let keys = kept.count { if case .key = $0 { true } else { false } }
        if keys > maxKeys {
            kept = kept.filter { event in
                guard case .key(let key) = event else { return true }
                return isInterrupting(key)
            }
            let dropped = keys - kept.count { if case .key = $0 { true } else { false } }
            kept.insert(.keysDropped(dropped), at: 0)  // said before what is kept acts (a `q` ends the app)
        }
        if let interrupt = kept.firstIndex(of: .key(.ctrl("c"))), interrupt > 0 {
            kept.insert(kept.remove(at: interrupt), at: 0)
        }
        return kept
    }

    /// Keys that leave or stop: kept from a flood.
    static func isInterrupting(_ key: Key) -> Bool {
        key == .ctrl("c") || key == .escape || key == .char("q")
    }
}
