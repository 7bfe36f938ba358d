import ArgumentParser
import FakeNFTCore
import Foundation
import TerminalUI
import TOMLKit

/// `fakenft serve`'s options in layers, each over the one before: the defaults, the configuration
/// file (`--config FILE` or `$FAKENFT_CONFIG`: TOML, keys named as the long options,
/// `ssh-max-per-visitor = 3`), the environment (`FAKENFT_NAME`, dashes as underscores) and the
/// command line. The file's and the environment's options are put in front of the command line's
/// for the argument parser (as `--name=value`, so that a value may start with a dash), where the
/// last one given wins: every option is declared once, by ``ServeCommand``. `--reset` and
/// `--large` are one-off actions, taken from the command line only.
enum ServeLayers {
    /// How an option takes its value.
    enum Kind: Equatable {
        /// `--name VALUE`: a string or a number in the file.
        case value
        /// `--name`: `true` or `false` in the file; `1`, `true` or `yes` in the environment.
        case flag
        /// `--name VALUE`, repeatable: a list in the file, comma-separated in the environment.
        case list
    }

    /// Options only the command line gives.
    static let commandLineOnly: Set = ["reset", "large", "config", "help", "version"]

    /// Each option a file or the environment may give, read from ``ServeCommand``'s declaration.
    static let options: [String: Kind] = {
        struct Dump: Decodable {
            struct Command: Decodable { var arguments: [Argument] }
            struct Argument: Decodable {
                struct Name: Decodable {
                    var kind: String
                    var name: String
                }
                var kind: String
                var names: [Name]?
                var isRepeating: Bool
            }
            var command: Command
        }
        let dump = try? JSONDecoder().decode(Dump.self, from: Data(ServeCommand._dumpHelp().utf8))
        var options: [String: Kind] = [:]
        for argument in dump?.command.arguments ?? [] {
            guard let name = argument.names?.first(where: { $0.kind == "long" })?.name,
                !commandLineOnly.contains(name)
            else { continue }
            options[name] = argument.kind == "flag" ? .flag : argument.isRepeating ? .list : .value
        }
        return options
    }()

