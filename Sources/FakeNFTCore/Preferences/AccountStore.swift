import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// What `account.json` keeps for a server: the account signed in on it, or that the user chose
/// to go on without one (asked again after "Sign in" in Profile).
public struct SavedSignIn: Codable, Sendable, Hashable {
    /// Which server it is for (a token is never sent to another one).
    public var server: String
    /// The account and its token; nil when the user goes on without an account.
    public var account: Account?

    public init(server: String, account: Account?) {
        self.server = server
        self.account = account
    }
}

/// The sign-in in `$XDG_STATE_HOME/fakenft/account.json`: readable by its owner only (0600),
/// written whole or not at all, deleted on sign-out.
public struct AccountStore: Sendable {
    public let fileURL: URL

    public init(fileURL: URL) { self.fileURL = fileURL }

    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        StateFolder.url(environment: environment).appendingPathComponent("account.json")
    }

    /// The sign-in saved for `server`; nil when there is none, it is for another server, the
    /// file is unreadable, or others may read it (then it is not trusted, and deleted).
    public func load(server: String) -> SavedSignIn? {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return nil }
        if PrivateFile.exposedMode(of: fileURL.path) != nil {
            delete()
            return nil
        }
        guard let data = RegularFile.read(fileURL, maxBytes: 64 * 1024),
            let saved = try? JSONDecoder().decode(SavedSignIn.self, from: data), saved.server == server
        else { return nil }
        return saved
    }

    /// Saves `saved` with mode 0600 (the file is made so before the token is written).
    public func save(_ saved: SavedSignIn) throws {
        let folder = fileURL.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = folder.appendingPathComponent(".account-\(UUID().uuidString).json")
        guard
            FileManager.default.createFile(
                atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600])
        else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: folder.path])
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            try handle.write(contentsOf: try JSONEncoder().encode(saved))
            try handle.close()
            guard rename(temporary.path, fileURL.path) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    public func delete() { try? FileManager.default.removeItem(at: fileURL) }
}

/// Whether onboarding was shown: a file in the state folder once it was.
public struct OnboardingRecord: Sendable {
    public let fileURL: URL

    public init(fileURL: URL) { self.fileURL = fileURL }

    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        StateFolder.url(environment: environment).appendingPathComponent("onboarding-done")
    }

    public var isDone: Bool { FileManager.default.fileExists(atPath: fileURL.path) }

    /// Remembers that onboarding was shown (a failure only means it shows again).
    public func markDone() {
        try? FileManager.default.createDirectory(
            at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: fileURL.path, contents: Data())
    }
}
