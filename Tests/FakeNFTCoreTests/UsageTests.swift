@testable import FakeNFTCore
import FakeNFTTesting
import Foundation
import Testing

/// The usage events' way to the server (``UsageReporter``) and the rating prompt's schedule.
@Suite struct UsageReporterTests {
    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("usage-\(UUID().uuidString)/usage")
    }

    /// A metric's value in the server's `/metrics`, 0 when absent.
    static func metric(_ server: TestServer, _ line: String) async throws -> Int {
        let text = String(decoding: try await server.request("GET", "/metrics").body, as: UTF8.self)
        return text.split(separator: "\n").first { $0.hasPrefix(line + " ") }.flatMap {
            Int($0.split(separator: " ").last!)
        } ?? 0
    }

    static let opened = #"fakenft_app_events_total{event="open",screen="catalog"}"#

    @Test func eventsReachTheServerInBatches() async throws {
        try await TestServer.with { server async throws in
            let reporter = UsageReporter(api: server.client(timeout: 10), server: "s", folder: Self.folder())
            await reporter.add(Array(repeating: UsageEvent(.open, .catalog), count: 250))
            await reporter.send()
            #expect(await reporter.held.isEmpty)
            #expect(try await Self.metric(server, Self.opened) == 250, "three batches of at most 100")
        }
    }

    /// Offline, events wait (within the bound, the oldest dropped); at the end they are kept in
    /// a file of the user's alone, and the next start on the same server takes and sends them once.
    @Test func offlineEventsAreKeptWithinTheBoundAndSentLater() async throws {
        let folder = Self.folder()
        let port = try freeLoopbackPort()
        let nowhere = APIClient(APIConfiguration(baseURL: URL(string: "http://127.0.0.1:\(port)")!, timeout: 2))
        let offline = UsageReporter(api: nowhere, server: "shop", folder: folder)
        await offline.add([UsageEvent(.open, .cart)])
        await offline.add(Array(repeating: UsageEvent(.open, .catalog), count: UsageReporter.maxPending))
        await offline.send()
        #expect(await offline.held.count == UsageReporter.maxPending, "the oldest dropped past the bound")
        #expect(await offline.held.first == UsageEvent(.open, .catalog))
        await offline.keep()
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.count == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(files[0]).path)
        #expect(mode[.posixPermissions] as? Int == 0o600)
        // a damaged file and one with events the app never sends beside it
        let prefix = String(files[0].prefix { $0 != "." })
        try Data("{not json".utf8).write(to: folder.appendingPathComponent(prefix + ".1-damaged.json"))
        try Data(
            #"{"events":[{"event":"open","screen":"nft","item":"\u001b[2J"},{"event":"open","screen":"cart"}]}"#.utf8
        )
        .write(to: folder.appendingPathComponent(prefix + ".z-odd.json"))
        for name in [prefix + ".1-damaged.json", prefix + ".z-odd.json"] {
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o600], ofItemAtPath: folder.appendingPathComponent(name).path)
        }
        let otherServer = UsageReporter(api: nowhere, server: "another shop", folder: folder)
        await otherServer.takeKept()
        #expect(await otherServer.held.isEmpty, "another server's events are not its")
        try await TestServer.with { server async throws in
            let online = UsageReporter(api: server.client(timeout: 10), server: "shop", folder: folder)
            await online.takeKept()
            #expect(await online.held.count == UsageReporter.maxPending, "the bound holds over files too")
            await online.send()
            let again = UsageReporter(api: server.client(timeout: 10), server: "shop", folder: folder)
            await again.takeKept()
            #expect(await again.held.isEmpty, "taken once")
            #expect(try await Self.metric(server, Self.opened) == UsageReporter.maxPending - 1)
            #expect(try await Self.metric(server, #"fakenft_app_events_total{event="open",screen="cart"}"#) == 1)
            #expect(try await Self.metric(server, #"fakenft_app_events_total{event="open",screen="nft"}"#) == 0)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func aBatchTheServerRefusesIsDroppedNotRetried() {
        #expect(!UsageReporter.isWorthAnotherTry(.server(status: 400, message: nil)))
        #expect(!UsageReporter.isWorthAnotherTry(.server(status: 413, message: nil)))
        #expect(!UsageReporter.isWorthAnotherTry(.notFound), "a server without the endpoint")
        #expect(UsageReporter.isWorthAnotherTry(.server(status: 429, message: nil)))
        #expect(UsageReporter.isWorthAnotherTry(.server(status: 503, message: nil)))
        #expect(UsageReporter.isWorthAnotherTry(.offline("x")) && UsageReporter.isWorthAnotherTry(.timeout))
    }
}

