import FakeNFTModels
import Foundation

/// What a visitor's SSH session asked for, as far as the shop takes it: a terminal and its size,
/// the language and how the terminal wants colours. Every value comes from the client and is
/// checked before the app sees it.
struct SSHSessionRequest: Sendable, Equatable {
    /// The terminal type, when the client asked for a terminal (`pty-req`).
    private(set) var terminal: String?
    private(set) var size: AppOnTerminal.Size?
    /// The variables taken, as the app gets them: LANG, LC_ALL and LC_MESSAGES as sent
    /// (`ssh -o SetEnv=LANG=ru_RU.UTF-8`), NO_COLOR and DO_NOT_TRACK as `1`, COLORTERM as sent.
    private(set) var variables: [String: String] = [:]

    /// The variables taken from the client: those that choose the language, NO_COLOR (any
    /// non-empty value: no colours), DO_NOT_TRACK (any but `0`: no usage events) and COLORTERM
    /// (`truecolor` or `24bit`).
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

    /// Takes a variable the client sent (`env`): one that chooses the language and reads as a
    /// locale name, NO_COLOR with a value, DO_NOT_TRACK with one but `0`, COLORTERM saying `truecolor` or
    /// `24bit`; false for any other.
    mutating func take(variable name: String, value: String) -> Bool {
        switch name {
        case _ where Self.languageVariables.contains(name):
            guard Self.isLocaleName(value) else { return false }
            variables[name] = value
        case "NO_COLOR", "DO_NOT_TRACK":
            guard !value.isEmpty, value != "0" || name == "NO_COLOR" else { return false }
            variables[name] = "1"
        case "COLORTERM":
            guard ["truecolor", "24bit"].contains(value) else { return false }
            variables[name] = value
        default:
            return false
        }
        return true
    }

    /// Who the app is for: the token of its sign-in, the session's secret (``SSHVisitorPasses``),
    /// and a key's fingerprint (none for a guest).
    struct Identity: Sendable {
        var token: String
        var pass: String
        var keyFingerprint: String?
        /// A new key let in as a guest for this visit (no more accounts are made this hour).
        var keyWaitsForAccount = false
    }

    /// The app's whole environment: nothing of the server's own, and none of its secrets
    /// (``secrets(of:)``, given on a descriptor). It is told it runs for an SSH visitor
    /// (``SSHSessionVariables/remote``) of the shop of host key `shop`, and for a guest when the
    /// identity has no key.
    func environment(home: String, server: String, shop: String, door: String, identity: Identity) -> [String: String] {
        var environment = variables
        environment[SSHSessionVariables.remote] = SSHSessionVariables.ssh
        environment["TERM"] = terminal ?? Self.fallbackTerminal
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = home + "/config"
        environment["XDG_DATA_HOME"] = home + "/data"
        environment["XDG_STATE_HOME"] = home + "/state"
        environment["XDG_CACHE_HOME"] = home + "/cache"
        environment["PATH"] = "/usr/local/bin:/usr/bin:/bin"
        environment["FAKENFT_SERVER"] = server
        environment[SSHSessionVariables.shop] = shop
        environment[SSHSessionVariables.door] = door
        environment[SSHSessionVariables.key] = identity.keyFingerprint
        environment[SSHSessionVariables.secretsDescriptor] = String(SSHSessionVariables.secretsDescriptorNumber)
        if identity.keyFingerprint == nil {
            environment[SSHSessionVariables.guest] =
                identity.keyWaitsForAccount ? SSHSessionVariables.newKeyAsGuest : "1"
        }
        return environment
    }

    /// What the app reads on ``SSHSessionVariables/secretsDescriptor``: its sign-in's token and
    /// the session's secret.
    static func secrets(of identity: Identity) -> String {
        SSHSessionVariables.encodeSecrets(["FAKENFT_TOKEN": identity.token, SSHSessionVariables.session: identity.pass])
    }

    /// Letters, digits and `._+-`, at most 64: a name that cannot reach a path or a shell.
    static func isPlainName(_ text: String) -> Bool {
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

/// The account name a visitor's SSH user name gives: in its compatibility form (fullwidth letters
/// as plain ones), letters, digits, `.`, `_` and `-` of it, at most 32 characters; "visitor" when
/// nothing is left or its letters mix alphabets that look alike (`Аdmin` with a Cyrillic `А`).
enum SSHVisitorName {
    static func from(user: String) -> String {
        let kept = user.precomposedStringWithCompatibilityMapping.unicodeScalars.filter {
            ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
                && !$0.properties.isDefaultIgnorableCodePoint
        }
        let name = String(String.UnicodeScalarView(kept.prefix(32)))
        return name.isEmpty || !AccountRules.isOneAlphabet(Substring(name)) ? "visitor" : name
    }
}
