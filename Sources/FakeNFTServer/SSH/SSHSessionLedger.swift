import Foundation
import Glibc

/// What the SSH front holds, written in its data folder so that it outlives the process: each
/// running session's sign-in and guest folder, and each guest account slot taken. Every server
/// that shares the folder (an overlapping restart, a container started twice on one volume) sees
/// the others': a guest slot is taken by creating its file exclusively, so two servers never lend
/// one guest account to two guests; and what a server killed without a word (SIGKILL, a power
/// cut) left is ended by the next one to start (``recover(ending:)``): its sessions' tokens, its
/// guests' folders, its slots. A file names the process that wrote it; one whose process is gone is left over.
struct SSHSessionLedger: Sendable {
    let folder: URL
    private var sessions: URL { folder.appendingPathComponent("sessions") }
    private var slots: URL { folder.appendingPathComponent("guest-slots") }
    private let pid = getpid()

    init(folder: URL) {
        self.folder = folder
        for made in [sessions, slots] {
            try? FileManager.default.createDirectory(
                at: made, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
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

    /// The first guest slot no live process holds and `passedOver` does not name, now this
    /// process's (a file created exclusively: one winner whoever else tries at the same moment).
    func claimSlot(passingOver passedOver: Set<Int>) -> Int {
        var slot = 0
        while true {
            if !passedOver.contains(slot) {
                let path = slots.appendingPathComponent(String(slot)).path
                if claim(path) { return slot }
                if let holder = Self.holder(of: path), !Self.isRunning(holder) {
                    unlink(path)  // a process that is gone held it: taken again at once
                    continue
                }
            }
            slot += 1
        }
    }

    /// Creates the file at `path` naming this process, whole or not at all (written aside, then
    /// linked, which fails when the file exists): false when another holds it.
    private func claim(_ path: String) -> Bool {
        let aside = slots.appendingPathComponent(".\(pid)-\(UUID().uuidString)")
        guard (try? String(pid).write(to: aside, atomically: false, encoding: .utf8)) != nil else { return false }
        defer { unlink(aside.path) }
        return link(aside.path, path) == 0
    }

    func releaseSlot(_ slot: Int) { unlink(slots.appendingPathComponent(String(slot)).path) }

    /// Ends what processes that are gone left: `end` each of their sessions' sign-ins, their
    /// guests' folders removed, their slots freed. How many sessions were ended.
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
        let slotFiles = (try? FileManager.default.contentsOfDirectory(atPath: slots.path)) ?? []
        for name in slotFiles {
            let path = slots.appendingPathComponent(name).path
            if let holder = Self.holder(of: path), !Self.isRunning(holder) { unlink(path) }
        }
        return ended
    }

    /// The process a slot file names.
    private static func holder(of path: String) -> Int32? {
        (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { Int32($0) }
    }

    /// Whether process `pid` runs (a zombie or another user's process counts as running).
    static func isRunning(_ pid: Int32) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }
}
