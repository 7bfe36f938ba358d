/// A request the server cannot read: a bad query parameter or body field, answered with 400.
public struct RequestError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    /// A field with a value the server cannot use.
    public static func badField(_ field: String, _ why: String) -> RequestError { RequestError("\(field): \(why)") }

    public var description: String { message }
}
