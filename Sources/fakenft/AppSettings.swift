import ArgumentParser
import FakeNFTApp
import FakeNFTCore
import Foundation
import Localization
import Logging
import TerminalUI

/// The app's options on the command line (shared by `fakenft` and `fakenft config`).
struct AppOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("Use a compatible FakeNFT server (or FAKENFT_SERVER; config: server).", valueName: "url"),
        transform: WebAddress.parse)
    var server: WebAddress?

    @Option(
        help: ArgumentHelp(
            "X-Practicum-Mobile-Token for that server (or FAKENFT_TOKEN; config: token).", valueName: "token"))
    var token: String?

    @Option(help: ArgumentHelp("Data folder of the embedded server.", valueName: "dir"))
    var data: String?

    @Flag(
        inversion: .prefixedNo,
        help: "Report mouse clicks and the wheel (config: mouse; off by default, so text selection works).")
    var mouse: Bool?

    @Flag(
        inversion: .prefixedNo,
        help:
            """
            For screen readers: the cursor shown on the selected row, cell or field, no animation, pictures as their \
            names (config: accessible).
            """
    )
    var accessible: Bool?

    @Flag(
        inversion: .prefixedNo,
        help:
            """
            Nothing can be changed: likes, the cart, payment and the profile's edit are left out of screens, footers \
            and help (config: read_only).
            """
    )
    var readOnly: Bool?

    @Option(
        help: ArgumentHelp(
            """
            How pictures are shown: auto (ask the terminal), kitty, sixel, iterm2, symbols (character art) or off (or \
            FAKENFT_IMAGES; config: images; default auto).
            """,
            valueName: "mode"))
    var images: ImagesChoice?

    @Option(
        help: ArgumentHelp(
            "The interface's language: en or ru (config: language; default from LC_ALL, LC_MESSAGES or LANG, else en).",
            valueName: "lang"))
    var lang: Language?

    @Option(
        help: ArgumentHelp(
            """
            Colours for the terminal's background: auto (ask the terminal), dark, light or mono (bold, reverse and \
            underline only) (or FAKENFT_THEME; config: theme; default auto).
            """,
            valueName: "theme"))
    var theme: Theme.Choice?

    @Option(
        help: ArgumentHelp(
            """
            Colours: auto (where the terminal has them), always (even with NO_COLOR set) or never (config: color; \
            default: never when NO_COLOR is set, else auto).
            """,
            valueName: "when"))
    var color: ColorChoice?

    @Option(
        help: ArgumentHelp(
            """
            Symbols character art is drawn with: blocks (any font) or sextants (finer; the font must have them) \
            (config: symbols; default blocks).
            """,
            valueName: "set"))
    var symbols: CharacterArt.Symbols?

    @Option(
        help: ArgumentHelp(
            """
            What goes to the log file: trace, debug, info, notice, warning, error, critical (or FAKENFT_LOG; config: \
            log_level; default info).
            """,
            valueName: "level"),
        transform: AppLog.level)
    var logLevel: Logger.Level?
}

/// Where a setting's value came from.
enum SettingSource: CustomStringConvertible {
    case byDefault, file(line: Int), environment(String), flag

    var description: String {
        switch self {
        case .byDefault: "default"
        case .file(let line): "config file, line \(line)"
        case .environment(let name): "environment (\(name))"
        case .flag: "command line"
        }
    }
}

/// A setting's value and where it came from.
struct Setting<Value> {
    var value: Value
    var source: SettingSource
}

/// The app's effective settings: each from the command line, else the environment, else the
/// configuration file, else its default (the language: the command line, the file, then the
/// locale variables). A value that does not parse is a problem (said to the
/// user) and leaves the next source to decide.
struct AppSettings {
    var server: Setting<URL?>
    var language: Setting<Language>
    var token: Setting<String?>
    var mouse: Setting<Bool>
    var readOnly: Setting<Bool>
    var accessible: Setting<Bool>
    var images: Setting<ImagesChoice>
    var theme: Setting<Theme.Choice>
    var color: Setting<ColorChoice>
    var symbols: Setting<CharacterArt.Symbols>
    var logLevel: Setting<Logger.Level>
    let file: ConfigFile
    private(set) var problems: [String]
    /// The keys `[keys]` gives actions, once checked (``checkKeys()``): what the app runs with
    /// (``KeyRemap/with(_:isolation:_:)``).
    private(set) var keys: [String: [Key]] = [:]

