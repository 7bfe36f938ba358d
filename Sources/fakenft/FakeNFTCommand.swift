import LineLog
import ArgumentParser
import FakeNFTApp
import FakeNFTCore
import FakeNFTModels
import FakeNFTServer
import Foundation
import Localization
import Logging
import ShopCommands
import TerminalUI

/// `fakenft`: the app (the default) or `fakenft serve`.
@main
struct FakeNFTCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fakenft",
        abstract: "A terminal client for FakeNFT: browse collections, like NFTs, fill the cart and pay.",
        // The app's options (the default subcommand) as its own declarations say them, then the subcommands.
        usage: (["fakenft" + AppCommand.usageString().drop { $0 != " " }]
            + ["config", "serve"].map { "fakenft \($0) [<options>]" })
            .joined(separator: "\n"),
        discussion: """
            With no subcommand, fakenft runs the app: see 'fakenft help app' for its options.

            The shop's commands, on --server (with --token) or the embedded server's data; --json prints JSON, \
            'fakenft help <command>' its usage (the same commands over SSH: ssh -p PORT host <command>):
            \(ShopCommand.listing)

            Usage events: the app sends the server it uses (and no one else) which screens are opened and closed and \
            which actions are pressed, with an NFT's, collection's or user's id; never an account, token, address \
            or typed text. Turn it off with --no-analytics, analytics = false in config.toml or DO_NOT_TRACK=1.
            """,
        version: FakeNFTVersion.current,
        subcommands: [AppCommand.self, ServeCommand.self, ConfigCommand.self],
        defaultSubcommand: AppCommand.self)

    /// Answers a completion script's request (``CompletionScripts``) or a shop's command
    /// (``LocalCommands``); else parses the command line, with `serve`'s options from its file and
    /// the environment in front of it (``ServeLayers``).
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        ProcessExecutors.install(for: arguments)
        if let shell = CompletionScripts.asked(arguments) {
            print(CompletionScripts.script(for: shell), terminator: "")
            return
        }
        let commandLine: [String]
        switch LocalCommands.asked(arguments) {
        case .command(let connection, let words):
            Self.exit(withError: ExitCode(await LocalCommands.run(connection: connection, words: words)))
        case .fakenft(let arguments): commandLine = arguments
        }
        do {
            await main(try ServeLayers.arguments(commandLine, environment: ProcessInfo.processInfo.environment))
        } catch {
            exit(withError: ValidationError(error.description))
        }
    }
}

