import ArgumentParser
import FakeNFTCore
import Foundation
import TerminalUI

/// Where an option's value came from.
enum SettingSource: Equatable, CustomStringConvertible {
    case byDefault, file(line: Int), environment(String), commandLine

    var description: String {
        switch self {
        case .byDefault: "default"
        case .file(let line): "config file, line \(line)"
        case .environment(let name): "environment (\(name))"
        case .commandLine: "command line"
        }
    }
}

/// A command's options in four layers, each over the one before: the defaults, a TOML file
/// (``OptionFile``), the environment (`FAKENFT_` and the option's name in capitals, dashes as
/// underscores: `FAKENFT_SSH_MAX_PER_VISITOR=3`) and the command line. The file's and the
/// environment's options are put in front of the command line's for the argument parser (as
/// `--name=value`, so that a value may start with a dash), where the last one given wins: every
/// option is declared once, by its command, and checked by the parser whichever layer gave it.
struct OptionLayers {
    /// One option the file or the environment gives, as the argument parser takes it.
    struct Entry: Equatable {
        var option: String
        var arguments: [String]
        var source: SettingSource
    }

    /// The command's options, read only when a layer gives something (they take a while to read).
    private let declared: () -> OptionDeclarations
    /// The command's own options as typed (after the subcommand's name).
    private let commandLine: [String]
    /// The file's options, then the environment's.
    private(set) var front: [Entry] = []
    /// What could not be taken from the environment, in a sentence naming the variable.
    private(set) var problems: [String] = []

    /// - Parameter arguments: the command's own options as typed (after the subcommand's name).
    init(
        _ options: @escaping @autoclosure () -> OptionDeclarations, file: OptionFile?, environment: [String: String],
        arguments: [String]
    ) {
        declared = options
        commandLine = arguments
        front = (file?.entries ?? []).map {
            Entry(option: $0.option, arguments: $0.arguments, source: .file(line: $0.line))
        }
        guard !front.isEmpty || environment.keys.contains(where: { $0.hasPrefix(OptionDeclarations.prefix) }) else {
            return
        }
        let options = options()
        for option in options.kinds.keys.sorted() {
            let variable = options.variable(option)
            guard let value = environment[variable], !value.isEmpty else { continue }
            guard let arguments = options.arguments(option, environment: value) else {
                problems.append(
                    "\(variable)='\(SafeText.sanitize(value).prefix(60))' wants 1, true, yes, 0, false or no")
                continue
            }
            front.append(Entry(option: option, arguments: arguments, source: .environment(variable)))
        }
        // Options that exclude each other: one given in a layer replaces the others under it.
        for group in options.exclusive {
            if let typed = commandLine.lazy.compactMap(options.option(typed:)).first(where: group.contains) {
                front.removeAll { group.contains($0.option) && $0.option != typed }
            } else if let last = front.last(where: { group.contains($0.option) }) {
                front.removeAll { group.contains($0.option) && $0.option != last.option }
            }
        }
    }

    /// What the argument parser reads: the layers' options in front of the command line's.
    var arguments: [String] { front.flatMap(\.arguments) + commandLine }

    /// Which layer under the command line gives `option`'s value: the environment, the file or none.
    func source(of option: String) -> SettingSource {
        front.last { $0.option == option }?.source ?? .byDefault
    }

    /// The options the command line or the environment gives: what a file cannot change.
    var givenOutsideTheFile: Set<String> {
        let options = declared()
        var names = Set(commandLine.compactMap(options.option(typed:)))
        for entry in front { if case .environment = entry.source { names.insert(entry.option) } }
        return names
    }

    /// Leaves out each option of the file or the environment that `parse` refuses on its own,
    /// and says why, naming the line or the variable: the layer under it decides instead.
    mutating func dropRefused(by parse: ([String]) throws -> Void, file: String) -> [String] {
        var refused: [String] = []
        front.removeAll { entry in
            do {
                try parse(entry.arguments)
                return false
            } catch {
                // The parser's message on one line, without its full stop.
                let words = SafeText.sanitize(FakeNFTCommand.message(for: error)).split(whereSeparator: \.isWhitespace)
                var message = words.joined(separator: " ")
                if message.hasSuffix(".") { message.removeLast() }
                let place =
                    switch entry.source {
                    case .file(let line): "\(file) line \(line): \(entry.option)"
                    case .environment(let variable): variable
                    case .byDefault, .commandLine: entry.option
                    }
                refused.append("\(place): \(message) (not used)")
                return true
            }
        }
        return refused
    }
}

