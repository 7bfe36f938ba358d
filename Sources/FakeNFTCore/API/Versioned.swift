import Foundation

/// A value as the server sent it, with its version: the `ETag` header, passed back as
/// `If-Match` so that a change made from an older version is refused. Nil when the server
/// sends no ETag (then changes are unconditional, as with the original FakeNFT servers).
public struct Versioned<Value: Sendable>: Sendable {
    public var value: Value
    public var version: String?

    public init(value: Value, version: String?) {
        self.value = value
        self.version = version
    }
}

extension Versioned {
    /// Whether this version (`"7"`) is older than `other`; false when either is not a number.
    public func isOlder(than other: String?) -> Bool {
        func number(_ tag: String?) -> Int? {
            tag.flatMap { Int($0.trimmingCharacters(in: CharacterSet(charactersIn: "\""))) }
        }
        guard let mine = number(version), let theirs = number(other) else { return false }
        return mine < theirs
    }

    /// The same version of another value (a part of this one).
    public func map<Other: Sendable>(_ part: (Value) -> Other) -> Versioned<Other> {
        Versioned<Other>(value: part(value), version: version)
    }
}
