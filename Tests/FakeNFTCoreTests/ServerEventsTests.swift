import Foundation
import NIOCore
import Testing
@testable import FakeNFTCore

/// The events stream's parser against what a hostile server may send.
@Suite struct ServerEventsTests {
    func parse(_ text: String) throws -> [ServerEvents.Event] {
        var parser = ServerEvents.Parser()
        return try parser.feed(ByteBuffer(string: text))
    }

    @Test func eventsAreReadAndTheUnknownSkipped() throws {
        let events = try parse(
            """
            : a comment\r
            event: order\r
            data: {"version":3,"order":{"id":"1","nfts":["7"]}}\r
            \r
            event: nonsense
            data: {}

            event: user
            data: {"id":"u-1","nfts":2}

            event: profile
            data: not json

            event: resync
            data: {}


            """)
        #expect(events.count == 3)
        if case .order(let order) = events[0] {
            #expect(order.value.nfts == ["7"] && order.version == "\"3\"")
        } else {
            Issue.record("\(events)")
        }
        if case .user(let id, let nfts) = events[1] {
            #expect(id == "u-1" && nfts == 2)
        } else {
            Issue.record("\(events)")
        }
        if case .resync = events[2] {} else { Issue.record("\(events)") }
    }

    @Test func hugeDataIsCutNotATrap() throws {
        let line = String(repeating: "x", count: ServerEvents.maxLine - 10)
        let events = try parse("event: order\ndata: \(line)\ndata: \(line)\ndata: \(line)\n\n")
        #expect(events.isEmpty, "too much data: not an order, and no trap")
        #expect(throws: (any Error).self) { try parse(String(repeating: "y", count: ServerEvents.maxLine + 1)) }
    }
}