/// The options of a command that a file and the environment may give: each long option of its
/// declaration but those given on the command line only.
struct OptionDeclarations {
    /// How an option takes its value.
    enum Kind: Equatable {
        /// `--name VALUE`: a string or a number in the file.
        case value
        /// `--name`: `true` or `false` in the file (`false` is `--no-name` where there is one);
        /// `1`, `true`, `yes` or `0`, `false`, `no` in the environment.
        case flag
        /// `--name VALUE`, repeatable: a list in the file, comma-separated in the environment.
        case list
    }

    /// The command as messages name it (`fakenft serve`).
    let command: String
    /// Each option by its long name (an inverted flag's `no-name` is not one of its own).
    let kinds: [String: Kind]
    /// Options only the command line gives.
    let commandLineOnly: Set<String>
    /// Options that exclude each other.
    let exclusive: [Set<String>]
    /// Flags that have a `no-` form.
    private let inverted: Set<String>
    /// Each other long name of an option (`--lang` for `--language`), and each `no-` form, to its option.
    private let aliases: [String: String]

    /// The options `type` declares, read from its own description of itself.
    init(
        of type: any ParsableArguments.Type, command: String, commandLineOnly: Set<String>,
        exclusive: [Set<String>] = []
    ) {
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
        let dump = try? JSONDecoder().decode(Dump.self, from: Data(type._dumpHelp().utf8))
        var kinds: [String: Kind] = [:], aliases: [String: String] = [:]
        for argument in dump?.command.arguments ?? [] {
            let longNames = (argument.names ?? []).filter { $0.kind == "long" }.map(\.name)
            guard let name = longNames.first, !commandLineOnly.contains(name), !["help", "version"].contains(name)
            else { continue }
            kinds[name] = argument.kind == "flag" ? .flag : argument.isRepeating ? .list : .value
            for alias in longNames.dropFirst() { aliases[alias] = name }
        }
        inverted = Set(kinds.keys.filter { kinds["no-" + $0] == .flag })
        for name in inverted {
            kinds["no-" + name] = nil
            aliases["no-" + name] = name
        }
        self.aliases = aliases
        self.command = command
        self.kinds = kinds
        self.commandLineOnly = commandLineOnly
        self.exclusive = exclusive
    }

    /// What every option's variable starts with.
    static let prefix = "FAKENFT_"

    /// The variable for `option`.
    func variable(_ option: String) -> String {
        Self.prefix + option.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// The option a typed argument names (`--port=1`, `--no-mouse`, `--lang`); nil for none of these.
    func option(typed argument: String) -> String? {
        guard argument.hasPrefix("--") else { return nil }
        let name = String(argument.dropFirst(2).prefix { $0 != "=" })
        return aliases[name] ?? (kinds[name] == nil ? nil : name)
    }

    /// The option a file's key names: its long name, underscores read as dashes (`read_only`).
    func option(forKey key: String) -> String? {
        let name = key.replacingOccurrences(of: "_", with: "-")
        return kinds[name] == nil ? nil : name
    }

    /// A flag given as on or off, as arguments.
    func arguments(_ option: String, flag: Bool) -> [String] {
        flag ? ["--" + option] : inverted.contains(option) ? ["--no-" + option] : []
    }

    /// `option`'s arguments for the environment's `value`; nil for a flag's value that is neither on nor off.
    func arguments(_ option: String, environment value: String) -> [String]? {
        switch kinds[option] {
        case .flag:
            switch value.lowercased() {
            case "1", "true", "yes": return arguments(option, flag: true)
            case "0", "false", "no": return arguments(option, flag: false)
            default: return nil
            }
        case .list:
            return value.split(separator: ",").map { "--\(option)=\($0.trimmingCharacters(in: .whitespaces))" }
        case .value, nil:
            return ["--\(option)=\(value)"]
        }
    }
}
