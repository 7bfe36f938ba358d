import FakeNFTModels
import Foundation
import Testing

@testable import FakeNFTServer

/// What a `NOTIFY fakenft_changes` payload says, read as hostile text, and the changes kept
/// until the read model takes them.
struct NotifiedChangeTests {
    static let rows = ChangedRows(
        profile: ProfileRecord(
            Profile(id: "u-1", name: "Anna", avatar: "", description: "", website: "", nfts: ["1"], likes: ["2"])),
        order: OrderRecord(Order(id: "u-1", nfts: ["3"])),
        user: UserRecord(
            seq: 7, User(id: "u-1", name: "Anna", avatar: "", description: nil, website: "", nfts: ["1"], rating: "2")))

    @Test func aPayloadCarriesTheGenerationTheWriterAndTheRows() throws {
        let payload = try #require(NotifiedChange.payload(Self.rows))
        let change = NotifiedChange("12 writer-a " + payload)
        #expect(change.generation == 12 && change.writer == "writer-a")
        #expect(change.rowsJSON.flatMap(NotifiedChange.rows) == Self.rows)
        #expect(NotifiedChange("12 writer-a") == NotifiedChange(generation: 12, writer: "writer-a", rowsJSON: nil))
        #expect(NotifiedChange("12") == NotifiedChange(generation: 12, writer: nil, rowsJSON: nil))
        #expect(Self.rows.owner == "u-1")
    }

    /// What does not read is left out: rows that do not decode are a gap (read back from the
    /// database), a payload without a generation means "read everything".
    @Test(arguments: [
        ("12 w {\"profile\":", 12), ("12 w \u{1B}[2J", 12), ("12 w " + String(repeating: "[", count: 10_000), 12),
        ("", Int.max), ("x w {}", Int.max), ("-3 w", Int.max), ("99999999999999999999 w", Int.max), (" 12 w", Int.max),
    ])
    func whatDoesNotReadIsLeftOut(payload: String, generation: Int) {
        let change = NotifiedChange(payload)
        #expect(change.generation == generation && change.rowsJSON.flatMap(NotifiedChange.rows) == nil)
        var arrived = ArrivedChanges()
        arrived.keep(change, byOtherServer: true)
        #expect(arrived.run(after: 11).isEmpty)
    }

    /// PostgreSQL refuses a payload of 8,000 bytes: rows too large for one are not sent.
    @Test func rowsTooLargeForANotificationAreNotSent() throws {
        var large = Self.rows
        large.profile.website = String(repeating: "é", count: NotifiedChange.largestRows / 2)
        #expect(NotifiedChange.payload(large) == nil)
        let payload = try #require(NotifiedChange.payload(Self.rows))
        #expect(payload.utf8.count <= NotifiedChange.largestRows)
    }

    @Test func changesAreTakenInOrderUpToTheFirstGap() throws {
        var arrived = ArrivedChanges()
        let payload = try #require(NotifiedChange.payload(Self.rows))
        for generation in [5, 7, 9] {
            arrived.keep(NotifiedChange("\(generation) other " + payload), byOtherServer: true)
        }
        arrived.keep(Self.rows, as: 6)
        #expect(arrived.run(after: 4).map(\.generation) == [5, 6, 7])
        #expect(arrived.run(after: 4).map(\.byOtherServer) == [true, false, true])
        #expect(arrived.run(after: 6).map(\.generation) == [7])
        #expect(arrived.run(after: 7).isEmpty, "8 never came: read back from the database")
        #expect(arrived.run(after: 8).map(\.rows) == [Self.rows])
        #expect(arrived.run(after: 3).isEmpty, "4 never came")
    }

    /// A server's own change arrives twice: kept as committed, and through its notification;
    /// whichever comes first is taken in, and the notification never replaces the committed rows.
    @Test func aServersOwnChangeIsKeptOnce() throws {
        var committed = Self.rows
        committed.profile.name = "As committed"
        let payload = try #require(NotifiedChange.payload(Self.rows))
        var arrived = ArrivedChanges()
        arrived.keep(committed, as: 3)
        arrived.keep(NotifiedChange("3 me " + payload), byOtherServer: false)
        #expect(arrived.run(after: 2).map(\.rows) == [committed])
        arrived.keep(NotifiedChange("4 me " + payload), byOtherServer: false)
        #expect(arrived.run(after: 3).map(\.rows) == [Self.rows], "the notification came before the commit's return")
    }

    /// The last ``ArrivedChanges/capacity`` are kept; an older one is gone, not mistaken for a
    /// newer one in its place.
    @Test func onlyTheLastChangesAreKept() {
        var arrived = ArrivedChanges()
        let capacity = ArrivedChanges.capacity
        for generation in 1...(capacity + 10) { arrived.keep(Self.rows, as: generation) }
        #expect(arrived.run(after: 0).isEmpty, "1 was overwritten by \(capacity + 1)")
        #expect(arrived.run(after: 10).count == capacity)
        #expect(arrived.run(after: capacity + 9).map(\.generation) == [capacity + 10])
    }
}
