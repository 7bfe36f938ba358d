import ArgumentParser
import Foundation

/// `fakenft serve`'s options in layers (``OptionLayers``): the file is `--config FILE` or
/// `$FAKENFT_CONFIG`, and a file, a variable or a value the server cannot use stops it, naming
/// the line or the variable. `--reset` and `--large` are one-off actions, taken from the command
/// line only.
enum ServeLayers {
    /// Why the layers cannot be used, in sentences naming the file and line or the variable.
    struct Problem: Error, CustomStringConvertible, Equatable {
        var description: String
    }

    /// The options a file or the environment may give, read from ``ServeCommand``'s declaration.
    static let options = OptionDeclarations(
        of: ServeCommand.self, command: "fakenft serve",
        commandLineOnly: ["reset", "large", "config", "usage-summary"],
        exclusive: [["token", "token-file"]])

    /// `arguments` (the command line without the program) with the file's and the environment's
    /// options in front of `serve`'s own; throws what is wrong with them.
    static func arguments(_ arguments: [String], environment: [String: String]) throws(Problem) -> [String] {
        guard arguments.first == "serve" else { return arguments }
        return ["serve"]
            + (try layers(arguments, environment: environment, file: try file(arguments, environment: environment)))
            .arguments
    }

    /// The layers of `arguments` (`serve` and its options) over `file`; throws what is wrong with
    /// the environment.
    static func layers(_ arguments: [String], environment: [String: String], file: OptionFile?) throws(Problem)
        -> OptionLayers
    {
        let layers = OptionLayers(
            options, file: file, environment: environment, arguments: Array(arguments.dropFirst()))
        guard layers.problems.isEmpty else { throw Problem(description: layers.problems.joined(separator: "\n")) }
        return layers
    }

    /// The file `--config` (or `$FAKENFT_CONFIG`) names, read; nil when none is named.
    static func file(_ arguments: [String], environment: [String: String]) throws(Problem) -> OptionFile? {
        guard let path = configPath(arguments, environment: environment) else { return nil }
        let file = OptionFile(path: path, options: options)
        guard file.problems.isEmpty else { throw Problem(description: file.problems.joined(separator: "\n")) }
        return file
    }

    /// The file `--config` (or `$FAKENFT_CONFIG`) names.
    static func configPath(_ arguments: [String], environment: [String: String]) -> String? {
        for (index, argument) in arguments.enumerated() {
            if argument == "--config", index + 1 < arguments.count { return arguments[index + 1] }
            if argument.hasPrefix("--config=") { return String(argument.dropFirst("--config=".count)) }
        }
        return environment[options.variable("config")].flatMap { $0.isEmpty ? nil : $0 }
    }
}
