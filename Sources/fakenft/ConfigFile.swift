import FakeNFTApp
import FakeNFTCore
import Foundation
import TerminalUI
import TOMLKit

/// The user's configuration file, `$XDG_CONFIG_HOME/fakenft/config.toml`: read, never written.
/// Its keys are the app's options (``OptionFile``, the layer under the environment's), and two
/// tables of its own: `[colors]` and `[keys]`. A file that does not parse, a key that is not
/// known and a value of the wrong type are problems naming their line; the keys they concern
/// keep their defaults.
struct ConfigFile {
    let url: URL
    let exists: Bool
    /// The file's options; nil when there is no file.
    private(set) var options: OptionFile?
    /// The `[colors]` table: a colour per theme role, and the table's line.
    private(set) var colors = ThemeOverrides()
    private(set) var colorsLine = 0
    /// The `[keys]` table: an action's keys, as written (checked by ``KeyCatalog``).
    private(set) var keyEntries: [KeyEntry] = []
    private(set) var problems: [String] = []
    /// Why the file could not be read at all (not UTF-8, too long, not TOML); nil when it was.
    var unreadable: String? { options?.unreadable }

    /// The tables the file has beside the options.
    static let tables: Set = ["colors", "keys"]

    static func defaultURL(environment: [String: String]) -> URL {
        let home =
            environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? home.appendingPathComponent(".config")
        return base.appendingPathComponent("fakenft/config.toml")
    }

    init(url: URL) {
        self.url = url
        exists = FileManager.default.fileExists(atPath: url.path)
        guard exists else { return }
        let file = OptionFile(path: url.path, options: AppSettings.options, ownTables: Self.tables)
        options = file
        guard file.unreadable == nil else {
            problems = file.problems.map { $0 + "; using the defaults" }
            return
        }
        problems = file.problems
        let lines = file.lines
        if let keys = file.table["keys"] { readKeys(keys.table, lines: lines) }
        if let colors = file.table["colors"] {
            colorsLine =
                (lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "[colors]" }
                    ?? file.line(of: "colors") - 1) + 1
            readColors(colors.table, at: colorsLine, lines: lines)
        }
        if let token = file.entries.first(where: { $0.option == "token" }),
            let mode = PrivateFile.exposedMode(of: url.path)
        {
            problems.append(
                """
                \(url.path) line \(token.line): the token can be read by other users (mode \
                \(String(mode, radix: 8))): run chmod 600 \(url.path)
                """
            )
        }
    }

    /// `[keys]`: `"scope.action" = "key"` or a list of keys; `[keys.scope]` tables and dotted
    /// names are the same entries.
    private mutating func readKeys(_ table: TOMLTable?, lines: [Substring]) {
        let lineOf = Self.lineIndex(lines)
        func line(_ path: String) -> Int {
            var parts = ["keys"] + path.split(separator: ".").map(String.init)
            while !parts.isEmpty {
                if let line = lineOf[parts.joined(separator: ".")] { return line }
                parts.removeLast()
            }
            return 0
        }
        guard let table else {
            problems.append("\(url.path) line \(line("")): keys must be a table ([keys]); using the default keys")
            return
        }
        func read(_ table: TOMLTable, prefix: String) {
            for key in table.keys.sorted() {
                let path = prefix.isEmpty ? key : prefix + "." + key
                let value = table[key]
                if let nested = value?.table {
                    read(nested, prefix: path)
                } else if let single = value?.string {
                    keyEntries.append(KeyEntry(action: path, keys: [single], line: line(path)))
                } else if let list = value?.array, case let keys = list.compactMap({ $0.string }),
                    keys.count == list.count
                {
                    keyEntries.append(KeyEntry(action: path, keys: keys, line: line(path)))
                } else {
                    problems.append(
                        """
                        \(url.path) line \(line(path)): [keys] \(SafeText.sanitize(path).prefix(60)) must be a key in \
                        quotes or a list of them; the default keys stay
                        """
                    )
                }
            }
        }
        read(table, prefix: "")
    }

    /// The line of each key of the file by its whole name (`keys.catalog.sort`), read from
    /// `[table]` headers and `name = …` lines (quotes and spaces dropped).
    private static func lineIndex(_ lines: [Substring]) -> [String: Int] {
        var index: [String: Int] = [:]
        var table = ""
        func bare(_ text: Substring) -> String { text.filter { $0 != "\"" && $0 != "'" && !$0.isWhitespace } }
        for (number, line) in lines.enumerated() {
            let text = line.drop { $0 == " " || $0 == "\t" }
            if text.hasPrefix("["), !text.hasPrefix("[["), let end = text.firstIndex(of: "]") {
                table = bare(text[text.index(after: text.startIndex)..<end])
                if index[table] == nil { index[table] = number + 1 }
            } else if let equals = text.firstIndex(of: "="), !text.hasPrefix("#") {
                let name = bare(text[..<equals])
                let path = table.isEmpty ? name : table + "." + name
                if index[path] == nil { index[path] = number + 1 }
            }
        }
        return index
    }

    /// `[colors]`: `role = "#rrggbb"` or `role = 16…255`, for the roles `Theme.Role` names.
    private mutating func readColors(_ table: TOMLTable?, at: Int, lines: [Substring]) {
        guard let table else {
            problems.append("\(url.path) line \(at): colors must be a table ([colors]); using the theme's")
            return
        }
        let roles = Theme.Role.allCases.map(\.rawValue)
        for key in table.keys.sorted() {
            let line = (lines.indices.dropFirst(at).first { lines[$0].drop { $0 == " " }.hasPrefix(key) } ?? at - 1) + 1
            guard let role = Theme.Role(rawValue: key) else {
                problems.append(
                    """
                    \(url.path) line \(line): unknown colour role '\(SafeText.sanitize(key).prefix(40))' (known: \
                    \(roles.joined(separator: ", ")))
                    """
                )
                continue
            }
            let raw = table[key]?.string ?? table[key]?.int.map(String.init) ?? ""
            if !colors.set(role, raw) {
                problems.append(
                    "\(url.path) line \(line): \(key) must be \"#rrggbb\" or a colour number 16-255; using the theme's")
            }
        }
    }
}
