import FakeNFTCore
import Foundation
import Glibc
import Testing

/// The app's own files are read so that nothing put in their place holds it up: a FIFO (which an
/// ordinary open waits on for a writer, forever) reads as nothing, at once; a link to a file reads
/// as the file.
@Suite struct RegularFileTests {
    func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("regular-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aFIFOADirectoryOrABigFileIsNotReadAndALinkIs() throws {
        let folder = try folder()
        let fifo = folder.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(RegularFile.read(fifo, maxBytes: 100) == nil)
        #expect(RegularFile.read(folder, maxBytes: 100) == nil)
        let file = folder.appendingPathComponent("file")
        try Data("twelve bytes".utf8).write(to: file)
        #expect(RegularFile.read(file, maxBytes: 12) == Data("twelve bytes".utf8))
        #expect(RegularFile.read(file, maxBytes: 11) == nil, "larger than asked for")
        let link = folder.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        #expect(RegularFile.read(link, maxBytes: 100) == Data("twelve bytes".utf8))
    }

    /// A FIFO in place of the last-seen file or an offline queue: the start reads nothing there and
    /// goes on (it once waited before the first screen, SIGTERM ignored).
    @Test func aFIFOInPlaceOfTheAppsFilesReadsAsNothing() throws {
        let folder = try folder()
        let lastSeen = LastSeenStore(directory: folder, server: "http://a.example", account: nil)
        #expect(mkfifo(lastSeen.file.path, 0o600) == 0)
        #expect(lastSeen.load() == nil)
        let accounts = AccountStore(fileURL: folder.appendingPathComponent("account.json"))
        #expect(mkfifo(accounts.fileURL.path, 0o600) == 0)
        #expect(accounts.load(server: "http://a.example") == nil)
    }

    /// A file holding a secret reached through a link (a Kubernetes secret, a stow-managed
    /// dotfile) is judged by the file's mode, not the link's 0777.
    @Test func aLinkToAPrivateFileIsPrivate() throws {
        let folder = try folder()
        let file = folder.appendingPathComponent("token")
        try Data("secret".utf8).write(to: file)
        #expect(chmod(file.path, 0o600) == 0)
        let link = folder.appendingPathComponent("token-link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        #expect(PrivateFile.exposedMode(of: link.path) == nil)
        #expect(chmod(file.path, 0o644) == 0)
        #expect(PrivateFile.exposedMode(of: link.path) == 0o644)
    }
}
