/// The environment variables through which the SSH front tells the app of a session about it:
/// set by the server (`SSHSessionRequest`), read by the app.
public enum SSHSessionVariables {
    /// Set (to `ssh`) in every SSH session: the app runs on the server for a visitor far away,
    /// so it never stops itself (no shell could resume it) and never opens a program here.
    public static let remote = "FAKENFT_REMOTE"
    /// The value of ``remote``.
    public static let ssh = "ssh"
    /// The fingerprint of the key the visitor signed in with (none for a guest).
    public static let key = "FAKENFT_SSH_KEY"
    /// The session's secret: the app sends it with every request (``header``), so that the server
    /// counts the visitor rather than loopback, and a sign-in from a key's session moves its key.
    public static let session = "FAKENFT_SSH_SESSION"
    /// The header that carries ``session``'s secret.
    public static let header = "FakeNFT-SSH-Session"
    /// The shop's host key fingerprint, the same on every server of a deployment: what the app
    /// keys its saved copy and kept changes by instead of the server's own loopback address, so
    /// that they serve a returning visitor on any server.
    public static let shop = "FAKENFT_SSH_SHOP"
    /// How the visitor reaches the shop again, as a command line (`ssh -t -p 2222 198.51.100.7`):
    /// the address and port the session's connection came in on. The app names its screens' links
    /// with it (`… nft 42`).
    public static let door = "FAKENFT_SSH_DOOR"
    /// Set for a guest, with an account of the session only: `1` for one who came in with a
    /// password, ``newKeyAsGuest`` for a new key the shop makes no account for this hour.
    public static let guest = "FAKENFT_SSH_GUEST"
    /// The value of ``guest`` for a new key that is a guest for this visit.
    public static let newKeyAsGuest = "key-later"

    /// The descriptor (a number) the app reads its session's secrets from (``secrets``), once, at
    /// start: never its environment, which `/proc/PID/environ` shows to every process of the
    /// server's user.
    public static let secretsDescriptor = "FAKENFT_SSH_SECRETS_FD"
    /// The descriptor the server gives the app's secrets on.
    public static let secretsDescriptorNumber: Int32 = 3
    /// The variables that come through ``secretsDescriptor`` instead of the environment: the
    /// sign-in's token and the session's secret ``session``.
    public static let secrets: Set<String> = ["FAKENFT_TOKEN", session]
    /// The most bytes of secrets read.
    public static let secretsLimit = 4_096

    /// `values` (of ``secrets`` only) as the descriptor carries them: a `NAME=value` line each.
    public static func encodeSecrets(_ values: [String: String]) -> String {
        values.filter { secrets.contains($0.key) && isPlainSecret($0.value) }.sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value)\n" }.joined()
    }

    /// The secrets of `text` as ``encodeSecrets(_:)`` writes them; any other line is dropped.
    public static func decodeSecrets(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let name = String(line[..<equals]), value = String(line[line.index(after: equals)...])
            if secrets.contains(name), isPlainSecret(value) { values[name] = value }
        }
        return values
    }

    /// Printable ASCII without spaces, at most 512 bytes: tokens and links are base64url or hex.
    private static func isPlainSecret(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= 512 && value.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// Whether `environment` is a guest's SSH session.
    public static func isGuest(_ environment: [String: String]) -> Bool {
        isRemote(environment) && ["1", newKeyAsGuest].contains(environment[guest])
    }

    /// Whether `environment` is the SSH session of a new key that is a guest for this visit.
    public static func keyWaitsForAccount(_ environment: [String: String]) -> Bool {
        isRemote(environment) && environment[guest] == newKeyAsGuest
    }

    /// Whether `environment` is an SSH session's.
    public static func isRemote(_ environment: [String: String]) -> Bool { environment[remote] == ssh }
}
