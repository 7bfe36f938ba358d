import FakeNFTCore
import Foundation
import TerminalUI
import TOMLKit

/// A TOML file of a command's options: each key an option's long name (underscores read as
/// dashes: `read_only` is `read-only`), each value of the option's kind (`port = 8080`,
/// `read-only = true`, `trusted-proxy = ["10.0.0.0/8"]`). Read, never written. A key that is no
/// option, or a value of the wrong kind, is a problem naming its line; the other keys still count.
struct OptionFile {
    /// One option from the file, as the argument parser takes it.
    struct Entry: Equatable, Sendable {
        var option: String
        var arguments: [String]
        var line: Int
    }

    let path: String
    private(set) var entries: [Entry] = []
    /// What is wrong with the file, each in a sentence naming it and the line.
    private(set) var problems: [String] = []
    /// Why the file could not be read at all (missing, not UTF-8, too long, not TOML); nil when it was.
    private(set) var unreadable: String?
    /// The whole table, for the tables the command reads itself (`[colors]`).
    private(set) var table = TOMLTable()
    /// The file's lines, for finding a key's line.
    private(set) var lines: [Substring] = []

    /// Larger files are not configuration.
    static let maxBytes = 64 * 1024

    /// Reads `path` for `options`; `ownTables` are keys the command reads itself.
    init(path: String, options: OptionDeclarations, ownTables: Set<String> = []) {
        self.path = path
        guard let data = RegularFile.read(URL(fileURLWithPath: path), maxBytes: Self.maxBytes),
            let text = String(data: data, encoding: .utf8)
        else {
            refuse("\(path): not a readable UTF-8 text file of at most 64 KB")
            return
        }
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            refuse("\(path) line \(error.source.begin.line): \(error.description)")
            return
        } catch {
            refuse("\(path): \(error)")
            return
        }
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for key in table.keys.sorted() where !ownTables.contains(key) {
            let line = self.line(of: key)
            let name = SafeText.sanitize(key).prefix(40)
            guard let option = options.option(forKey: key), let value = table[key] else {
                let what =
                    options.commandLineOnly.contains(key)
                    ? "given on the command line only" : "no option of \(options.command)"
                problems.append("\(path) line \(line): '\(name)' is \(what)")
                continue
            }
            guard let arguments = Self.arguments(option, options, value) else {
                let wanted =
                    switch options.kinds[option] {
                    case .flag: "true or false"
                    case .list: "a list of strings (or one string)"
                    case .value, nil: "a string or a whole number"
                    }
                problems.append("\(path) line \(line): \(name) wants \(wanted)")
                continue
            }
            entries.append(Entry(option: option, arguments: arguments, line: line))
        }
    }

    /// The line `key` is set on (1 when it is not found).
    func line(of key: String) -> Int {
        func names(_ line: Substring) -> Bool {
            let text = line.drop { $0 == " " || $0 == "\t" }
            let name =
                text.hasPrefix("\"") ? text.dropFirst().prefix { $0 != "\"" } : text.prefix { $0 != "=" && $0 != " " }
            return name == key
        }
        return (lines.firstIndex(where: names) ?? 0) + 1
    }

    private mutating func refuse(_ reason: String) {
        unreadable = reason
        problems = [reason]
    }

    private static func arguments(
        _ option: String, _ options: OptionDeclarations, _ value: any TOMLValueConvertible
    ) -> [String]? {
        func text(_ value: any TOMLValueConvertible) -> String? {
            value.string ?? value.int.map { String($0) }
        }
        switch options.kinds[option] {
        case .flag: return value.bool.map { options.arguments(option, flag: $0) }
        case .list:
            if let single = text(value) { return ["--\(option)=\(single)"] }
            guard let list = value.array else { return nil }
            let items = list.compactMap(text)
            return items.count == list.count ? items.map { "--\(option)=\($0)" } : nil
        case .value, nil: return text(value).map { ["--\(option)=\($0)"] }
        }
    }

    /// The options whose arguments differ between `self` and `other` (another reading's entries), by name.
    func changed(from other: [Entry]) -> [String] {
        let mine = Dictionary(entries.map { ($0.option, $0.arguments) }, uniquingKeysWith: { $1 })
        let theirs = Dictionary(other.map { ($0.option, $0.arguments) }, uniquingKeysWith: { $1 })
        return Set(mine.keys).union(theirs.keys).filter { mine[$0] != theirs[$0] }.sorted()
    }
}
