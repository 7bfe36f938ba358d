import Foundation
import Testing
@testable import FakeNFTCore

/// The outbox's actions kept while the server cannot be reached, written down per window: a quit
/// or a crash loses none, and a later window takes over those of windows that ended. (How they
/// are shown and sent: the app's `OutboxTests`.)
@Suite struct KeptChangesTests {
    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("kept-\(UUID().uuidString)")
    }

    static func adding(_ ids: String..., list: OutboxAction.List = .likes) -> OutboxAction {
        OutboxAction(list: list, changes: ids.map { OutboxAction.Change(id: $0, name: "N\($0)", adding: true) })
    }

    @Test func actionsAreAppliedInTurn() {
        let remove = OutboxAction(list: .cart, changes: [OutboxAction.Change(id: "a", name: "Na", adding: false)])
        #expect(OutboxAction.applying([Self.adding("d"), remove], to: ["a", "b", "c"]) == ["b", "c", "d"])
        #expect(
            OutboxAction.applying([Self.adding("b")], to: ["b", "d"]) == ["b", "d"], "an id there is not added twice")
        #expect(
            OutboxAction.applying([remove, Self.adding("a")], to: ["a", "b"]) == ["a", "b"], "the last change wins")
        #expect(OutboxAction.applying([Self.adding("a"), remove], to: ["b"]) == ["b"])
        #expect(OutboxAction.applying([OutboxAction](), to: ["x"]) == ["x"])
        #expect(Self.adding("a").changes.map(\.reversed) == remove.changes)
    }

    @Test func theFileKeepsActionsAndForgetsNoneOrDamagedOnes() throws {
        let kept = KeptChanges(directory: Self.folder(), server: "http://s", account: "7")
        #expect(kept.load().isEmpty)
        var sending = Self.adding("1", "2")
        sending.state = .sending
        try kept.save([sending, Self.adding("3", list: .cart)])
        sending.state = .kept
        #expect(kept.load() == [sending, Self.adding("3", list: .cart).kept], "read back as kept")
        #expect(
            KeptChanges(directory: kept.file.deletingLastPathComponent(), server: "http://s", account: nil).load()
                .isEmpty, "another account's file is another file")
        try kept.save([])
        #expect(!FileManager.default.fileExists(atPath: kept.file.path))
        try kept.save([sending])
        try Data("[{\"list\": 1,".utf8).write(to: kept.file)
        #expect(kept.load().isEmpty && !FileManager.default.fileExists(atPath: kept.file.path))
        try Data(count: KeptChanges.maxBytes + 1).write(to: kept.file)
        #expect(kept.load().isEmpty)
    }

    /// Two windows keep their own files; a window takes over those of windows that ended
    /// (their process is gone), never those of one still running.
    @Test func aWindowTakesOverTheActionsOfWindowsThatEnded() throws {
        let folder = Self.folder()
        func kept(_ process: Int32 = getpid()) -> KeptChanges {
            KeptChanges(directory: folder, server: "s", account: "7", process: process)
        }
        let gone: Int32 = 2_000_000_000, running: Int32 = 1  // beyond pid_max; init
        try kept(gone).save([Self.adding("1")])
        try kept(running).save([Self.adding("2")])
        try kept().save([Self.adding("4")])
        let expected = [Self.adding("4").kept, Self.adding("1").kept]
        #expect(kept().load() == expected)
        #expect(!FileManager.default.fileExists(atPath: kept(gone).file.path), "taken over")
        #expect(kept(running).load() == [Self.adding("2").kept], "a running window keeps its own")
        #expect(kept().load() == expected, "written into this window's file")
    }

    /// Only the user's own private files of ended windows are taken over: a file others may read
    /// (planted, or another user's) stays where it is, unsent; in a folder others may write,
    /// nothing of another window's is taken; a window whose process id now belongs to a process
    /// started later has ended.
    @Test func onlyTheUsersOwnPrivateFilesOfEndedWindowsAreTakenOver() throws {
        let folder = Self.folder()
        func kept(_ process: Int32 = getpid()) -> KeptChanges {
            KeptChanges(directory: folder, server: "s", account: "7", process: process)
        }
        func plant(_ id: String, at file: URL, mode: mode_t) throws {
            try JSONEncoder().encode([Self.adding(id)]).write(to: file)
            #expect(chmod(file.path, mode) == 0)
        }
        try kept().save([Self.adding("4")])
        let started = try #require(KeptChanges.startTime(of: getpid()))
        let reused = folder.appendingPathComponent(
            kept().file.lastPathComponent.replacingOccurrences(of: "-\(started).json", with: "-1.json"))
        try plant("7", at: reused, mode: 0o600)
        let planted = kept(2_000_000_001).file
        try plant("666", at: planted, mode: 0o644)
        let expected = [Self.adding("4").kept, Self.adding("7").kept]
        #expect(kept().load() == expected, "the reused process id's taken over")
        #expect(FileManager.default.fileExists(atPath: planted.path), "a file others may read is not taken")
        #expect(chmod(folder.path, 0o777) == 0)
        try plant("8", at: kept(2_000_000_002).file, mode: 0o600)
        #expect(kept().load() == expected, "a folder others may write")
    }
}

extension OutboxAction {
    /// The same action, kept for the server.
    var kept: OutboxAction {
        var kept = self
        kept.state = .kept
        return kept
    }
}
