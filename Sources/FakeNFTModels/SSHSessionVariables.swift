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
    /// The secret that lets a sign-in from the session move its key (none for a guest).
    public static let link = "FAKENFT_SSH_LINK"
    /// The shop's host key fingerprint, the same on every server of a deployment: what the app
    /// keys its saved copy and kept changes by instead of the server's own loopback address, so
    /// that they serve a returning visitor on any server.
    public static let shop = "FAKENFT_SSH_SHOP"
    /// Set (to `1`) for a guest, who came in with a password: an account of the session only.
    public static let guest = "FAKENFT_SSH_GUEST"

    /// Whether `environment` is a guest's SSH session.
    public static func isGuest(_ environment: [String: String]) -> Bool {
        isRemote(environment) && environment[guest] == "1"
    }

    /// Whether `environment` is an SSH session's.
    public static func isRemote(_ environment: [String: String]) -> Bool { environment[remote] == ssh }
}
