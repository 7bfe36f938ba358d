import ArgumentParser
import FakeNFTApp
import FakeNFTCore
import Foundation
import Localization
import Logging
import TerminalUI

/// The app's options (shared by `fakenft` and `fakenft config`), each also a key of the
/// configuration file and a `FAKENFT_` variable (``AppSettings``).
struct AppOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("Use a compatible FakeNFT server.", valueName: "url"),
        transform: WebAddress.parse)
    var server: WebAddress?

    @Option(
        help: ArgumentHelp(
            "X-Practicum-Mobile-Token for that server.", valueName: "token"))
    var token: String?

    @Option(help: ArgumentHelp("Data folder of the embedded server.", valueName: "dir"))
    var data: String?

    @Flag(
        inversion: .prefixedNo,
        help: "Report mouse clicks and the wheel (off by default, so text selection works).")
    var mouse: Bool?

    @Flag(
        inversion: .prefixedNo,
        help:
            """
            For screen readers: the cursor shown on the selected row, cell or field, no animation, pictures as their \
            names.
            """
    )
    var accessible: Bool?

    @Flag(
        inversion: .prefixedNo,
        help:
            """
            Nothing can be changed: likes, the cart, payment and the profile's edit are left out of screens, footers \
            and help.
            """
    )
    var readOnly: Bool?

    @Flag(
        inversion: .prefixedNo,
        help:
            """
            Send usage events to the server the app uses (the default): screens opened and closed and actions \
            pressed, with an NFT's, collection's or user's id; never an account, token, address or typed text. \
            Off with --no-analytics, analytics = false or DO_NOT_TRACK=1; off, nothing is recorded or sent and \
            the rate-the-app prompt never asks.
            """
    )
    var analytics: Bool?

    @Option(
        help: ArgumentHelp(
            """
            How pictures are shown: auto (ask the terminal; the default), kitty, sixel, iterm2, symbols (character \
            art) or off.
            """,
            valueName: "mode"))
    var images: ImagesChoice?

    @Option(
        name: [.customLong("language"), .customLong("lang")],
        help: ArgumentHelp(
            "The interface's language: en or ru (default from LC_ALL, LC_MESSAGES or LANG, else en).",
            valueName: "lang"))
    var language: Language?

    @Option(
        help: ArgumentHelp(
            """
            Colours for the terminal's background: auto (ask the terminal; the default), dark, light or mono (bold, \
            reverse and underline only).
            """,
            valueName: "theme"))
    var theme: Theme.Choice?

    @Option(
        help: ArgumentHelp(
            """
            Colours: auto (where the terminal has them), always (even with NO_COLOR set) or never (default: never \
            when NO_COLOR is set, else auto).
            """,
            valueName: "when"))
    var color: ColorChoice?

    @Option(
        help: ArgumentHelp(
            """
            Symbols character art is drawn with: blocks (any font; the default) or sextants (finer; the font must \
            have them).
            """,
            valueName: "set"))
    var symbols: CharacterArt.Symbols?

    @Option(
        help: ArgumentHelp(
            """
            What goes to the log file: trace, debug, info (the default), notice, warning, error, critical.
            """,
            valueName: "level"),
        transform: AppLog.level)
    var logLevel: Logger.Level?
}

extension AppOptions {
    /// The options' values that are optional themselves, as settings take them.
    fileprivate var serverURL: URL?? { server.map { $0.url } }
    fileprivate var givenToken: String?? { token.map { $0 } }
    fileprivate var givenData: String?? { data.map { $0 } }
}

/// A command that takes the app's options.
protocol AppOptionsCommand: ParsableCommand {
    var options: AppOptions { get }
}

extension AppOptionsCommand {
    /// This command's own options as typed (after its name, when it was typed; a command that
    /// opens the app on a screen as the options it stands for).
    static var typedArguments: [String] {
        guard case .fakenft(let all) = LocalCommands.asked(Array(CommandLine.arguments.dropFirst())) else { return [] }
        return all.first == configuration.commandName ? Array(all.dropFirst()) : all
    }
}

/// A setting's value and where it came from.
struct Setting<Value> {
    var value: Value
    var source: SettingSource
}