    /// The variable for `option`.
    static func variable(_ option: String) -> String {
        "FAKENFT_" + option.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// `arguments` (the command line without the program) with the file's and the environment's
    /// options put in front of `serve`'s own; throws what is wrong with the file.
    static func arguments(_ arguments: [String], environment: [String: String]) throws(ServeFile.Problem)
        -> [String]
    {
        guard arguments.first == "serve" else { return arguments }
        guard let path = configPath(arguments, environment: environment) else {
            return layered(arguments, environment: environment, file: nil)
        }
        return layered(arguments, environment: environment, file: try ServeFile(path: path))
    }

    /// `arguments` with `file`'s options and then the environment's in front of the command line's.
    static func layered(_ arguments: [String], environment: [String: String], file: ServeFile?) -> [String] {
        var front: [String] = []
        for entry in file?.entries ?? [] { front += entry.arguments }
        for (option, kind) in options.sorted(by: { $0.key < $1.key }) {
            guard let value = environment[variable(option)], !value.isEmpty else { continue }
            switch kind {
            case .value: front.append("--\(option)=\(value)")
            case .flag: if ["1", "true", "yes"].contains(value.lowercased()) { front.append("--" + option) }
            case .list:
                for item in value.split(separator: ",") {
                    front.append("--\(option)=\(item.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        // `--token` and `--token-file` exclude each other: one given in a layer replaces the
        // layers' under it.
        func option(_ argument: String) -> Substring { argument.prefix { $0 != "=" } }
        if arguments.contains(where: { ["--token", "--token-file"].contains(option($0)) }) {
            front.removeAll { ["--token", "--token-file"].contains(option($0)) }
        } else if let last = front.last(where: { ["--token", "--token-file"].contains(option($0)) }) {
            let other = option(last) == "--token" ? "--token-file" : "--token"
            front.removeAll { option($0) == other }
        }
        return ["serve"] + front + arguments.dropFirst()
    }

    /// The file `--config` (or `$FAKENFT_CONFIG`) names.
    static func configPath(_ arguments: [String], environment: [String: String]) -> String? {
        for (index, argument) in arguments.enumerated() {
            if argument == "--config", index + 1 < arguments.count { return arguments[index + 1] }
            if argument.hasPrefix("--config=") { return String(argument.dropFirst("--config=".count)) }
        }
        return environment[variable("config")].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The options `arguments` gives on the command line or `environment` gives, by name: what
    /// a file cannot change.
    static func givenOutsideTheFile(_ arguments: [String], environment: [String: String]) -> Set<String> {
        var names = Set(
            arguments.compactMap { argument -> String? in
                guard argument.hasPrefix("--") else { return nil }
                return String(argument.dropFirst(2).prefix { $0 != "=" })
            })
        for option in options.keys where !(environment[variable(option)] ?? "").isEmpty { names.insert(option) }
        return names
    }
}

/// `fakenft serve`'s configuration file: TOML, each key a long option's name (`port = 8080`,
/// `read-only = true`, `trusted-proxy = ["10.0.0.0/8"]`). A key that is no option, or a value of
/// the wrong kind, is a problem naming its line: the whole file is refused.
struct ServeFile: Equatable {
    /// One option from the file, as the argument parser takes it.
    struct Entry: Equatable {
        var option: String
        var arguments: [String]
        var line: Int
    }

    /// Why the file cannot be used, in a sentence naming it (and the line).
    struct Problem: Error, CustomStringConvertible, Equatable {
        var description: String
    }

    let path: String
    private(set) var entries: [Entry] = []

    /// Larger files are not configuration.
    static let maxBytes = 64 * 1024

    init(path: String) throws(Problem) {
        self.path = path
        guard let data = RegularFile.read(URL(fileURLWithPath: path), maxBytes: Self.maxBytes),
            let text = String(data: data, encoding: .utf8)
        else { throw Problem(description: "\(path): not a readable UTF-8 text file of at most 64 KB") }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw Problem(description: "\(path) line \(error.source.begin.line): \(error.description)")
        } catch {
            throw Problem(description: "\(path): \(error)")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for key in table.keys.sorted() {
            let line = (lines.firstIndex { $0.drop { $0 == " " || $0 == "\t" }.hasPrefix(key) } ?? 0) + 1
            let name = SafeText.sanitize(key).prefix(40)
            guard let kind = ServeLayers.options[key], let value = table[key] else {
                let known = ServeLayers.commandLineOnly.contains(key) ? "given on the command line only" : "no option"
                throw Problem(description: "\(path) line \(line): '\(name)' is \(known) of fakenft serve")
            }
            guard let arguments = Self.arguments(key, kind, value) else {
                let wanted =
                    switch kind {
                    case .value: "a string or a whole number"
                    case .flag: "true or false"
                    case .list: "a list of strings (or one string)"
                    }
                throw Problem(description: "\(path) line \(line): \(name) wants \(wanted)")
            }
            entries.append(Entry(option: key, arguments: arguments, line: line))
        }
    }

    private static func arguments(_ option: String, _ kind: ServeLayers.Kind, _ value: any TOMLValueConvertible)
        -> [String]?
    {
        func text(_ value: any TOMLValueConvertible) -> String? {
            value.string ?? value.int.map { String($0) }
        }
        switch kind {
        case .value: return text(value).map { ["--\(option)=\($0)"] }
        case .flag: return value.bool.map { $0 ? ["--" + option] : [] }
        case .list:
            if let single = text(value) { return ["--\(option)=\(single)"] }
            guard let list = value.array else { return nil }
            let items = list.compactMap(text)
            return items.count == list.count ? items.map { "--\(option)=\($0)" } : nil
        }
    }

    /// The options whose arguments differ between `self` and `other`, by name.
    func changed(from other: ServeFile?) -> [String] {
        let mine = Dictionary(entries.map { ($0.option, $0.arguments) }, uniquingKeysWith: { $1 })
        let theirs = Dictionary((other?.entries ?? []).map { ($0.option, $0.arguments) }, uniquingKeysWith: { $1 })
        return Set(mine.keys).union(theirs.keys).filter { mine[$0] != theirs[$0] }.sorted()
    }
}
