/// A value a list is sorted by, ordered the way SQLite orders its columns (which the server's
/// sorts have always followed): NULL first, then numbers, then text by its UTF-8 bytes.
enum SortKey: Comparable, Sendable {
    case null
    case integer(Int)
    case real(Double)
    case text([UInt8])

    /// A price: NaN is stored as NULL by SQLite, so it sorts first.
    static func number(_ value: Double) -> SortKey { value.isNaN ? .null : .real(value) }

    static func text(_ value: String) -> SortKey { .text(Array(value.utf8)) }

    /// `CAST(text AS INTEGER)` as SQLite does it: leading spaces, a sign, the longest run of
    /// digits (none is 0), clamped to the 64-bit range.
    static func integerPrefix(of text: String) -> SortKey {
        var bytes = text.utf8.drop { $0 == UInt8(ascii: " ") || (9...13).contains($0) }[...]
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var magnitude: UInt64 = 0
        var overflow = false
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { break }
            let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            overflow = overflow || o1 || o2
            magnitude = sum
        }
        if negative {
            return .integer(
                overflow || magnitude > UInt64(Int.max) + 1 ? Int.min : Int(truncatingIfNeeded: 0 &- magnitude))
        }
        return .integer(overflow || magnitude > UInt64(Int.max) ? Int.max : Int(magnitude))
    }

    private var rank: Int {
        switch self {
        case .null: 0
        case .integer, .real: 1
        case .text: 2
        }
    }

    static func < (lhs: SortKey, rhs: SortKey) -> Bool {
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)): a < b
        case (.real(let a), .real(let b)): a < b
        case (.integer(let a), .real(let b)): Double(a) < b
        case (.real(let a), .integer(let b)): a < Double(b)
        case (.text(let a), .text(let b)): a.lexicographicallyPrecedes(b)
        default: lhs.rank < rhs.rank
        }
    }
}