/// `fakenft [app]`: the terminal app, on its own embedded server or on `--server`.
struct AppCommand: AsyncParsableCommand, AppOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Run the app (the default).",
        discussion: """
            With no --server it starts its own offline server on 127.0.0.1 (data in $XDG_DATA_HOME/fakenft). \
            Keys: ? in the app. Crash backtraces go to crash.log in the data folder.

            Each option can also be given by $XDG_CONFIG_HOME/fakenft/config.toml, its long name as the key \
            (theme = "light"), or by the environment, FAKENFT_ and its name (FAKENFT_THEME=light): the command line \
            wins, then the environment, then the file. SIGUSR1 or :reload reads the file again. See 'fakenft config'.

            Pictures are real pixels in terminals with kitty graphics (kitty 0.28+, Ghostty), sixel \
            (foot, WezTerm, xterm -ti vt340, mlterm, Konsole, Windows Terminal) or iTerm2 images, and \
            character art elsewhere. Inside tmux, pixels need '\(TerminalGraphics.tmuxAdvice)' in \
            ~/.tmux.conf (fakenft never changes tmux's settings); see what was found with --probe-terminal.
            """)

    @OptionGroup var options: AppOptions

    @Flag(help: "Print what the terminal can show pictures with, its theme, and why, then exit.")
    var probeTerminal = false

    @Option(
        help: ArgumentHelp(
            "Open on a screen: nft/ID, collection/ID, user/ID, cart or orders (Esc goes back to its tab).",
            valueName: "screen"),
        transform: { text in
            guard let link = ScreenLink(text) else { throw ValidationError("'\(text)' names no screen") }
            return link
        })
    var open: ScreenLink?

    func run() async throws {
        let processEnvironment = SSHSessionSecrets.merged(into: ProcessInfo.processInfo.environment)
        let command = self, commandLine = Self.typedArguments
        var settings = try AppSettings(
            command, arguments: commandLine, environment: processEnvironment,
            file: ConfigFile(url: ConfigFile.defaultURL(environment: processEnvironment)))
        await settings.checkKeys()
        // What the terminal layer reads: `--color` and the config's `color` as NO_COLOR.
        let environment = settings.terminalEnvironment(processEnvironment)
        let imagesChoice = settings.images.value, themeChoice = settings.theme.value
        Language.setProcessLanguage(settings.language.value)
        if probeTerminal {
            let facts = TerminalProbe.run(
                environment: environment, asking: imagesChoice == .auto || themeChoice == .auto)
            print(
                Self.report(
                    TerminalGraphics.decide(
                        choice: imagesChoice, environment: environment, replies: facts.replies,
                        windowSize: facts.windowSize),
                    Theme.decide(choice: themeChoice, environment: environment, replies: facts.replies),
                    replies: facts.replies))
            return
        }
        let dataDirectory =
            settings.data.value.map { URL(fileURLWithPath: $0) }
            ?? ServerConfiguration.defaultDataDirectory(environment: environment)
        let server = settings.server.value, token = settings.token.value
        // No terminal (or no TERM), no app: say so before starting (and perhaps seeding) the embedded server.
        if let problem = TerminalSession.problem() { throw Failure(problem.description) }
        CrashLog.routeBacktraces(to: dataDirectory.appendingPathComponent("crash.log"))
        // Configuration problems are said once before the screen is taken, and again in the app.
        for problem in settings.problems { FileHandle.standardError.write(Data("fakenft: \(problem)\n".utf8)) }
        let logger = try AppLog.logger(level: settings.logLevel.value, environment: environment)
        logger.info(
            """
            fakenft \(FakeNFTVersion.current) starting \
            (\(server.map { "server \($0.absoluteString)" } ?? "embedded server"))
            """
        )
        for problem in settings.problems { logger.warning("configuration: \(problem)") }
        // The embedded server starts once the screen is taken (a slow start shows the launch screen).
        let embedded = EmbeddedServer()
        let connect: @Sendable () async throws -> ServerConnection = {
            if let server {
                // In an SSH session, what is kept is the shop's (any of its servers), not this server's.
                let shop = environment[SSHSessionVariables.shop].map { "ssh-shop " + $0 }
                return ServerConnection(
                    api: APIConfiguration(
                        baseURL: server, token: token, sshSession: environment[SSHSessionVariables.session]),
                    accountKey: shop ?? server.absoluteString)
            }
            do {
                let started = try await FakeNFTServer.start(ServerConfiguration(port: 0, dataDirectory: dataDirectory))
                await embedded.keep(started)
                return ServerConnection(
                    api: APIConfiguration(baseURL: started.baseURL),
                    accountKey: "embedded:" + dataDirectory.standardizedFileURL.path)
            } catch {
                throw Failure("could not start the embedded server (data in \(dataDirectory.path)): \(error)")
            }
        }
        // The app asks the terminal what it can do and never waits: it looks as the environment
        // says until the answers come, then as they say.
        let windowSize = TerminalProbe.windowSize()
        let look = Self.look(settings, environment: environment, windowSize: windowSize)
        let keys = settings.keys, language = settings.language.value
        let reload: @Sendable () async -> ReloadedSettings = {
            let file = ConfigFile(url: ConfigFile.defaultURL(environment: processEnvironment))
            guard
                var fresh = try? AppSettings(
                    command, arguments: commandLine, environment: processEnvironment, file: file)
            else {
                return ReloadedSettings(
                    file: file.url.path, unreadable: "\(file.url.path): the options do not parse", keys: keys,
                    language: language, look: look, problems: [])
            }
            await fresh.checkKeys()
            let environment = fresh.terminalEnvironment(processEnvironment)
            return ReloadedSettings(
                file: file.url.path, unreadable: file.unreadable, keys: fresh.keys, language: fresh.language.value,
                look: Self.look(fresh, environment: environment, windowSize: windowSize), problems: fresh.problems)
        }
        let term = environment["TERM"] ?? ""
        let asking = (imagesChoice == .auto || themeChoice == .auto) && term != "linux"
        let exitSignal: Int32?
        do {
            exitSignal = try await KeyRemap.with(settings.keys) {
                try await FakeNFTTerminalApp.run(
                    connect: connect, server: server, mouse: settings.mouse.value, environment: environment,
                    look: look, askTerminal: asking, inTmux: !(environment["TMUX"] ?? "").isEmpty,
                    symbols: settings.symbols.value, notices: settings.problems, accessible: settings.accessible.value,
                    readOnly: settings.readOnly.value, analytics: settings.analytics.value, reload: reload,
                    opening: open, logger: logger)
            }
        } catch {
            logger.error("stopped: \(error)")
            await embedded.stop()
            LineWriter.flush()
            throw Failure("\(error)")
        }
        logger.info("quit\(exitSignal.map { " on signal \($0)" } ?? "")")
        await embedded.stop()
        LineWriter.flush()
        if let exitSignal { throw ExitCode(128 + exitSignal) }
    }
}

