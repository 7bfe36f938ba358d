import FakeNFTCore
import Foundation
import Testing

/// The saved sign-in: its file's permissions, one server's token never offered to another, and
/// a file others could read not trusted.
@Suite struct AccountStoreTests {
    static func store() -> AccountStore {
        AccountStore(
            fileURL: FileManager.default.temporaryDirectory.appendingPathComponent(
                "state-\(UUID().uuidString)/fakenft/account.json"))
    }

    static let anna = Account(token: "fnft_secret", userId: "u-1", name: "Anna", email: "anna@example.com")

    @Test func theTokenFileIsTheOwnersOnly() throws {
        let store = Self.store()
        try store.save(SavedSignIn(server: "http://a.example", account: Self.anna))
        let attributes = try FileManager.default.attributesOfItem(atPath: store.fileURL.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: store.fileURL.deletingLastPathComponent().path)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
        #expect(store.load(server: "http://a.example")?.account == Self.anna)
        // Saving again replaces the file whole and keeps its mode.
        try store.save(SavedSignIn(server: "http://a.example", account: nil))
        #expect(store.load(server: "http://a.example") == SavedSignIn(server: "http://a.example", account: nil))
        #expect(
            (try FileManager.default.attributesOfItem(atPath: store.fileURL.path)[.posixPermissions] as? Int) == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: store.fileURL.deletingLastPathComponent().path)
        #expect(leftovers == ["account.json"], "no temporary file is left")
    }

    @Test func aTokenIsNeverOfferedToAnotherServer() throws {
        let store = Self.store()
        try store.save(SavedSignIn(server: "http://a.example", account: Self.anna))
        #expect(store.load(server: "http://b.example") == nil)
        store.delete()
        #expect(store.load(server: "http://a.example") == nil)
    }

    @Test func aFileOthersCanReadIsNotTrusted() throws {
        let store = Self.store()
        try store.save(SavedSignIn(server: "http://a.example", account: Self.anna))
        chmod(store.fileURL.path, 0o644)
        #expect(store.load(server: "http://a.example") == nil)
        #expect(!FileManager.default.fileExists(atPath: store.fileURL.path), "deleted: its token may have been read")
        try FileManager.default.createDirectory(
            at: store.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: store.fileURL)
        chmod(store.fileURL.path, 0o600)
        #expect(store.load(server: "http://a.example") == nil)
    }

    @Test func onboardingIsRememberedOnceShown() {
        let record = OnboardingRecord(
            fileURL: FileManager.default.temporaryDirectory.appendingPathComponent(
                "state-\(UUID().uuidString)/fakenft/onboarding-done"))
        #expect(!record.isDone)
        record.markDone()
        #expect(record.isDone)
        #expect(OnboardingRecord(fileURL: record.fileURL).isDone, "a later start sees it")
    }
}
