import FakeNFTModels
import FakeNFTTesting
import Foundation
import Testing
@testable import FakeNFTServer

/// `POST /api/v1/usage`: the apps' usage events counted into `/metrics` and, by day, into the
/// database, where every server's counts add up; hostile batches refused, counted, never stored.
@Suite struct UsageTests {
    static func body(_ events: [UsageEvent]) -> String {
        String(decoding: try! JSONEncoder().encode(UsageBatch(events: events)), as: UTF8.self)
    }

    static func post(_ server: TestServer, _ body: String) async throws -> (
        status: Int, body: Data, headers: [String: String]
    ) {
        try await server.exchange("POST", "/api/v1/usage", body: body, contentType: "application/json")
    }

    /// A metric's value in `/metrics`, 0 when absent.
    static func metric(_ server: TestServer, _ line: String) async throws -> Int {
        let text = String(decoding: try await server.request("GET", "/metrics").body, as: UTF8.self)
        return text.split(separator: "\n").first { $0.hasPrefix(line + " ") }.flatMap {
            Int($0.split(separator: " ").last!)
        }
            ?? 0
    }

    @Test func aJourneysEventsAreCountedAndAddUpAcrossServers() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("usage-\(UUID())")
        let nfts = try await TestServer.with(dataDirectory: directory) { server async throws in
            let nfts = try await server.get("/api/v1/nft", as: [NFT].self)
            let (first, second) = (nfts[0].id, nfts[1].id)
            let journey: [UsageEvent] = [
                .init(.open, .catalog), .init(.open, .collection, item: "no-such-collection"),
                .init(.open, .nft, item: first), .init(.click, .nft, action: .like, item: first),
                .init(.click, .nft, action: .cartAdd, item: first), .init(.close, .nft, item: first),
                .init(.open, .nft, item: second), .init(.open, .nft, item: first), .init(.open, .success),
                .init(.click, .cart, action: .sort), .init(.rate, .rating, stars: 5),
                .init(.click, .rating, action: .notNow),
            ]
            #expect(try await Self.post(server, Self.body(journey)).status == 204)
            #expect(try await Self.metric(server, #"fakenft_app_events_total{event="open",screen="nft"}"#) == 3)
            #expect(try await Self.metric(server, #"fakenft_app_events_total{event="click",screen="nft"}"#) == 2)
            #expect(try await Self.metric(server, #"fakenft_app_ratings_total{stars="5"}"#) == 1)
            return (first, second, nfts[0].name, nfts[1].name)
        }
        // a second server on the same database adds its own
        try await TestServer.with(dataDirectory: directory) { server async throws in
            #expect(
                try await Self.post(
                    server,
                    Self.body([
                        .init(.open, .nft, item: nfts.1), .init(.open, .nft, item: nfts.1),
                        .init(.open, .nft, item: nfts.1),
                    ])
                ).status == 204)
        }
        let configuration = ServerConfiguration(
            port: 0, dataDirectory: directory,
            postgresURL: TestStore.isPostgres ? try TestStore.database(for: directory) : nil)
        let today = UsageTally.day(of: Date())
        let summary = try await FakeNFTServer.usageSummary(configuration, day: today)
        let lines = summary.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(lines.contains("catalog 1") && lines.contains("nft 6") && lines.contains("collection 1"), "\(summary)")
        #expect(lines.contains("Funnel: catalog 1 → NFT 6 → cart 1 → paid 1"), "\(summary)")
        #expect(lines.contains("like 1") && lines.contains("cart-add 1") && lines.contains("sort 1"), "\(summary)")
        let opened = lines.split(separator: "Most opened NFTs:").last?.prefix(2) ?? []
        #expect(Array(opened) == ["\(nfts.3) (\(nfts.1)) 4", "\(nfts.2) (\(nfts.0)) 2"], "\(summary)")
        #expect(
            lines.contains("5 ★ 1") && lines.contains("not now 1") && lines.contains("average 5.0 ★ of 1"), "\(summary)"
        )
        #expect(
            try await FakeNFTServer.usageSummary(configuration, day: "2001-01-01")
                == "Usage on 2001-01-01 (UTC): no events.")
    }

    @Test func hostileBatchesAreRefusedCountedAndNeverStored() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("usage-\(UUID())")
        try await TestServer.with(dataDirectory: directory) { server async throws in
            let open = #"{"event":"open","screen":"catalog"}"#
            let invalid = [
                "", "null", "[]", #"{"events":[]}"#, #"{"events":{}}"#,
                #"{"events":[{"event":"open","screen":"nowhere"}]}"#,
                #"{"events":[{"event":"launch","screen":"catalog"}]}"#,
                #"{"events":[{"event":"click","screen":"nft"}]}"#,
                #"{"events":[{"event":"open","screen":"nft","action":"like"}]}"#,
                #"{"events":[{"event":"click","screen":"nft","action":"steal"}]}"#,
                #"{"events":[{"event":"rate","screen":"rating","stars":6}]}"#,
                #"{"events":[{"event":"rate","screen":"rating","stars":1e400}]}"#,
                #"{"events":[{"event":"rate","screen":"catalog","stars":3}]}"#,
                #"{"events":[{"event":"open","screen":"nft","item":"\u001b]52;c;aGk=\u0007"}]}"#,
                #"{"events":[{"event":"open","screen":"nft","item":"Аpril"}]}"#,
                #"{"events":[{"event":"open","screen":"nft","item":"\#(String(repeating: "a", count: 65))"}]}"#,
                #"{"events":["#
                    + Array(repeating: open, count: UsageBatch.maxEvents + 1).joined(separator: ",") + "]}",
            ]
            for body in invalid {
                let answer = try await Self.post(server, body)
                #expect(answer.status == 400, "\(body.prefix(80))")
                #expect(TestServer.errorMessage(answer.body)?.hasPrefix("not a usage batch") == true)
            }
            let huge = #"{"events":["# + String(repeating: " ", count: UsageRoutes.maxBodySize) + open + "]}"
            #expect(try await Self.post(server, huge).status == 413)
            #expect(
                try await Self.metric(server, #"fakenft_app_events_refused_total{reason="invalid"}"#) == invalid.count)
            #expect(try await Self.metric(server, #"fakenft_app_events_refused_total{reason="too-large"}"#) == 1)
            #expect(try await Self.metric(server, #"fakenft_app_events_total{event="open",screen="catalog"}"#) == 0)
            // a flood from one network: refused once its minute's share is used, and told when to come back
            var statuses: [Int] = []
            for _ in 0..<(UsageRoutes.batchesPerMinute - invalid.count - 1) {
                statuses.append(try await Self.post(server, #"{"events":[\#(open)]}"#).status)
            }
            #expect(statuses.allSatisfy { $0 == 204 }, "\(statuses)")
            let flooded = try await Self.post(server, #"{"events":[\#(open)]}"#)
            #expect(flooded.status == 429 && Int(flooded.headers["retry-after"] ?? "") ?? 0 > 0)
            #expect(try await Self.metric(server, #"fakenft_app_events_refused_total{reason="too-many"}"#) == 1)
        }
        let configuration = ServerConfiguration(
            port: 0, dataDirectory: directory,
            postgresURL: TestStore.isPostgres ? try TestStore.database(for: directory) : nil)
        let summary = try await FakeNFTServer.usageSummary(configuration, day: UsageTally.day(of: Date()))
        let accepted = UsageRoutes.batchesPerMinute - 17 - 1  // the invalid bodies and the huge one count too
        #expect(summary.contains("Funnel: catalog \(accepted) →"), "only the accepted batches: \(summary)")
    }

    @Test func theSummaryNamesNFTsWithoutEscapes() {
        let day = "2026-12-03"
        let summary = UsageSummary(
            day: day,
            counts: [UsageKey(day: day, event: "open", screen: "nft", item: "7"): 2]
        ) { _ in "Evil\u{1B}]0;owned\u{07}\u{202E}Name" }.text
        #expect(summary.contains("  Evil]0;ownedName (7)  2"), "\(summary)")
        #expect(!summary.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
    }

    @Test func daysAreReadStrictly() {
        let now = Date(timeIntervalSince1970: 1_796_342_400)  // 2026-12-04 00:00 UTC
        #expect(FakeNFTServer.usageDay("today", now: now) == "2026-12-04")
        #expect(FakeNFTServer.usageDay("yesterday", now: now) == "2026-12-03")
        #expect(FakeNFTServer.usageDay("2026-02-28") == "2026-02-28")
        for bad in ["", "2026-2-28", "2026-13-01", "2026-12-32", "'; DROP TABLE x; --", "2026-12-03 ", "１２３４-12-03"] {
            #expect(FakeNFTServer.usageDay(bad) == nil, "\(bad)")
        }
    }
}