/// The app's effective settings, each option from its layers (``OptionLayers``): the command
/// line, else the environment, else the configuration file, else its default. The defaults the
/// system gives: the language from the locale variables, colours off under `NO_COLOR` (over the
/// file, under `FAKENFT_COLOR` and the command line). A value that does not parse is a problem
/// (said to the user) and leaves the layer under it to decide.
struct AppSettings {
    var server: Setting<URL?>
    var language: Setting<Language>
    var token: Setting<String?>
    var mouse: Setting<Bool>
    var readOnly: Setting<Bool>
    var accessible: Setting<Bool>
    var analytics: Setting<Bool>
    var images: Setting<ImagesChoice>
    var theme: Setting<Theme.Choice>
    var color: Setting<ColorChoice>
    var symbols: Setting<CharacterArt.Symbols>
    var logLevel: Setting<Logger.Level>
    /// The embedded server's data folder, when one is given.
    var data: Setting<String?>
    let file: ConfigFile
    private(set) var problems: [String]
    /// The keys `[keys]` gives actions, once checked (``checkKeys()``): what the app runs with
    /// (``KeyRemap/with(_:isolation:_:)``).
    private(set) var keys: [String: [Key]] = [:]

    /// The options the file and the environment may give: ``AppOptions``'s.
    static let options = OptionDeclarations(of: AppOptions.self, command: "fakenft", commandLineOnly: [])

    /// - Parameters:
    ///   - command: the command that runs, as the command line gave it.
    ///   - arguments: its own options as typed (after `app` or `config`).
    init<Command: AppOptionsCommand>(
        _ command: Command, arguments: [String], environment: [String: String], file: ConfigFile
    ) throws {
        self.file = file
        var layers = OptionLayers(Self.options, file: file.options, environment: environment, arguments: arguments)
        var problems = file.problems + layers.problems
        problems += layers.dropRefused(by: { _ = try AppOptions.parse($0) }, file: file.url.path)
        let typed = command.options
        // Nothing under the command line: what it gave is all (and the parser is spared a second run).
        let options =
            layers.front.isEmpty
            ? typed : try (Command.parseAsRoot(layers.arguments) as? Command)?.options ?? typed
        func setting<V>(_ option: String, _ value: KeyPath<AppOptions, V?>, default: V) -> Setting<V> {
            if let given = typed[keyPath: value] { return Setting(value: given, source: .commandLine) }
            return options[keyPath: value].map { Setting(value: $0, source: layers.source(of: option)) }
                ?? Setting(value: `default`, source: .byDefault)
        }
        server = setting("server", \.serverURL, default: nil)
        token = setting("token", \.givenToken, default: nil)
        language = setting("language", \.language, default: .en)
        // The locale variables are the system's default, not a choice made for this app.
        if case .byDefault = language.source, let locale = Language.fromLocale(environment) {
            language = Setting(value: locale.language, source: .environment(locale.variable))
        }
        images = setting("images", \.images, default: .auto)
        theme = setting("theme", \.theme, default: .auto)
        symbols = setting("symbols", \.symbols, default: .blocks)
        logLevel = setting("log-level", \.logLevel, default: .info)
        color = setting("color", \.color, default: .auto)
        // NO_COLOR is the user's standing wish: over the file, under this app's own variable and flag.
        switch color.source {
        case .byDefault, .file:
            if !(environment["NO_COLOR"] ?? "").isEmpty {
                color = Setting(value: .never, source: .environment("NO_COLOR"))
            }
        case .environment, .commandLine: break
        }
        mouse = setting("mouse", \.mouse, default: false)
        readOnly = setting("read-only", \.readOnly, default: false)
        analytics = setting("analytics", \.analytics, default: true)
        // DO_NOT_TRACK is the user's standing wish, as NO_COLOR is: over the file, under this app's own.
        switch analytics.source {
        case .byDefault, .file:
            if Self.doesNotTrack(environment) {
                analytics = Setting(value: false, source: .environment("DO_NOT_TRACK"))
            }
        case .environment, .commandLine: break
        }
        accessible = setting("accessible", \.accessible, default: false)
        if accessible.value, case .byDefault = images.source {  // pictures as their names, unless asked for
            images = Setting(value: .off, source: accessible.source)
        }
        data = setting("data", \.givenData, default: nil)
        // A colour of one's own that cannot be read on the background it will be drawn on.
        let backgrounds: [(String, RGB)] =
            switch theme.value {
            case .dark: [("dark", Theme.dark.background)]
            case .light: [("light", Theme.light.background)]
            case .auto: [("dark", Theme.dark.background), ("light", Theme.light.background)]
            case .mono: []
            }
        for (name, background) in backgrounds {
            for role in file.colors.weakRoles(on: background) {
                problems.append(
                    """
                    \(file.url.path): [colors] \(role.rawValue) is hard to read on the \(name) theme's background \
                    (contrast under \(role.minimumContrast):1)
                    """
                )
            }
        }
        self.problems = problems
    }

