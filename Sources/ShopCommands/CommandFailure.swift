/// Why a command did not do what it was asked, in words for its caller, and the exit status
/// that says so: 1 when refused or failed, 64 (`EX_USAGE`, as the argument parser's) for a
/// command line that names no command or gives it wrong arguments.
public struct CommandFailure: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case failed, usage
    }

    public let kind: Kind
    public let message: String

    public var status: Int32 { kind == .usage ? Self.usageStatus : 1 }

    /// The exit status of a wrong command line.
    public static let usageStatus: Int32 = 64

    public static func failed(_ message: String) -> CommandFailure { CommandFailure(kind: .failed, message: message) }
    public static func usage(_ message: String) -> CommandFailure { CommandFailure(kind: .usage, message: message) }
}
