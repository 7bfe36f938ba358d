import FakeNFTModels
import Foundation
import NIOCore
import Testing

@testable import FakeNFTServer

/// What a `NOTIFY fakenft_changes` payload says, read as hostile text.
struct NotifiedChangeTests {
    /// Anna's rows (her account's row in `/users` moved), as a read model shows them.
    static func changedRows(name: String = "Anna", website: String = "") throws -> ChangedRows {
        let profile = ProfileRecord(
            Profile(id: "u-1", name: name, avatar: "", description: "", website: website, nfts: ["1"], likes: ["2"]))
        let user = UserRecord(
            seq: 7, User(id: "u-1", name: name, avatar: "", description: nil, website: "", nfts: ["1"], rating: "2"))
        let order = OrderRecord(Order(id: "u-1", nfts: ["3"]))
        return try ChangedRows(
            OwnerRows(profile: profile, order: order, account: nil, user: user), userMoved: true, sessionsMoved: false)
    }

    @Test func aPayloadCarriesTheGenerationTheWriterAndTheRows() throws {
        let rows = try Self.changedRows()
        let payload = try #require(NotifiedChange.payload(rows))
        let change = NotifiedChange("12 writer-a " + payload)
        #expect(change.generation == 12 && change.writer == "writer-a")
        #expect(change.rowsText.flatMap(NotifiedChange.rows) == rows)
        #expect(NotifiedChange("12 writer-a") == NotifiedChange(generation: 12, writer: "writer-a", rowsText: nil))
        #expect(NotifiedChange("12") == NotifiedChange(generation: 12, writer: nil, rowsText: nil))
        #expect(rows.owner == "u-1")
        let served = String(buffer: try #require(change.rowsText.flatMap(NotifiedChange.rows)).profile.json)
        #expect(served.contains(#""id":"1""#) && served.contains(#""likes":["2"]"#), "served as /profile/1: \(served)")
        var shared = rows
        shared.user = nil
        let sharedPayload = try #require(NotifiedChange.payload(shared))
        #expect(NotifiedChange.rows(Substring(sharedPayload)) == shared, "no row in /users")
        var signedIn = rows
        signedIn.sessions = [
            SessionRecord(tokenHash: "a1", userID: "u-1", createdAt: "2026-12-01T00:00:00Z"),
            SessionRecord(
                tokenHash: "b2", userID: "u-1", createdAt: "2026-12-01T00:00:00Z", lastUsedAt: "2026-12-02T00:00:00Z"),
        ]
        let signInsPayload = try #require(NotifiedChange.payload(signedIn))
        #expect(NotifiedChange.rows(Substring(signInsPayload)) == signedIn, "the sign-ins with the rows")
        signedIn.sessions = []
        #expect(
            NotifiedChange.rows(Substring(try #require(NotifiedChange.payload(signedIn)))) == signedIn,
            "every sign-in ended")
    }

    /// Payloads that do not read whole, and the generation each one says.
    static let unreadable: [(String, Int)] = [
        ("12 w {\"profile\":", 12), ("12 w \u{1B}[2J", 12), ("12 w " + String(repeating: "[", count: 10_000), 12),
        ("", Int.max), ("x w {}", Int.max), ("-3 w", Int.max), ("99999999999999999999 w", Int.max), (" 12 w", Int.max),
        // rows whose lengths or JSON do not read
        ("12 w u-1 1 1 99 2 0 {}{}", 12), ("12 w u-1 1 1 -2 2 0 {}{}", 12),
        ("12 w u-1 1 1 2 99999999999999999999 0 {}{}", 12), ("12 w u-1 1 1 2 2 9 {}{}{}", 12),
        ("12 w u-1 1 x 2 2 0 {}{}", 12), ("12 w u-1 1 1 2 2 7 {}{}{\"seq\":", 12), ("12 w u-1 1 1 2 2 0 {}[]", 12),
        ("12 w u-1 1 1 5 2 0 {\"\u{1B}\"}{}", 12), ("12 w u-1 1 1 3 2 0 {,}{}", 12),
        ("12 w u-1 1 1 \(deep.utf8.count) 2 0 \(deep){}", 12), ("12 w u-1 1 1 2 2 {}{}", 12),
        // sign-ins that do not read
        ("12 w u-1 1 1 2 2 0 {}{}[{\"tokenHash\":1}]", 12), ("12 w u-1 1 1 2 2 0 {}{}{}", 12),
        ("12 w u-1 1 1 2 2 0 {}{}[", 12),
    ]

    /// A profile nested past ``JSONSyntax/deepest``: objects 10,000 deep.
    static let deep = String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)

    /// What does not read is left out: rows that do not decode are a gap (read back from the
    /// database), a payload without a generation means "read everything".
    @Test(arguments: unreadable)
    func whatDoesNotReadIsLeftOut(payload: String, generation: Int) {
        let change = NotifiedChange(payload)
        #expect(change.generation == generation && change.rowsText.flatMap(NotifiedChange.rows) == nil)
    }

    /// PostgreSQL refuses a payload of 8,000 bytes: rows too large for one are not sent.
    @Test func rowsTooLargeForANotificationAreNotSent() throws {
        let rows = try Self.changedRows()
        let large = try Self.changedRows(website: String(repeating: "é", count: NotifiedChange.largestRows / 2))
        #expect(NotifiedChange.payload(large) == nil)
        var spaced = rows
        spaced.owner = "u 1"
        #expect(NotifiedChange.payload(spaced) == nil, "an owner that would not read back")
        let payload = try #require(NotifiedChange.payload(rows))
        #expect(payload.utf8.count <= NotifiedChange.largestRows)
    }

    /// Texts, and whether each one is a JSON object.
    static let objects: [(String, Bool)] = [
        (#"{}"#, true), (#" {"a": [1, -2.5e+3, true, false, null, "\u00e9\n"], "b": {"c": {}}} "#, true),
        (#"{"a":"\u001b[2J"}"#, true), ("{\"a\":\"\u{1B}[2J\"}", false), (#"[]"#, false), (#"{"a":01}"#, false),
        (#"{"a":1,}"#, false), (#"{"a" 1}"#, false), (#"{"a":"\x"}"#, false), (#"{"a":tru}"#, false),
        (#"{} {}"#, false),
        (#"{"a":"b"#, false), (#"{"a":.5}"#, false), (#"{"a":1.}"#, false), ("", false),
        (String(repeating: #"{"a":"#, count: 100) + "1" + String(repeating: "}", count: 100), false),
        (String(repeating: #"{"a":"#, count: 60) + "1" + String(repeating: "}", count: 60), true),
    ]

    /// JSON served as another server sent it is checked to be a JSON object first.
    @Test(arguments: objects)
    func servedJSONIsAnObject(text: String, valid: Bool) {
        #expect(JSONSyntax.isObject(text.utf8) == valid)
    }
}
