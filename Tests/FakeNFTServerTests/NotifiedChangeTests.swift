import FakeNFTModels
import Foundation
import NIOCore
import Testing

@testable import FakeNFTServer

/// What a `NOTIFY fakenft_changes` payload says, read as hostile text, and the changes kept
/// until the read model takes them.
struct NotifiedChangeTests {
    /// Anna's rows (her account's row in `/users` moved), as a read model shows them.
    static func changedRows(name: String = "Anna", website: String = "") throws -> ChangedRows {
        let profile = ProfileRecord(
            Profile(id: "u-1", name: name, avatar: "", description: "", website: website, nfts: ["1"], likes: ["2"]))
        let user = UserRecord(
            seq: 7, User(id: "u-1", name: name, avatar: "", description: nil, website: "", nfts: ["1"], rating: "2"))
        let order = OrderRecord(Order(id: "u-1", nfts: ["3"]))
        return try ChangedRows(OwnerRows(profile: profile, order: order, account: nil, user: user), userMoved: true)
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
    }

    /// Payloads that do not read whole, and the generation each one says.
    static let unreadable: [(String, Int)] = [
        ("12 w {\"profile\":", 12), ("12 w \u{1B}[2J", 12), ("12 w " + String(repeating: "[", count: 10_000), 12),
        ("", Int.max), ("x w {}", Int.max), ("-3 w", Int.max), ("99999999999999999999 w", Int.max), (" 12 w", Int.max),
        // rows whose lengths or JSON do not read
        ("12 w u-1 1 1 99 2 {}{}", 12), ("12 w u-1 1 1 -2 2 {}{}", 12),
        ("12 w u-1 1 1 2 99999999999999999999 {}{}", 12),
        ("12 w u-1 1 x 2 2 {}{}", 12), ("12 w u-1 1 1 2 2 {}{}{\"seq\":", 12), ("12 w u-1 1 1 2 2 {}[]", 12),
        ("12 w u-1 1 1 5 2 {\"\u{1B}\"}{}", 12), ("12 w u-1 1 1 3 2 {,}{}", 12),
        ("12 w u-1 1 1 \(deep.utf8.count) 2 \(deep){}", 12),
    ]

    /// A profile nested past ``JSONSyntax/deepest``: objects 10,000 deep.
    static let deep = String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)

    /// What does not read is left out: rows that do not decode are a gap (read back from the
    /// database), a payload without a generation means "read everything".
    @Test(arguments: unreadable)
    func whatDoesNotReadIsLeftOut(payload: String, generation: Int) {
        let change = NotifiedChange(payload)
        #expect(change.generation == generation && change.rowsText.flatMap(NotifiedChange.rows) == nil)
        var arrived = ChangesWithRows()
        arrived.add(change)
        #expect(arrived.run(after: 11).isEmpty)
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

    @Test func changesAreTakenInOrderUpToTheFirstGap() throws {
        let rows = try Self.changedRows()
        var arrived = ChangesWithRows()
        let payload = try #require(NotifiedChange.payload(rows))
        for generation in [5, 7, 9] {
            arrived.add(NotifiedChange("\(generation) other " + payload))
        }
        arrived.add(rows, as: 6)
        #expect(arrived.run(after: 4).map(\.generation) == [5, 6, 7])
        #expect(arrived.run(after: 4).map(\.byOtherServer) == [true, false, true])
        #expect(arrived.run(after: 6).map(\.generation) == [7])
        #expect(arrived.run(after: 7).isEmpty, "8 never came: read back from the database")
        #expect(arrived.run(after: 8).map(\.rows) == [rows])
        #expect(arrived.run(after: 3).isEmpty, "4 never came")
    }

    /// While this server's batch is written, another server's change notified is held at once
    /// and told after the batch's own are held: told before, the store would find a gap (the
    /// batch's own) and read back from the database what is on its way.
    @Test func aChangeNotifiedWhileABatchIsWrittenIsToldAfter() throws {
        let payload = try #require(NotifiedChange.payload(try Self.changedRows()))
        var held = ChangesWithRows()
        let toldAtOnce = held.add(NotifiedChange("5 other " + payload))
        held.writing = true
        let toldWhileWriting = [held.add(NotifiedChange("8 other " + payload)), held.add(NotifiedChange("7 other"))]
        #expect(toldAtOnce && toldWhileWriting == [false, false])
        #expect(held.untold == 8, "the newest, told once the batch is held")
        #expect(held.run(after: 7).map(\.generation) == [8], "its rows held already")
        held.writing = false
        held.untold = nil
        let toldAfter = held.add(NotifiedChange("9 other " + payload))
        #expect(toldAfter && held.untold == nil)
    }

    /// A change held again replaces the one in its place (a notification read again after the
    /// listener reconnected, a generation numbered again after a reseed).
    @Test func aChangeHeldAgainReplacesTheOneInItsPlace() throws {
        let rows = try Self.changedRows()
        let committed = try Self.changedRows(name: "As committed")
        let payload = try #require(NotifiedChange.payload(rows))
        var arrived = ChangesWithRows()
        arrived.add(NotifiedChange("3 other " + payload))
        #expect(arrived.run(after: 2).map(\.rows) == [rows])
        arrived.add(committed, as: 3)
        #expect(arrived.run(after: 2).map(\.rows) == [committed])
        #expect(arrived.run(after: 2).map(\.byOtherServer) == [false])
    }

    /// The last ``ChangesWithRows/capacity`` are kept; an older one is gone, not mistaken for a
    /// newer one in its place.
    @Test func onlyTheLastChangesAreKept() throws {
        let rows = try Self.changedRows()
        var arrived = ChangesWithRows()
        let capacity = ChangesWithRows.capacity
        for generation in 1...(capacity + 10) { arrived.add(rows, as: generation) }
        #expect(arrived.run(after: 0).isEmpty, "1 was overwritten by \(capacity + 1)")
        #expect(arrived.run(after: 10).count == capacity)
        #expect(arrived.run(after: capacity + 9).map(\.generation) == [capacity + 10])
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
