import Foundation

/// Files that hold a secret (a token): only their owner may read them.
public enum PrivateFile {
    /// The permission bits of `path` when its group or others may read or write it; nil when
    /// only its owner may (or it cannot be looked at).
    /// A symbolic link is judged by the file it leads to (as Kubernetes mounts secrets and GNU
    /// stow links dotfiles).
    public static func exposedMode(of path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let mode = Int(info.st_mode & 0o777)
        return mode & 0o077 != 0 ? mode : nil
    }

    /// True when `path` itself (a link is not followed) belongs to this user and nobody else may
    /// read or change it: what a file or folder of the user's own state must be.
    public static func isTheUsersAlone(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_uid == getuid() && info.st_mode & 0o077 == 0
    }
}
