/// Runs one command line through the table (``ShopCommand/all``): what every door calls.
public enum CommandRunner {
    /// Who runs a command.
    public enum Caller: Sendable {
        /// An account (or, on a server without accounts, the shared profile): every command.
        case account
        /// A visitor without an account: the catalog only; the rest says `reason`.
        case visitor(reason: String)
    }

    /// What a command printed and its exit status.
    public struct Outcome: Sendable, Equatable {
        public var stdout = ""
        public var stderr = ""
        public var status: Int32 = 0
        /// The command that ran, as logs and metrics name it (`unknown` for none).
        public var command = "unknown"

        public init(stdout: String = "", stderr: String = "", status: Int32 = 0, command: String = "unknown") {
            self.stdout = stdout
            self.stderr = stderr
            self.status = status
            self.command = command
        }
    }

    /// Runs `words` (`nft 42 --json`, `help cart`) against `api` for `caller`; `terminal` says
    /// whether stdout is a terminal (an aligned table) or not (tab-separated lines).
    public static func run(_ words: [String], api: any ShopAPI, caller: Caller, terminal: Bool) async -> Outcome {
        if let help = help(words) { return help }
        let invocation: Invocation
        do { invocation = try Invocation.parse(words) } catch { return failed(error, command: "unknown") }
        let name = invocation.command.name
        if case .visitor(let reason) = caller, invocation.command.access != .anyone {
            return failed(.failed("'\(name)' \(reason)"), command: name)
        }
        do {
            let output = try await invocation.command.run(invocation, api)
            return Outcome(
                stdout: output.text(invocation.json ? .json : terminal ? .table : .plain), command: name)
        } catch let failure as CommandFailure {
            return failed(failure, command: name)
        } catch {
            return failed(.failed("'\(name)' failed: \(error)"), command: name)
        }
    }

    /// `help`, `help COMMAND…` and `COMMAND… --help`; nil for any other command line.
    private static func help(_ words: [String]) -> Outcome? {
        let asked: [String]
        if words.first == "help" {
            asked = Array(words.dropFirst())
        } else if words.contains("--help") || words.contains("-h") {
            asked = words.filter { $0 != "--help" && $0 != "-h" }
        } else {
            return nil
        }
        guard !asked.isEmpty else { return Outcome(stdout: "commands:\n" + ShopCommand.listing, command: "help") }
        do {
            return Outcome(stdout: try Invocation.command(of: asked).help, command: "help")
        } catch {
            return failed(error, command: "help")
        }
    }

    private static func failed(_ failure: CommandFailure, command: String) -> Outcome {
        Outcome(stderr: failure.message + "\n", status: failure.status, command: command)
    }
}
