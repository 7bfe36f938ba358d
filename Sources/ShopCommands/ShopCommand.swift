/// One command of the shop: its name, arguments and options, what it says of itself, who may
/// run it, and what it does through the API. Declared once (``all``) for every door: the local
/// command line, the SSH front and the help.
public struct ShopCommand: Sendable {
    /// One or two words (`cart add`).
    public let name: String
    let argument: Argument?
    let options: [Option]
    public let summary: String
    public let access: Access
    /// The app's screen that shows what it shows, when one does: where it opens on a terminal.
    let screen: (@Sendable (Invocation) -> ScreenLink?)?
    let run: @Sendable (Invocation, any ShopAPI) async throws -> CommandOutput

    /// What the command takes after its name.
    struct Argument: Sendable {
        /// As the usage line names it (`ID`, `TEXT`).
        let name: String
        /// One or more (`ID…`), or exactly one.
        let repeats: Bool
    }

    /// A `--name value` option.
    struct Option: Sendable {
        let name: String
        let value: String
        let help: String
    }

    /// Who may run a command.
    public enum Access: Sendable, Equatable {
        /// Anyone, a guest too: it reads the catalog.
        case anyone
        /// An account's own: its profile, likes, cart and orders.
        case account
    }

    /// Its usage line: `cart add ID… [--json]`.
    public var usage: String {
        var parts = [name]
        if let argument { parts.append(argument.name + (argument.repeats ? "…" : "")) }
        parts += options.map { "[--\($0.name) \($0.value)]" }
        parts.append("[--json]")
        return parts.joined(separator: " ")
    }

    /// What `help <command>` prints.
    public var help: String {
        var lines = ["usage: \(usage)", "", summary]
        if !options.isEmpty {
            lines.append("")
            lines += options.map { "  --\($0.name) \($0.value)  \($0.help)" }
        }
        lines += ["", "  --json  print one JSON document (the API's own shape where one exists)"]
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A command and what its command line gave it.
public struct Invocation: Sendable {
    public let command: ShopCommand
    public let arguments: [String]
    public let options: [String: String]
    public let json: Bool

    /// The command `words` name, with its arguments and options; a wrong command line is a
    /// usage failure that says what is right (the closest command, its usage line).
    public static func parse(_ words: [String]) throws(CommandFailure) -> Invocation {
        let command = try command(of: words)
        var arguments: [String] = [], options: [String: String] = [:], json = false
        var rest = words.dropFirst(command.name.split(separator: " ").count)
        while let word = rest.popFirst() {
            if word == "--json" {
                json = true
            } else if word == "--" {
                arguments += rest
                rest = []
            } else if word.hasPrefix("--") {
                let (name, inline) = Self.split(option: word)
                guard let option = command.options.first(where: { $0.name == name }) else {
                    throw .usage("'\(command.name)' has no option --\(name): usage: \(command.usage)")
                }
                guard let value = inline ?? rest.popFirst() else {
                    throw .usage("--\(option.name) wants a value: usage: \(command.usage)")
                }
                options[option.name] = value
            } else {
                arguments.append(word)
            }
        }
        switch (command.argument, arguments.count) {
        case (nil, 0), (.some(_), 1): break
        case (.some(let argument), let count) where argument.repeats && count > 1: break
        default: throw .usage("wrong arguments: usage: \(command.usage)")
        }
        return Invocation(command: command, arguments: arguments, options: options, json: json)
    }

    /// The command the first words of `words` name (two words before one: `cart add`).
    static func command(of words: [String]) throws(CommandFailure) -> ShopCommand {
        guard let first = words.first else { throw .usage("no command given: 'help' lists them") }
        let twoWords = words.count > 1 ? first + " " + words[1] : nil
        if let command = ShopCommand.named(twoWords ?? "") ?? ShopCommand.named(first) { return command }
        let closest = ShopCommand.closest(to: twoWords.map { [$0, first] } ?? [first])
        throw .usage(
            "'\(first)' is not a command\(closest.map { " (did you mean '\($0)'?)" } ?? ""): 'help' lists them")
    }

    /// `--name=value` as the name and the value; `--name` as the name alone.
    private static func split(option word: String) -> (String, String?) {
        let body = word.dropFirst(2)
        guard let equals = body.firstIndex(of: "=") else { return (String(body), nil) }
        return (String(body[..<equals]), String(body[body.index(after: equals)...]))
    }

    /// The app's screen this invocation names, to be opened on a terminal; nil when it asked for
    /// JSON or names no screen (or an id no screen can have).
    public var screen: ScreenLink? { json ? nil : command.screen?(self) }

    /// The one argument of a command that takes one.
    var argument: String { arguments.first ?? "" }
}

extension ShopCommand {
    /// The command the first words of `words` name, if they name one (`cart add 7`: `cart add`).
    public static func named(by words: [String]) -> ShopCommand? { try? Invocation.command(of: words) }

    /// The command called `name`.
    public static func named(_ name: String) -> ShopCommand? { all.first { $0.name == name } }

    /// The command whose name is nearest to one of `typed` (at most two edits away).
    static func closest(to typed: [String]) -> String? {
        let scored = all.flatMap { command in typed.map { (command.name, Self.distance($0, command.name)) } }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
        return best.0
    }

    /// The edits (insertions, deletions, substitutions) from `a` to `b`.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.prefix(64)), b = Array(b.prefix(64))
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// What `help` prints: every command's usage and summary.
    public static var listing: String {
        let width = all.map(\.name.count).max() ?? 0
        return all.map { $0.name + String(repeating: " ", count: width - $0.name.count) + "  " + $0.summary + "\n" }
            .joined()
    }
}
