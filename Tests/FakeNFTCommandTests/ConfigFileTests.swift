import ArgumentParser
import Foundation
import Testing
import FakeNFTApp
import TerminalUI
@testable import fakenft

/// The configuration file and the order of sources: command line, environment, file, default.
@Suite struct ConfigFileTests {
    static func file(_ text: String?) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "config-\(UUID().uuidString)/fakenft")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("config.toml")
        if let text { try Data(text.utf8).write(to: url) }
        return url
    }

    static func settings(_ arguments: [String], environment: [String: String] = [:], file url: URL) throws
        -> AppSettings
    {
        let command = try #require(try FakeNFTCommand.parseAsRoot(arguments) as? AppCommand)
        return try AppSettings(command, arguments: arguments, environment: environment, file: ConfigFile(url: url))
    }

    @Test func theFileSetsEveryOptionAndSaysWhereEachValueCameFrom() throws {
        let url = try Self.file(
            """
            # FakeNFT
            server = "http://127.0.0.1:9/"
            token = "secret"
            mouse = true
            images = "sixel"
            theme = "light"
            symbols = "sextants"
            log_level = "debug"
            """)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        let settings = try Self.settings([], file: url)
        #expect(settings.problems.isEmpty)
        #expect(settings.server.value?.absoluteString == "http://127.0.0.1:9/")
        #expect(settings.token.value == "secret" && settings.mouse.value && settings.images.value == .sixel)
        #expect(
            settings.theme.value == .light && settings.symbols.value == .sextants && settings.logLevel.value == .debug)
        #expect(settings.theme.source.description == "config file, line 6")
        #expect(!settings.report.contains("secret"), "the token is never printed")
        #expect(settings.report.contains("theme      = light"))
    }

    /// `[keys]`: quoted and dotted names, `[keys.scope]` tables, one key or a list, each with
    /// its line; a value of another type is a problem naming its line.
    @Test func aKeysTableIsReadWithEachEntrysLine() throws {
        let url = try Self.file(
            """
            theme = "dark"
            [keys]
            "catalog.sort" = "o"
            shell.quit = ["x", "Q"]
            list = { down = "n" }
            "cart.pay" = 5

            [keys.nft-grid]
            like = "f"
            """)
        let file = ConfigFile(url: url)
        #expect(
            file.keyEntries.sorted { $0.line < $1.line } == [
                KeyEntry(action: "catalog.sort", keys: ["o"], line: 3),
                KeyEntry(action: "shell.quit", keys: ["x", "Q"], line: 4),
                KeyEntry(action: "list.down", keys: ["n"], line: 5),
                KeyEntry(action: "nft-grid.like", keys: ["f"], line: 9),
            ])
        #expect(
            file.problems.count == 1
                && file.problems[0].hasSuffix(
                    "line 6: [keys] cart.pay must be a key in quotes or a list of them; the default keys stay"),
            "\(file.problems)")
        let settings = try Self.settings([], file: url)
        #expect(settings.report.contains("keys       = 4 actions (config --keys)"), "\(settings.report)")
        let wrong = ConfigFile(url: try Self.file("keys = \"o\"\n"))
        #expect(wrong.keyEntries.isEmpty && wrong.problems.first?.contains("line 1: keys must be a table") == true)
    }

    /// Read-only: the file's `read_only`, under `--read-only` / `--no-read-only`; off by default.
    @Test func readOnlyComesFromTheCommandLineThenTheFile() throws {
        let on = try Self.file("read_only = true\n"), none = try Self.file(nil)
        let fromFile = try Self.settings([], file: on)
        #expect(fromFile.readOnly.value && fromFile.readOnly.source.description == "config file, line 1")
        #expect(fromFile.report.contains("read-only  = true"))
        #expect(try !Self.settings(["--no-read-only"], file: on).readOnly.value)
        #expect(try Self.settings(["--read-only"], file: none).readOnly.value)
        #expect(try !Self.settings([], file: none).readOnly.value)
        let wrong = try Self.settings([], file: try Self.file("read_only = \"yes\"\n"))
        #expect(!wrong.readOnly.value && !wrong.problems.isEmpty, "a value that is not a boolean is a problem")
    }

    /// Colours: the command line over NO_COLOR, NO_COLOR over the file; the terminal layer sees
    /// the choice as NO_COLOR.
    @Test func colorComesFromTheCommandLineThenNoColorThenTheFile() throws {
        let never = try Self.file("color = \"never\"\n"), always = try Self.file("color = \"always\"\n")
        let fromFile = try Self.settings([], file: never)
        #expect(fromFile.color.value == .never && fromFile.color.source.description == "config file, line 1")
        #expect(fromFile.terminalEnvironment(["TERM": "xterm"]) == ["TERM": "xterm", "NO_COLOR": "1"])
        let noColor = try Self.settings([], environment: ["NO_COLOR": "1"], file: always)
        #expect(noColor.color.value == .never && noColor.color.source.description == "environment (NO_COLOR)")
        let flag = try Self.settings(["--color", "always"], environment: ["NO_COLOR": "1"], file: never)
        #expect(flag.color.value == .always && flag.color.source.description == "command line")
        #expect(flag.terminalEnvironment(["NO_COLOR": "1", "TERM": "xterm"]) == ["TERM": "xterm"])
        let byDefault = try Self.settings([], file: try Self.file(nil))
        #expect(byDefault.color.value == .auto && byDefault.terminalEnvironment(["TERM": "x"]) == ["TERM": "x"])
        #expect(byDefault.report.contains("color      = auto"))
        let wrong = try Self.settings([], file: try Self.file("color = \"sometimes\"\n"))
        #expect(
            wrong.color.value == .auto
                && wrong.problems.contains { $0.contains("line 1: color: The value 'sometimes' is invalid") })
    }

    /// `[colors]` gives theme roles colours of one's own; unknown roles, unreadable values and
    /// colours too faint for the background are problems naming their line or role.
    @Test func aColorsTableOverridesThemeRoles() throws {
        let url = try Self.file(
            """
            theme = "dark"

            [colors]
            accent = "#ff0000"
            link = 33
            sparkle = "#00ff00"
            error = "red"
            muted = 236
            """)
        let settings = try Self.settings([], file: url)
        #expect(settings.file.colors.colors == [.accent: 196, .link: 33, .muted: 236])
        #expect(
            settings.problems.contains { $0.contains("line 6: unknown colour role 'sparkle'") }, "\(settings.problems)")
        #expect(settings.problems.contains { $0.contains("line 7: error must be \"#rrggbb\" or a colour number") })
        #expect(
            settings.problems.contains { $0.contains("[colors] muted is hard to read on the dark theme's background") })
        #expect(!settings.problems.contains { $0.contains("accent is hard") }, "red reads on black")
        let theme = Theme.dark.overriding(settings.file.colors)
        #expect(theme.resolve(Style(foreground: .theme(.accent)), colors: .full).foreground == .indexed(196))
        #expect(theme.resolve(Style(foreground: .theme(.accent)), colors: .basic).foreground == .red)
        #expect(theme.resolve(Style(foreground: .theme(.star)), colors: .full).foreground == .indexed(220), "kept")
        #expect(Theme.mono.overriding(settings.file.colors) == .mono)
        #expect(
            settings.report.contains("colors     = accent=196 link=33 muted=236  config file, line 3"),
            "\(settings.report)")
    }

    /// A token in a file others may read is used, and the user is told how to protect it.
    @Test func aTokenInAFileOthersCanReadIsAProblemNamingTheFix() throws {
        let url = try Self.file("theme = \"light\"\ntoken = \"secret\"\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        let readable = try Self.settings([], file: url)
        #expect(readable.token.value == "secret")
        #expect(
            readable.problems == [
                "\(url.path) line 2: the token can be read by other users (mode 644): run chmod 600 \(url.path)"
            ])
        let withoutToken = try Self.file("theme = \"light\"\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: withoutToken.path)
        #expect(try Self.settings([], file: withoutToken).problems.isEmpty, "nothing secret in it")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        #expect(try Self.settings([], file: url).problems.isEmpty)
    }

    @Test func theCommandLineBeatsTheEnvironmentWhichBeatsTheFile() throws {
        let url = try Self.file("theme = \"light\"\nimages = \"sixel\"\nmouse = true\n")
        let settings = try Self.settings(
            ["--theme", "mono", "--no-mouse"], environment: ["FAKENFT_THEME": "dark", "FAKENFT_IMAGES": "kitty"],
            file: url)
        #expect(settings.theme.value == .mono && settings.theme.source.description == "command line")
        #expect(settings.images.value == .kitty && settings.images.source.description == "environment (FAKENFT_IMAGES)")
        #expect(settings.mouse.value == false)
        let defaults = try Self.settings([], file: try Self.file(nil))
        #expect(
            !defaults.file.exists && defaults.theme.value == .auto && defaults.images.value == .auto
                && !defaults.mouse.value)
        #expect(defaults.theme.source.description == "default" && defaults.problems.isEmpty)
    }

    /// The app's options layer as `serve`'s do: every option has its FAKENFT_ variable and its key
    /// (dashes or underscores), a flag is turned off by `false` or `0`, an alias is the option.
    @Test func everyAppOptionComesFromItsVariableAndItsKey() throws {
        let url = try Self.file("mouse = true\nread-only = true\nlog_level = \"debug\"\ndata = \"/srv/d\"\n")
        let environment = [
            "FAKENFT_MOUSE": "0", "FAKENFT_ACCESSIBLE": "yes", "FAKENFT_LANGUAGE": "ru", "FAKENFT_SYMBOLS": "sextants",
            "FAKENFT_COLOR": "always", "NO_COLOR": "1",
        ]
        let settings = try Self.settings(["--lang", "en"], environment: environment, file: url)
        #expect(settings.problems.isEmpty, "\(settings.problems)")
        #expect(!settings.mouse.value && settings.mouse.source == .environment("FAKENFT_MOUSE"), "0 turns it off")
        #expect(settings.readOnly.value && settings.readOnly.source == .file(line: 2))
        #expect(settings.logLevel.value == .debug && settings.logLevel.source == .file(line: 3))
        #expect(settings.data.value == "/srv/d" && settings.accessible.value && settings.symbols.value == .sextants)
        #expect(settings.language.value == .en && settings.language.source == .commandLine, "--lang is --language")
        #expect(settings.color.value == .always, "the app's own variable over NO_COLOR")
        #expect(settings.images.value == .off && settings.images.source == .environment("FAKENFT_ACCESSIBLE"))
        let bad = try Self.settings([], environment: ["FAKENFT_MOUSE": "maybe"], file: url)
        #expect(bad.mouse.value && bad.problems == ["FAKENFT_MOUSE='maybe' wants 1, true, yes, 0, false or no"])
        // Each option `fakenft help app` lists is one the file and the environment can give.
        let help = FakeNFTCommand.helpMessage(for: AppCommand.self)
        let listed = Set(help.matches(of: /--([a-z-]+)/).map { String($0.1) })
        let unknown = listed.filter { AppSettings.options.option(typed: "--" + $0) == nil }
        #expect(unknown == ["probe-terminal", "open", "help", "version"], "\(unknown)")
        #expect(Set(AppSettings.options.kinds.keys).subtracting(listed).isEmpty)
        #expect(AppSettings.options.option(typed: "--no-mouse") == "mouse")
    }

    @Test func theLanguageComesFromTheFlagThenTheFileThenTheLocale() throws {
        let russianLocale = ["LANG": "ru_RU.UTF-8"]
        let fromLocale = try Self.settings([], environment: russianLocale, file: try Self.file(nil))
        #expect(fromLocale.language.value == .ru && fromLocale.language.source.description == "environment (LANG)")
        let overLocale = try Self.settings(
            [], environment: ["LANG": "ru_RU.UTF-8", "LC_ALL": "en_US.UTF-8"], file: try Self.file(nil))
        #expect(overLocale.language.value == .en && overLocale.language.source.description == "environment (LC_ALL)")
        let fromFile = try Self.settings([], environment: russianLocale, file: try Self.file("language = \"en\"\n"))
        #expect(fromFile.language.value == .en && fromFile.language.source.description == "config file, line 1")
        let fromFlag = try Self.settings(
            ["--lang", "ru"], environment: ["LANG": "en_US.UTF-8"], file: try Self.file("language = \"en\"\n"))
        #expect(fromFlag.language.value == .ru && fromFlag.language.source.description == "command line")
        #expect(fromFlag.report.contains("language   = ru"))
        let unknown = try Self.settings(
            [], environment: ["LANG": "de_DE.UTF-8"], file: try Self.file("language = \"fr\"\n"))
        #expect(unknown.language.value == .en && unknown.language.source.description == "default")
        #expect(unknown.problems.contains { $0.contains("line 1: language: The value 'fr' is invalid") })
        #expect(throws: (any Error).self) { try FakeNFTCommand.parseAsRoot(["--lang", "de"]) }
    }

    @Test func badValuesNameTheirLineAndKeepTheDefaultForThatKey() throws {
        let text = "theme = \"blue\"\nimages = \"kitty\"\ncolour = 3\nmouse = \"yes\"\n"
        let url = try Self.file(text)
        let settings = try Self.settings([], environment: ["FAKENFT_LOG_LEVEL": "loud"], file: url)
        #expect(settings.theme.value == .auto && settings.images.value == .kitty, "the other keys still count")
        #expect(
            settings.problems.contains {
                $0.contains("line 1: theme: The value 'blue' is invalid for '--theme <theme>'")
            })
        #expect(settings.problems.contains { $0.contains("line 3: 'colour' is no option of fakenft") })
        #expect(settings.problems.contains { $0.contains("line 4: mouse wants true or false") })
        #expect(
            settings.problems.contains { $0.hasPrefix("FAKENFT_LOG_LEVEL:") && $0.hasSuffix("(not used)") }
                && settings.logLevel.value == .info, "\(settings.problems)")
        #expect(try String(contentsOf: url, encoding: .utf8) == text, "never written")
    }

    @Test func aFileThatDoesNotParseNamesItsLineAndEverythingKeepsItsDefault() throws {
        let url = try Self.file("mouse = true\ntheme = \"light\n")
        let settings = try Self.settings([], file: url)
        #expect(settings.problems.count == 1 && settings.problems[0].contains("line 2"))
        #expect(settings.theme.value == .auto && !settings.mouse.value)
        let huge = try Self.file(String(repeating: "# x\n", count: 40_000))
        #expect(try Self.settings([], file: huge).problems.first?.contains("64 KB") == true)
    }

    @Test func theFileIsFoundThroughXDGConfigHome() {
        #expect(
            ConfigFile.defaultURL(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]).path == "/x/fakenft/config.toml"
        )
        #expect(ConfigFile.defaultURL(environment: ["HOME": "/h"]).path == "/h/.config/fakenft/config.toml")
    }
}