    /// Whether `environment` asks for no tracking: `DO_NOT_TRACK` set to anything but empty or `0`.
    static func doesNotTrack(_ environment: [String: String]) -> Bool {
        let value = environment["DO_NOT_TRACK"]?.trimmingCharacters(in: .whitespaces) ?? ""
        return !value.isEmpty && value != "0"
    }

    /// Checks the file's `[keys]` against the app's key maps: those accepted become ``keys`` (for
    /// the app and `fakenft config`), the rest join the problems.
    mutating func checkKeys() async {
        let entries = file.keyEntries, path = file.url.path
        guard !entries.isEmpty else { return }  // the defaults: nothing to check (and no start-up time spent)
        let checked = await MainActor.run { KeyCatalog.check(entries, file: path) }
        keys = checked.keys
        problems += checked.problems
    }

    /// `environment` as the terminal layer reads it: `NO_COLOR` (the one signal it knows) set for
    /// `never`, removed for `always`.
    func terminalEnvironment(_ environment: [String: String]) -> [String: String] {
        var result = environment
        switch color.value {
        case .auto: break
        case .always: result["NO_COLOR"] = nil
        case .never: result["NO_COLOR"] = result["NO_COLOR"].flatMap { $0.isEmpty ? nil : $0 } ?? "1"
        }
        return result
    }

    /// What `fakenft config` prints: the file, then each setting, its value and its source.
    var report: String {
        func row(_ key: String, _ value: String, _ source: SettingSource) -> String {
            key.padding(toLength: 10, withPad: " ", startingAt: 0) + " = "
                + value.padding(toLength: 28, withPad: " ", startingAt: 0) + "  " + source.description
        }
        var lines = ["config file: \(file.url.path)\(file.exists ? "" : " (none)")"]
        lines.append(row("server", server.value?.absoluteString ?? "(the embedded server)", server.source))
        lines.append(row("language", language.value.rawValue, language.source))
        lines.append(row("data", data.value ?? "(the default folder)", data.source))
        lines.append(row("token", token.value == nil ? "(none)" : "(set, not shown)", token.source))
        lines.append(row("mouse", String(mouse.value), mouse.source))
        lines.append(row("read-only", String(readOnly.value), readOnly.source))
        lines.append(row("accessible", String(accessible.value), accessible.source))
        lines.append(row("analytics", String(analytics.value), analytics.source))
        lines.append(row("images", images.value.rawValue, images.source))
        lines.append(row("theme", theme.value.rawValue, theme.source))
        lines.append(row("color", color.value.rawValue, color.source))
        if !file.colors.isEmpty {
            let own = file.colors.colors.sorted { $0.key.rawValue < $1.key.rawValue }.map {
                "\($0.key.rawValue)=\($0.value)"
            }
            lines.append(row("colors", own.joined(separator: " "), .file(line: file.colorsLine)))
        }
        if !file.keyEntries.isEmpty {
            lines.append(
                row(
                    "keys", "\(file.keyEntries.count) actions (config --keys)",
                    .file(line: file.keyEntries.map(\.line).min() ?? 0)))
        }
        lines.append(row("symbols", symbols.value.rawValue, symbols.source))
        lines.append(row("log-level", logLevel.value.rawValue, logLevel.source))
        lines += problems.map { "problem: \($0)" }
        return lines.joined(separator: "\n")
    }
}

/// `--color`: whether the app uses colours.
enum ColorChoice: String, CaseIterable, Sendable, ExpressibleByArgument {
    case auto, always, never
}
