/// `fakenft serve`'s options from the environment, for services and containers: each option
/// `--name` also comes from `FAKENFT_NAME` (dashes as underscores). They are read as if given
/// before the command line's own options, which win. `--reset` and `--large` are one-off
/// actions, never taken from the environment.
enum ServeEnvironment {
    /// The options that take a value.
    static let options = [
        "host", "port", "data", "database", "token", "token-file", "latency", "payments", "idle-timeout", "public-url",
        "sign-ups-per-hour", "session-idle-days", "lists-without-if-match", "metrics-address", "log-format",
        "ssh-port", "ssh-host", "ssh-host-key", "ssh-max-sessions", "ssh-max-per-visitor", "ssh-idle-minutes",
        "ssh-new-keys-per-hour",
    ]
    /// The flags: set by `1`, `true` or `yes`.
    static let flags = ["quiet", "upstream-images", "read-only"]
    /// Repeatable options: a comma-separated list.
    static let lists = ["trusted-proxy"]

    /// The variable for `option`.
    static func variable(_ option: String) -> String {
        "FAKENFT_" + option.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// `arguments` (the command line without the program), with the environment's options put
    /// in front of `serve`'s own.
    static func arguments(_ arguments: [String], environment: [String: String]) -> [String] {
        guard arguments.first == "serve" else { return arguments }
        var fromEnvironment: [String] = []
        for option in options {
            if let value = environment[variable(option)], !value.isEmpty { fromEnvironment += ["--" + option, value] }
        }
        for flag in flags where ["1", "true", "yes"].contains(environment[variable(flag)]?.lowercased() ?? "") {
            fromEnvironment.append("--" + flag)
        }
        for list in lists {
            for item in (environment[variable(list)] ?? "").split(separator: ",") {
                fromEnvironment += ["--" + list, item.trimmingCharacters(in: .whitespaces)]
            }
        }
        // `--token` and `--token-file` exclude each other: one on the command line replaces the
        // environment's either.
        if arguments.contains(where: { $0.hasPrefix("--token") }) {
            fromEnvironment = Self.removing(["--token", "--token-file"], from: fromEnvironment)
        }
        return ["serve"] + fromEnvironment + arguments.dropFirst()
    }

    private static func removing(_ names: Set<String>, from arguments: [String]) -> [String] {
        var kept: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            if names.contains(arguments[index]) {
                index += 2
            } else {
                kept.append(arguments[index])
                index += 1
            }
        }
        return kept
    }
}
