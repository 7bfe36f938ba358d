/// Whether bytes are one JSON object as RFC 8259 writes it (no control characters outside escapes,
/// nesting at most ``deepest``), checked without building anything: for JSON that is served as
/// it came from another server, and must be JSON whoever sent it.
enum JSONSyntax {
    static let deepest = 64
    /// What may follow a backslash in a string, `u` and its four hex digits aside.
    private static let escapes = Set("\"\\/bfnrt".utf8)

    static func isObject(_ bytes: some Collection<UInt8>) -> Bool {
        var reader = Reader(bytes: Array(bytes))
        reader.skipSpace()
        guard reader.peek == UInt8(ascii: "{"), reader.value(depth: 0) else { return false }
        reader.skipSpace()
        return reader.atEnd
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool { index == bytes.count }
        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            index += 1
            return true
        }

        mutating func value(depth: Int) -> Bool {
            skipSpace()
            switch peek {
            case UInt8(ascii: "{"):
                return depth < JSONSyntax.deepest && members(close: UInt8(ascii: "}"), depth: depth, keyed: true)
            case UInt8(ascii: "["):
                return depth < JSONSyntax.deepest && members(close: UInt8(ascii: "]"), depth: depth, keyed: false)
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return word("true")
            case UInt8(ascii: "f"): return word("false")
            case UInt8(ascii: "n"): return word("null")
            default: return number()
            }
        }

        /// An object's members or an array's items, the opening bracket first.
        mutating func members(close: UInt8, depth: Int, keyed: Bool) -> Bool {
            index += 1
            skipSpace()
            if take(close) { return true }
            while true {
                if keyed {
                    skipSpace()
                    guard string() else { return false }
                    skipSpace()
                    guard take(UInt8(ascii: ":")) else { return false }
                }
                guard value(depth: depth + 1) else { return false }
                skipSpace()
                if take(close) { return true }
                guard take(UInt8(ascii: ",")) else { return false }
            }
        }

        mutating func string() -> Bool {
            guard take(UInt8(ascii: "\"")) else { return false }
            while let byte = peek {
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return true
                case 0..<0x20: return false
                case UInt8(ascii: "\\"):
                    guard let escaped = peek else { return false }
                    index += 1
                    if escaped == UInt8(ascii: "u") {
                        for _ in 0..<4 {
                            guard let hex = peek, hex.isHexDigit else { return false }
                            index += 1
                        }
                    } else if !JSONSyntax.escapes.contains(escaped) {
                        return false
                    }
                default: continue
                }
            }
            return false
        }

        mutating func word(_ word: StaticString) -> Bool {
            let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            guard bytes.count - index >= expected.count, bytes[index..<index + expected.count].elementsEqual(expected)
            else { return false }
            index += expected.count
            return true
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
        mutating func number() -> Bool {
            _ = take(UInt8(ascii: "-"))
            if !take(UInt8(ascii: "0")) {
                guard digits() else { return false }
            }
            if take(UInt8(ascii: ".")) {
                guard digits() else { return false }
            }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                guard digits() else { return false }
            }
            return true
        }

        mutating func digits() -> Bool {
            let start = index
            while let byte = peek, byte.isDigit { index += 1 }
            return index > start
        }
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
    fileprivate var isHexDigit: Bool {
        isDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
