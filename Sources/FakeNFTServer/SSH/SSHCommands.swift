import Foundation
import Logging
import ShopCommands

/// Commands over SSH (`ssh host cart add 7`): each is run from the table of commands against this
/// server's own routes in its process, as the key's account (``RouterCall``), with no app and no
/// terminal. A key's first command that needs its account makes it (as its first session would);
/// a guest may only read the catalog. Commands are
/// limited per key, per address and per network; a command line past ``maxLineBytes`` is refused.
/// One log line and one count (`fakenft_ssh_commands_total{command,status}`) each.
final class SSHCommands: Sendable {
    private let router: RouterCall
    /// Where the API listens (`host:port`), as the commands' answers name it in their links.
    private let api: APIAddress
    private let perVisitor: LoginLimiter
    private let perNetwork: LoginLimiter
    private let metrics: SSHMetrics
    private let logger: Logger

    /// The longest command line taken.
    static let maxLineBytes = 4_096

    init(router: RouterCall, api: APIAddress, settings: LiveSettings, metrics: SSHMetrics, logger: Logger) {
        self.router = router
        self.api = api
        perVisitor = LoginLimiter(window: .seconds(60)) { settings.ssh.commandsPerMinute }
        perNetwork = LoginLimiter(window: .seconds(60)) { settings.ssh.commandsPerMinute &* 3 }
        self.metrics = metrics
        self.logger = logger
    }

    /// Runs the command `line` for `visitor`; `terminal` says whether the visitor's stdout is one.
    /// `account` gives the key's account, made when the command needs one and it has none yet.
    func run(
        _ line: String, for visitor: SSHShop.Visitor, terminal: Bool,
        account: (SSHShop.Visitor) async throws -> String?
    ) async -> CommandRunner.Outcome {
        let started = ContinuousClock.now
        let outcome = await outcome(line, for: visitor, terminal: terminal, account: account)
        let milliseconds = Int(((ContinuousClock.now - started) / .milliseconds(1)).rounded())
        metrics.command(outcome.command, status: outcome.status)
        logger.info(
            "SSH command",
            metadata: [
                "key": "\(visitor.fingerprint ?? "guest")", "address": "\(visitor.address)",
                "command": "\(outcome.command)", "status": "\(outcome.status)", "ms": "\(milliseconds)",
            ])
        return outcome
    }

    private func outcome(
        _ line: String, for visitor: SSHShop.Visitor, terminal: Bool,
        account: (SSHShop.Visitor) async throws -> String?
    ) async -> CommandRunner.Outcome {
        guard line.utf8.count <= Self.maxLineBytes else {
            return Self.refused("A command line may be at most \(Self.maxLineBytes / 1024) KB.", status: 1)
        }
        if case .failure(let limited) = perVisitor.attempt([visitor.limitKey, "address:" + visitor.address]) {
            return Self.refused("Too many commands: come back in \(limited.seconds) s.", status: 1)
        }
        let network = SSHNewVisitors.network(of: visitor.address)
        if case .failure(let limited) = perNetwork.attempt([network]) {
            return Self.refused("Too many commands from your network: come back in \(limited.seconds) s.", status: 1)
        }
        let words: [String]
        do { words = try CommandLineWords.split(line) } catch {
            return Self.refused(error.message, status: error.status)
        }
        var caller = CommandRunner.Caller.visitor(reason: Self.guestsRead), owner = Owner.shared
        if visitor.fingerprint != nil, ShopCommand.named(by: words)?.access == .account {
            do {
                if let account = try await account(visitor) {
                    (caller, owner) = (.account, account)
                } else {
                    caller = .visitor(reason: Self.noAccountYet)
                }
            } catch let refusal as SSHShop.Refusal {
                return Self.refused(refusal.message, status: 1)
            } catch {
                logger.error("an SSH command could not find or make its key's account: \(error)")
                return Self.refused("The shop cannot answer now: please try again later.", status: 1)
            }
        }
        return await CommandRunner.run(
            words, api: RoutedShopAPI(router: router, owner: owner, authority: api.authority ?? "localhost"),
            caller: caller, terminal: terminal)
    }

    /// The screen the command `line` names and the app opens on a terminal (within the line's cap).
    static func screen(of line: String) -> ScreenLink? {
        guard line.utf8.count <= maxLineBytes, let words = try? CommandLineWords.split(line) else { return nil }
        return (try? Invocation.parse(words))?.screen
    }

    /// What a guest reads for a command of an account.
    static let guestsRead = "needs an account: sign in with an Ed25519 or ECDSA key (a guest may only read the catalog)"
    /// What a key without an account yet reads for a command of an account.
    static let noAccountYet = "needs this key's account, and the shop makes no more accounts this hour: try later"

    private static func refused(_ message: String, status: Int32) -> CommandRunner.Outcome {
        CommandRunner.Outcome(stderr: message + "\n", status: status, command: "refused")
    }
}
