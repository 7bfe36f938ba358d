import Crypto
import FakeNFTTesting
import Foundation
import NIOSSH
import Testing

@testable import FakeNFTServer

/// An account's ways in over HTTP (`/auth/tokens`, `/auth/keys`), on the store under test (SQLite,
/// or PostgreSQL in `make test`'s second pass): a named token opens the account as a sign-in's
/// does, is listed without itself and ends when revoked; keys are linked and unlinked, never a
/// key account's last.
@Suite struct AccessRoutesTests {
    private static let form = "application/x-www-form-urlencoded"

    private func json(_ data: Data) throws -> Any { try JSONSerialization.jsonObject(with: data) }

    @Test func aNamedTokenOpensTheAccountUntilRevoked() async throws {
        try await TestServer.with { server async throws in
            let signUp = try await server.answer(
                "POST", "/api/v1/auth/register", body: "name=Ada&email=ada@example.org&password=correct-horse-9",
                contentType: Self.form, headers: [:])
            let session = try #require((try json(signUp.body) as? [String: Any])?["token"] as? String)
            let signedIn = ["X-Practicum-Mobile-Token": session]
            let shared = try await server.answer(
                "POST", "/api/v1/auth/tokens", body: "", contentType: Self.form, headers: [:])
            #expect(shared.status == 401, "the shared profile makes no tokens")
            let bad = try await server.answer(
                "POST", "/api/v1/auth/tokens", body: "name=ci&expires=forever", contentType: Self.form,
                headers: signedIn)
            #expect(bad.status == 400)
            let made = try await server.answer(
                "POST", "/api/v1/auth/tokens", body: "name=ci&expires=30d", contentType: Self.form, headers: signedIn)
            #expect(made.status == 201)
            let created = try #require(try json(made.body) as? [String: Any])
            let token = try #require(created["token"] as? String), id = try #require(created["id"] as? String)
            #expect(created["name"] as? String == "ci" && created["expiresAt"] is String)

            let profile = try await server.answer(
                "GET", "/api/v1/profile/1", body: nil, contentType: nil,
                headers: ["X-Practicum-Mobile-Token": token])
            #expect((try json(profile.body) as? [String: Any])?["name"] as? String == "Ada")
            let listed = try await server.answer(
                "GET", "/api/v1/auth/tokens", body: nil, contentType: nil, headers: signedIn)
            let tokens = try #require(try json(listed.body) as? [[String: Any]])
            #expect(tokens.map { $0["id"] as? String } == [id] && tokens.allSatisfy { $0["token"] == nil })
            #expect(!String(decoding: listed.body, as: UTF8.self).contains(token), "the token is shown once")

            let revoked = try await server.answer(
                "DELETE", "/api/v1/auth/tokens/\(id)", body: nil, contentType: nil, headers: signedIn)
            #expect(revoked.status == 204)
            let after = try await server.answer(
                "GET", "/api/v1/profile/1", body: nil, contentType: nil,
                headers: ["X-Practicum-Mobile-Token": token])
            #expect(after.status == 401)
            let again = try await server.answer(
                "DELETE", "/api/v1/auth/tokens/\(id)", body: nil, contentType: nil, headers: signedIn)
            #expect(again.status == 404)
        }
    }

