import Foundation
import Glibc

/// What the SSH front holds, written in its data folder so that it outlives the process: each
/// running session's sign-in and guest folder. What a server killed without a word (SIGKILL, a
/// power cut) left is ended by the next one to start on the folder (``recover(ending:)``): its
/// sessions' tokens (and so the guest accounts they held), its guests' folders. A file names the
/// process that wrote it; one whose process is gone is left over.
struct SSHSessionLedger: Sendable {
    let folder: URL
    private var sessions: URL { folder.appendingPathComponent("sessions") }
    private let pid = getpid()

    init(folder: URL) {
        self.folder = folder
        try? FileManager.default.createDirectory(
            at: sessions, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// A running session: its sign-in's token hash and, for a guest, the folder to remove.
    struct Entry: Codable, Equatable {
        var pid: Int32
        var tokenHash: String
        var guestFolder: String?
    }

    /// Notes a session that started; ``forget(tokenHash:)`` when it ends.
    func record(tokenHash: String, guestFolder: String?) {
        let entry = Entry(pid: pid, tokenHash: tokenHash, guestFolder: guestFolder)
        guard let data = try? JSONEncoder().encode(entry) else { return }
        try? data.write(to: sessionFile(tokenHash), options: .atomic)
    }

    func forget(tokenHash: String) { try? FileManager.default.removeItem(at: sessionFile(tokenHash)) }

    private func sessionFile(_ tokenHash: String) -> URL {
        sessions.appendingPathComponent("\(pid)-\(tokenHash.prefix(32))")
    }

    /// Ends what processes that are gone left: `end` each of their sessions' sign-ins, their
    /// guests' folders removed (a guest account is free again once its sign-in has ended). How
    /// many sessions were ended.
    func recover(ending end: (String) async throws -> Void) async -> Int {
        var ended = 0
        let files = (try? FileManager.default.contentsOfDirectory(at: sessions, includingPropertiesForKeys: nil)) ?? []
        for file in files {
            guard let data = try? Data(contentsOf: file), let entry = try? JSONDecoder().decode(Entry.self, from: data),
                !Self.isRunning(entry.pid)
            else { continue }
            do { try await end(entry.tokenHash) } catch { continue }  // kept for the next start to try again
            if let guestFolder = entry.guestFolder, guestFolder.hasPrefix(folder.path + "/") {
                try? FileManager.default.removeItem(atPath: guestFolder)
            }
            try? FileManager.default.removeItem(at: file)
            ended += 1
        }
        return ended
    }

    /// Whether process `pid` runs (a zombie or another user's process counts as running).
    static func isRunning(_ pid: Int32) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }
}
