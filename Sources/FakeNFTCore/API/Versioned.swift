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