    @Test func keysAreLinkedAndUnlinkedButNeverTheLastOfAKeyAccount() async throws {
        try await TestServer.with { server async throws in
            let signUp = try await server.answer(
                "POST", "/api/v1/auth/register", body: "name=Bo&email=bo@example.org&password=correct-horse-9",
                contentType: Self.form, headers: [:])
            let token = try #require((try json(signUp.body) as? [String: Any])?["token"] as? String)
            let signedIn = ["X-Practicum-Mobile-Token": token]
            let (line, fingerprint) = TestSSHKey.make()
            let body = "key=" + FormEncodingForTests.escape(line)
            let added = try await server.answer(
                "POST", "/api/v1/auth/keys", body: body, contentType: Self.form, headers: signedIn)
            #expect(added.status == 201)
            #expect((try json(added.body) as? [String: Any])?["fingerprint"] as? String == fingerprint)
            let listed = try await server.answer(
                "GET", "/api/v1/auth/keys", body: nil, contentType: nil, headers: signedIn)
            #expect((try json(listed.body) as? [[String: Any]])?.map { $0["fingerprint"] as? String } == [fingerprint])
            let notAKey = try await server.answer(
                "POST", "/api/v1/auth/keys", body: "key=ssh-rsa%20AAAA", contentType: Self.form, headers: signedIn)
            #expect(notAKey.status == 400)
            let query = "fingerprint=" + FormEncodingForTests.escape(fingerprint)
            // a person's account has its password: its last key may go
            let removed = try await server.answer(
                "DELETE", "/api/v1/auth/keys?\(query)", body: nil, contentType: nil, headers: signedIn)
            #expect(removed.status == 204)
            let gone = try await server.answer(
                "DELETE", "/api/v1/auth/keys?\(query)", body: nil, contentType: nil, headers: signedIn)
            #expect(gone.status == 404)
        }
    }

    /// A key's account (no password): its last key stays; a key whose account did something is not
    /// moved to another; one that did nothing is.
    @Test func aKeyAccountKeepsItsLastKeyAndAUsedAccountItsKey() async throws {
        let store = try await Store.temporary()
        let (_, first) = TestSSHKey.make(), (_, second) = TestSSHKey.make(), (_, idle) = TestSSHKey.make()
        let owner = try await store.register(
            name: "k", email: "k@ssh.invalid", passwordHash: "!key-only", tokenHash: "h1", kind: .key, key: first,
            listed: false)
        await #expect(throws: Store.KeyRefused.self) { _ = try await store.removeKey(first, from: owner) }
        try await store.addKey(second, to: owner)
        #expect(try await store.keys(of: owner).map(\.fingerprint).sorted() == [first, second].sorted())
        #expect(try await store.removeKey(first, from: owner))
        #expect(try await store.keys(of: owner).map(\.fingerprint) == [second])

        let other = try await store.register(
            name: "p", email: "p@example.org", passwordHash: "x", tokenHash: "h2", kind: .person)
        await #expect(throws: Store.KeyRefused.self, "the key's account is used (listed)") {
            let used = try await store.register(
                name: "u", email: "u@ssh.invalid", passwordHash: "!key-only", tokenHash: "h3", kind: .key, key: idle,
                listed: true)
            _ = used
            try await store.addKey(idle, to: other)
        }
        try await store.addKey(second, to: other)  // `owner` did nothing: its key may move
        #expect(try await store.keys(of: other).map(\.fingerprint) == [second])
        _ = await store.close(within: .seconds(5))
    }

    /// A named token never idles out; it ends at its own time. A sign-in idles out.
    @Test func aNamedTokenEndsAtItsTimeNotWhenIdle() async throws {
        let store = try await Store.temporary(sessionIdleLimit: 3_600)
        let owner = try await store.register(name: "t", email: "t@example.org", passwordHash: "x", tokenHash: "plain")
        let (token, _) = try await store.createToken(
            userID: owner, name: "ci", expiresAt: Date().addingTimeInterval(86_400 * 2))
        let later = Date().addingTimeInterval(86_400)
        #expect(try await store.signedIn(tokenHash: "plain", now: later) == nil, "a sign-in idles out")
        #expect(try await store.signedIn(tokenHash: Tokens.hash(token), now: later) == owner)
        #expect(
            try await store.signedIn(tokenHash: Tokens.hash(token), now: later.addingTimeInterval(86_400 * 2)) == nil)
        #expect(try await store.tokens(of: owner, now: later.addingTimeInterval(86_400 * 2)).isEmpty)
        _ = await store.close(within: .seconds(5))
    }
}

/// Form values as a browser escapes them.
private enum FormEncodingForTests {
    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}