    init(options: AppOptions, environment: [String: String], file: ConfigFile) {
        self.file = file
        var problems = file.problems
        func pick<V>(
            _ key: String, flag: V?, environment name: String?, default value: V, allowed: String,
            parse: (String) -> V?
        ) -> Setting<V> {
            if let flag { return Setting(value: flag, source: .flag) }
            if let name, let raw = environment[name], !raw.isEmpty {
                if let parsed = parse(raw) { return Setting(value: parsed, source: .environment(name)) }
                problems.append("\(name)='\(SafeText.sanitize(raw).prefix(60))' is not \(allowed); using the default")
            }
            if let entry = file.entries[key], let raw = entry.text {
                if let parsed = parse(raw) { return Setting(value: parsed, source: .file(line: entry.line)) }
                problems.append(
                    """
                    \(file.url.path) line \(entry.line): \(key) '\(SafeText.sanitize(raw).prefix(60))' is not \
                    \(allowed); using the default
                    """
                )
            }
            return Setting(value: value, source: .byDefault)
        }
        func cases<C: CaseIterable & RawRepresentable>(_: C.Type) -> String where C.RawValue == String {
            "one of " + C.allCases.map(\.rawValue).joined(separator: ", ")
        }
        server = pick(
            "server", flag: options.server.map { Optional($0.url) }, environment: "FAKENFT_SERVER", default: nil,
            allowed: "an http(s) URL"
        ) { (try? WebAddress.parse($0)).map { Optional($0.url) } }
        token = pick(
            "token", flag: options.token.map { Optional($0) }, environment: "FAKENFT_TOKEN", default: nil,
            allowed: "a token"
        ) { Optional($0) }
        // The locale variables are the system's default, not a choice made for this app: the file overrides them.
        language = pick("language", flag: options.lang, environment: nil, default: .en, allowed: cases(Language.self)) {
            Language(rawValue: $0)
        }
        if case .byDefault = language.source, let locale = Language.fromLocale(environment) {
            language = Setting(value: locale.language, source: .environment(locale.variable))
        }
        images = pick(
            "images", flag: options.images, environment: "FAKENFT_IMAGES", default: .auto,
            allowed: cases(ImagesChoice.self)
        ) { ImagesChoice(rawValue: $0) }
        theme = pick(
            "theme", flag: options.theme, environment: "FAKENFT_THEME", default: .auto,
            allowed: cases(Theme.Choice.self)
        ) { Theme.Choice(rawValue: $0) }
        symbols = pick(
            "symbols", flag: options.symbols, environment: nil, default: .blocks,
            allowed: cases(CharacterArt.Symbols.self)
        ) { CharacterArt.Symbols(rawValue: $0) }
        logLevel = pick(
            "log_level", flag: options.logLevel, environment: "FAKENFT_LOG", default: .info,
            allowed: "a log level (trace, debug, info, notice, warning, error, critical)"
        ) { try? AppLog.level($0) }
        // NO_COLOR is the user's standing wish: over the file, under the command line.
        if let flag = options.color {
            color = Setting(value: flag, source: .flag)
        } else if let noColor = environment["NO_COLOR"], !noColor.isEmpty {
            color = Setting(value: .never, source: .environment("NO_COLOR"))
        } else {
            color = pick("color", flag: nil, environment: nil, default: .auto, allowed: cases(ColorChoice.self)) {
                ColorChoice(rawValue: $0)
            }
        }
        func flag(_ key: String, _ option: Bool?) -> Setting<Bool> {
            if let option { return Setting(value: option, source: .flag) }
            if let entry = file.entries[key], let flag = entry.flag {
                return Setting(value: flag, source: .file(line: entry.line))
            }
            return Setting(value: false, source: .byDefault)
        }
        mouse = flag("mouse", options.mouse)
        readOnly = flag("read_only", options.readOnly)
        accessible = flag("accessible", options.accessible)
        if accessible.value, case .byDefault = images.source {  // pictures as their names, unless asked for
            images = Setting(value: .off, source: accessible.source)
        }
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
        lines.append(row("token", token.value == nil ? "(none)" : "(set, not shown)", token.source))
        lines.append(row("mouse", String(mouse.value), mouse.source))
        lines.append(row("read_only", String(readOnly.value), readOnly.source))
        lines.append(row("accessible", String(accessible.value), accessible.source))
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
        lines.append(row("log_level", logLevel.value.rawValue, logLevel.source))
        lines += problems.map { "problem: \($0)" }
        return lines.joined(separator: "\n")
    }
}

/// `--color`: whether the app uses colours.
enum ColorChoice: String, CaseIterable, Sendable, ExpressibleByArgument {
    case auto, always, never
}