extension AppCommand {
    /// What `--probe-terminal` prints.
    /// Pictures and theme as `settings` choose them, for the terminal's answers so far.
    static func look(
        _ settings: AppSettings, environment: [String: String], windowSize: (cells: Size, pixels: Size)?
    ) -> @MainActor @Sendable (TerminalReplies?) -> (graphics: TerminalGraphics, theme: Theme) {
        let imagesChoice = settings.images.value, themeChoice = settings.theme.value, ownColors = settings.file.colors
        return { replies in
            (
                TerminalGraphics.decide(
                    choice: imagesChoice, environment: environment, replies: replies, windowSize: windowSize),
                Theme.decide(choice: themeChoice, environment: environment, replies: replies).theme.overriding(
                    ownColors)
            )
        }
    }

    static func report(
        _ graphics: TerminalGraphics, _ theme: (theme: Theme, reason: String), replies: TerminalReplies?
    ) -> String {
        var lines = [
            "pictures: \(graphics.mode.rawValue)",
            "cell: \(graphics.cellPixels.width)×\(graphics.cellPixels.height) pixels",
        ]
        if graphics.throughTmux { lines.append("through tmux passthrough") }
        lines.append("theme: \(theme.theme.name.rawValue)")
        lines.append(
            replies?.keyboardFlags == nil ? "keys: the terminal's usual sequences" : "keys: kitty keyboard protocol")
        lines.append(
            replies?.cannotSynchronize == true
                ? "frames: written plainly (the terminal cannot synchronize them)"
                : "frames: synchronized (mode 2026)")
        lines.append("why:")
        lines += (graphics.reasons + [theme.reason]).map { "  - \($0)" }
        return lines.joined(separator: "\n")
    }
}

/// `fakenft config`: the effective configuration and where each value came from.
struct ConfigCommand: AsyncParsableCommand, AppOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract:
            """
            Print the effective configuration and where each value came from (default, config file, environment, \
            command line).
            """,
        discussion:
            """
            The file is $XDG_CONFIG_HOME/fakenft/config.toml (default ~/.config/fakenft/config.toml): each of the \
            app's options by its long name, as this command prints them (log-level = "debug"), and the tables [colors] \
            and [keys]; fakenft only reads it. Each option's variable is FAKENFT_ and its name (FAKENFT_LOG_LEVEL).
            """
    )

    @OptionGroup var options: AppOptions

    @Flag(help: "List every action [keys] can give keys to, its keys in effect and what it does.")
    var keys = false

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        var settings = try AppSettings(
            self, arguments: Self.typedArguments, environment: environment,
            file: ConfigFile(url: ConfigFile.defaultURL(environment: environment)))
        await settings.checkKeys()
        guard keys else { return print(settings.report) }
        Language.setProcessLanguage(settings.language.value)
        let entries = settings.file.keyEntries
        print(await KeyRemap.with(settings.keys) { await MainActor.run { KeyCatalog.listing(entries) } })
        fflush(nil)  // the listing before the problems
        for problem in settings.problems { FileHandle.standardError.write(Data("fakenft: \(problem)\n".utf8)) }
    }
}

/// An http(s) URL given on the command line.
struct WebAddress {
    let url: URL

    private init(url: URL) { self.url = url }

    /// The server at `text`: its own address, or its API's as `fakenft serve` prints it (ending
    /// in `/api/v1`), which is the same server.
    static func parse(_ text: String) throws -> WebAddress {
        guard var url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw ValidationError("'\(text)' is not an http(s) URL")
        }
        let path = url.path.hasSuffix("/") ? String(url.path.dropLast()) : url.path
        if path.hasSuffix(Self.apiPath), var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.path = String(path.dropLast(Self.apiPath.count))
            url = components.url ?? url
        }
        return WebAddress(url: url)
    }

    /// Where a FakeNFT server's API lives under its address.
    static let apiPath = "/api/v1"
}

/// The embedded server, once started: stopped when the app ends.
actor EmbeddedServer {
    private var server: RunningServer?

    func keep(_ server: RunningServer) { self.server = server }

    func stop() async {
        await server?.stop()
        server = nil
    }
}

/// A failure after the arguments were accepted: printed as `Error: …`, exit status 1.
struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The version `fakenft --version` prints.
extension CharacterArt.Symbols: ExpressibleByArgument {}
extension ImagesChoice: ExpressibleByArgument {}
extension Theme.Choice: ExpressibleByArgument {}
extension Language: ExpressibleByArgument {}
extension LineLogHandler.Format: ExpressibleByArgument {}
extension ServerConfiguration.ListWrites: ExpressibleByArgument {}