/// The rate-the-app prompt asks after the fifth start on which something was done, or right
/// after a first payment; "Not now" ten starts later, three times at most; an answer is final.
@Suite struct RatingScheduleTests {
    @Test func theSixthStartAfterFiveActiveOnesAsks() {
        var schedule = RatingSchedule()
        for _ in 0..<5 {
            let answer = schedule.started()
            #expect(!answer)
            schedule.acted()
        }
        let answer = schedule.started()
        #expect(answer, "after the fifth start on which something was done")
    }

    @Test func startsWithoutActionsDoNotCount() {
        var schedule = RatingSchedule()
        for _ in 0..<20 {
            let asks = schedule.started()
            #expect(!asks)
        }
        schedule.acted()
        let answer = schedule.started()
        #expect(!answer)
    }

    @Test func aFirstPaymentAsksOnce() {
        var schedule = RatingSchedule()
        _ = schedule.started()
        let first = schedule.paidOnce()
        #expect(first)
        schedule.answered(.notNow)
        let second = schedule.paidOnce()
        #expect(!second, "only the first payment")
    }

    @Test func notNowAsksTenStartsLaterThreeTimesAtMost() {
        var schedule = RatingSchedule()
        var asked: [Int] = []
        for start in 1...60 {
            if schedule.started() {
                asked.append(start)
                schedule.answered(.notNow)
            }
            schedule.acted()
        }
        #expect(asked == [6, 16, 26], "\(asked)")
        #expect(schedule.isFinal)
    }

    @Test(arguments: [RatingSchedule.Answer.stars(4), .never]) func anAnswerIsFinal(_ answer: RatingSchedule.Answer) {
        var schedule = RatingSchedule()
        _ = schedule.started()
        let asks = schedule.paidOnce()
        #expect(asks)
        schedule.answered(answer)
        for _ in 0..<50 {
            schedule.acted()
            let again = schedule.started()
            #expect(!again)
        }
    }

    /// Kept per server and account; a file with hostile figures never traps, a damaged one is none.
    @Test func keptPerAccountAndHostileFilesAreHarmless() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rating-\(UUID()).json")
        let anna = RatingRecord(fileURL: file, server: "s", account: "anna"),
            bob = RatingRecord(
                fileURL: file, server: "s", account: "bob")
        var schedule = anna.load()
        _ = schedule.started()
        schedule.answered(.never)
        anna.save(schedule)
        #expect(anna.load().isFinal && !bob.load().isFinal)
        #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int) == 0o600)
        let key = String(
            String(decoding: try Data(contentsOf: file), as: UTF8.self).split(separator: "\"")[1])
        let max = Int.max
        let figures =
            #"{"\#(key)":{"starts":\#(max),"activeStarts":\#(max),"asked":-5,"#
            + #""notBefore":\#(Int.min),"paid":false,"isFinal":false}}"#
        try Data(figures.utf8).write(to: file)
        var hostile = anna.load()
        _ = hostile.started()
        hostile.acted()
        hostile.answered(.notNow)
        try Data("{damaged".utf8).write(to: file)
        #expect(anna.load() == RatingSchedule())
    }
}
