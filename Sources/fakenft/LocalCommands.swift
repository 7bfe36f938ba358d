import FakeNFTCore
import FakeNFTServer
import ArgumentParser
import Foundation
import ShopCommands

/// `fakenft <command>` (`fakenft cart add 7 --json`): the shop's commands (``ShopCommand/all``)
/// on `--server` with `--token`, or on the embedded server's data in this process, as the app
/// reaches them (each also from the configuration file and the environment: ``AppSettings``).
enum LocalCommands {
    /// The options a command takes beside its own: where the shop is.
    static let connectionOptions: Set<String> = ["server", "token", "data"]

    /// `arguments` as the connection's options and the command's words, when they name a
    /// command of the table (or ask `help` for one); nil for the app's and the other subcommands'.
    private static func split(_ arguments: [String]) -> (connection: [String], words: [String])? {
        var connection: [String] = [], words: [String] = [], rest = arguments[...]
        while let argument = rest.popFirst() {
            let name = argument.hasPrefix("--") ? String(argument.dropFirst(2).prefix { $0 != "=" }) : ""
            guard connectionOptions.contains(name) else {
                words.append(argument)
                continue
            }
            connection.append(argument)
            if !argument.contains("="), let value = rest.popFirst() { connection.append(value) }
        }
        let asked = words.first == "help" ? Array(words.dropFirst()) : words
        if ShopCommand.named(by: asked) != nil { return (connection, words) }
        // a word that names nothing is a command mistyped (the runner names the closest)
        guard let first = words.first, !first.hasPrefix("-"), !otherCommands.contains(first) else { return nil }
        return (connection, words)
    }

    /// The subcommands of `fakenft` that are not the shop's commands, and its help.
    static let otherCommands = Set(
        FakeNFTCommand.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"])

    /// What a command line asks for.
    enum Asked: Equatable {
        /// One of the shop's commands (or its help), on the shop `connection` names.
        case command(connection: [String], words: [String])
        /// `fakenft`'s own: the app (a command that names a screen, on a terminal, is the app
        /// opened there: `app --open nft/42`), `serve`, `config` or the help.
        case fakenft([String])
    }

    /// What `arguments` (the command line without the program) ask for.
    static func asked(_ arguments: [String], terminal: Bool = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1)
        -> Asked
    {
        guard let (connection, words) = split(arguments) else { return .fakenft(arguments) }
        guard terminal, let link = (try? Invocation.parse(words))?.screen else {
            return .command(connection: connection, words: words)
        }
        return .fakenft(["app", "--open", link.text] + connection)
    }

    /// Runs the command `words` on the shop `connection` names; its exit status.
    static func run(connection: [String], words: [String]) async -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        let settings: AppSettings
        do {
            settings = try AppSettings(
                try AppCommand.parse(connection), arguments: connection, environment: environment,
                file: ConfigFile(url: ConfigFile.defaultURL(environment: environment)))
        } catch {
            return say(AppCommand.message(for: error), status: CommandFailure.usageStatus)
        }
        let terminal = isatty(STDOUT_FILENO) == 1
        let outcome: CommandRunner.Outcome
        if let server = settings.server.value {
            let api = APIClient(APIConfiguration(baseURL: server, token: settings.token.value))
            outcome = await CommandRunner.run(words, api: api, caller: .account, terminal: terminal)
        } else {
            let data =
                settings.data.value.map { URL(fileURLWithPath: $0) }
                ?? ServerConfiguration.defaultDataDirectory(environment: environment)
            let server: InProcessServer
            do {
                // No server outlives the command: its pictures are linked where the data set has them.
                server = try await InProcessServer(
                    ServerConfiguration(port: 0, dataDirectory: data, imageLinks: .upstream))
            } catch {
                return say("could not open the shop's data in \(data.path): \(error)", status: 1)
            }
            outcome = await CommandRunner.run(
                words, api: server.shopAPI, caller: .account, terminal: terminal)
            await server.close()
        }
        FileHandle.standardOutput.write(Data(outcome.stdout.utf8))
        if !outcome.stderr.isEmpty { FileHandle.standardError.write(Data(("fakenft: " + outcome.stderr).utf8)) }
        return outcome.status
    }

    private static func say(_ message: String, status: Int32) -> Int32 {
        FileHandle.standardError.write(Data("fakenft: \(message)\n".utf8))
        return status
    }
}
