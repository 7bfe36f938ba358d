import Foundation

/// Files that hold a secret (a token): only their owner may read them.
public enum PrivateFile {
    /// The permission bits of `path` when its group or others may read or write it; nil when
    /// only its owner may (or it cannot be looked at).
    public static func exposedMode(of path: String) -> Int? {
        guard let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int,
            mode & 0o077 != 0
        else { return nil }
        return mode & 0o777
    }
}
