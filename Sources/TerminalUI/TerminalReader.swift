import Glibc

/// Reads what the terminal sent, in large reads, and decodes its UTF-8 into characters for
/// ``KeyDecoder``. The app reads the terminal itself rather than through curses, which reads a
/// byte or two per system call and waits out its escape delay inside the read: a flood of
/// 400 KB cost curses 400,000 calls and the app 1.5 s, with `q` waiting behind them.
///
/// A character cut by the end of a read is kept for the next; bytes that are not UTF-8 are
/// dropped (a terminal sends none).
struct TerminalReader {
    /// The bytes of one read(2).
    static let chunk = 64 * 1024
    /// The most one drain reads: a flood is taken in a few large drains, each one frame.
    static let mostPerDrain = 1 << 20

    /// The start of a character the last read cut.
    private var partial: [UInt8] = []
    /// Where read(2) puts the bytes: one buffer for every drain, not one a key.
    private var buffer = [UInt8](repeating: 0, count: chunk)

    /// Everything `fd` holds now (up to ``mostPerDrain``), without waiting, as characters.
    mutating func drain(_ fd: Int32) -> [RawInput] {
        var bytes: [UInt8] = []
        while bytes.count < Self.mostPerDrain {
            var ready = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            guard Syscalls.poll(&ready, timeoutMS: 0) > 0, ready[0].revents & Int16(POLLIN) != 0 else { break }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }  // the end or an error: the pump sees the hang-up
            bytes.append(contentsOf: buffer[..<count])
        }
        return decode(bytes)
    }

    /// `bytes` as characters, continuing a character the last call cut.
    mutating func decode(_ bytes: [UInt8]) -> [RawInput] {
        var input: [RawInput] = []
        input.reserveCapacity(bytes.count)
        var i = 0
        if !partial.isEmpty {
            let missing = Self.length(leading: partial[0]) - partial.count
            let taken = bytes.prefix(missing).prefix { $0 & 0xC0 == 0x80 }
            partial += taken
            i = taken.count
            if taken.count == missing, let scalar = Self.scalar(partial[...]) {
                input.append(.char(scalar))
            } else if i == bytes.count, taken.count < missing {
                return []  // still cut
            }
            partial = []  // whole, or not UTF-8 (dropped)
        }
        while i < bytes.count {
            let byte = bytes[i]
            if byte < 0x80 {
                input.append(.char(UInt32(byte)))
                i += 1
                continue
            }
            let length = Self.length(leading: byte)
            guard length > 1 else {  // a stray continuation or an invalid byte
                i += 1
                continue
            }
            guard i + length <= bytes.count else {
                if bytes[(i + 1)...].allSatisfy({ $0 & 0xC0 == 0x80 }) { partial = Array(bytes[i...]) }
                break
            }
            if let scalar = Self.scalar(bytes[i..<(i + length)]) {
                input.append(.char(scalar))
                i += length
            } else {
                i += 1
            }
        }
        return input
    }

    /// How many bytes a character that starts with `byte` has (1 for an invalid start).
    private static func length(leading byte: UInt8) -> Int {
        switch byte {
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 1
        }
    }

    /// The scalar `bytes` (a whole sequence) encode; nil when it is not valid UTF-8 (an overlong
    /// form, a surrogate, a missing continuation).
    private static func scalar(_ bytes: ArraySlice<UInt8>) -> UInt32? {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator), iterator.next() == nil else { return nil }
        return scalar.value
    }
}
