import Foundation

/// What a visitor's SSH session asked for, as far as the shop takes it: a terminal and its size,
/// and the language. Every value comes from the client and is checked before the app sees it.
struct SSHSessionRequest: Sendable, Equatable {
    /// The terminal type, when the client asked for a terminal (`pty-req`).
    private(set) var terminal: String?
    private(set) var size: AppOnTerminal.Size?
    /// LANG, LC_ALL and LC_MESSAGES as sent (`ssh -o SetEnv=LANG=ru_RU.UTF-8`).
    private(set) var language: [String: String] = [:]

    /// The variables taken from the client: those that choose the language.
    static let languageVariables: Set<String> = ["LANG", "LC_ALL", "LC_MESSAGES"]
    /// The terminal type used when the client's is unknown here (or missing).
    static let fallbackTerminal = "xterm-256color"

    /// The client asked for a terminal of type `type`: the type is kept when this machine has its
    /// terminfo entry, else ``fallbackTerminal``.
    mutating func askTerminal(_ type: String, columns: Int, rows: Int, known: (String) -> Bool = Self.hasTerminfo) {
        terminal = Self.isPlainName(type) && known(type) ? type : Self.fallbackTerminal
        size = AppOnTerminal.Size(columns: columns, rows: rows)
    }

    /// The terminal's new size (`window-change`); false before a terminal was asked for.
    mutating func resize(columns: Int, rows: Int) -> Bool {
        guard terminal != nil else { return false }
        size = AppOnTerminal.Size(columns: columns, rows: rows)
        return true
    }

    /// Takes a variable the client sent (`env`) when it chooses the language and reads as a
    /// locale name; false for any other.
    mutating func take(variable name: String, value: String) -> Bool {
        guard Self.languageVariables.contains(name), Self.isLocaleName(value) else { return false }
        language[name] = value
        return true
    }

    /// The app's whole environment: nothing of the server's own.
    func environment(home: String, server: String, token: String, keyFingerprint: String, link: String)
        -> [String: String]
    {
        var environment = language
        environment["TERM"] = terminal ?? Self.fallbackTerminal
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = home + "/config"
        environment["XDG_DATA_HOME"] = home + "/data"
        environment["XDG_STATE_HOME"] = home + "/state"
        environment["XDG_CACHE_HOME"] = home + "/cache"
        environment["PATH"] = "/usr/local/bin:/usr/bin:/bin"
        environment["FAKENFT_SERVER"] = server
        environment["FAKENFT_TOKEN"] = token
        environment["FAKENFT_SSH_KEY"] = keyFingerprint
        environment["FAKENFT_SSH_LINK"] = link
        return environment
    }

    /// Letters, digits and `._+-`, at most 64: a name that cannot reach a path or a shell.
    private static func isPlainName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64
            && text.unicodeScalars.allSatisfy {
                $0.isASCII && (isAlphanumeric($0) || "._+-".unicodeScalars.contains($0))
            }
    }

    /// `C`, `POSIX`, or `ll[_CC][.codeset][@modifier]`.
    static func isLocaleName(_ text: String) -> Bool {
        text.range(
            of: #"^([A-Za-z]{2,3}(_[A-Za-z]{2})?(\.[A-Za-z0-9-]{1,20})?(@[A-Za-z]{1,20})?|C|POSIX|C\.UTF-8)$"#,
            options: .regularExpression) != nil
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    /// Whether this machine's terminfo describes terminal `type`.
    static func hasTerminfo(_ type: String) -> Bool {
        guard let first = type.first else { return false }
        let folders = ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo"]
        return folders.contains { FileManager.default.fileExists(atPath: "\($0)/\(first)/\(type)") }
    }
}

/// The account name a visitor's SSH user name gives: letters, digits, `.`, `_` and `-` of it, at
/// most 32 characters, or "visitor".
enum SSHVisitorName {
    static func from(user: String) -> String {
        let kept = user.unicodeScalars.filter {
            ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
                && !$0.properties.isDefaultIgnorableCodePoint
        }
        let name = String(String.UnicodeScalarView(kept.prefix(32)))
        return name.isEmpty ? "visitor" : name
    }
}
