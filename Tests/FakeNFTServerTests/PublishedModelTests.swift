import FakeNFTModels
import FakeNFTTesting
import Synchronization
import Testing
@testable import FakeNFTServer

/// The model readers see moves forward one step at a time, in arrival order; readers waiting
/// for a generation are woken by its publication, by their patience's end, or by their task's
/// cancellation, whichever comes first, and never left waiting. Patience runs on a test clock,
/// moved by the tests.
struct PublishedModelTests {
    let clock = TestClock()
    let deadlines: Deadlines
    let published: PublishedModel
    /// A model of the shared profile and order alone, at generation 0.
    let first: ReadModel

    init() async throws {
        deadlines = Deadlines(tick: .milliseconds(25), clock: clock, jobs: TestJobs.running)
        first = try await ReadModel(
            StoredData(
                nfts: [], collections: [], users: [], currencies: [],
                profiles: [
                    ProfileRecord(
                        Profile(
                            id: Owner.shared, name: "", avatar: "", description: "", website: "", nfts: [], likes: []))
                ],
                orders: [OrderRecord(Order(id: Owner.shared, nfts: []))], sessions: [], generation: 0))
        published = PublishedModel(first, deadlines: deadlines)
    }

    /// `first` as of `generation`.
    func model(_ generation: Int) -> ReadModel {
        var model = first
        model.generation = generation
        return model
    }

    /// Whether `count` readers come to wait with their patience watched.
    func waiting(_ count: Int) async -> Bool { await afterYielding { deadlines.watching == count } }

    @Test func aPublishedModelIsWhatReadersSee() {
        #expect(published.generation == 0 && published.publication == 0)
        published.publish(model(4))
        #expect(published.latest.generation == 4 && published.generation == 4)
        #expect(published.publication == 1, "one model published after the first")
        published.publish(model(1))
        #expect(published.generation == 1 && published.publication == 2, "a reseed numbers again; publications never")
    }

    @Test func aReachedGenerationAnswersAtOnce() async {
        published.publish(model(5))
        #expect(await published.wait(for: 5, within: .seconds(60)))
        #expect(await published.wait(for: 3, within: .seconds(60)))
        #expect(deadlines.watching == 0, "no patience watched for an answer at once")
    }

    @Test func aPublicationWakesThoseWaitingForItOrOlder() async throws {
        let early = Task { [published] in await published.wait(for: 2, within: .seconds(60)) }
        let late = Task { [published] in await published.wait(for: 9, within: .milliseconds(200)) }
        #expect(await waiting(2))
        published.publish(model(3))
        #expect(await early.value, "woken by generation 3, its patience untouched")
        #expect(await waiting(1), "its watch lifted; the later reader still waits")
        await clock.sleepers()
        clock.advance(by: .milliseconds(200))
        #expect(await late.value == false, "9 never came: its patience ended")
    }

    @Test func aCancelledReaderStopsWaiting() async throws {
        let reader = Task { [published] in await published.wait(for: 1, within: .seconds(60)) }
        #expect(await waiting(1))
        reader.cancel()
        #expect(await reader.value == false)
        #expect(await waiting(0), "its watch lifted")
    }

    final class Log: Sendable {
        let entries = Mutex<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    @Test func stepsRunOneAtATimeInArrivalOrder() async throws {
        let log = Log()
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        // The first step holds the turn until the gate opens.
        let first = Task { [published] in
            try await published.advance {
                log.add("1 start")
                for await _ in gate { break }
                log.add("1 end")
            }
        }
        #expect(await afterYielding { log.all == ["1 start"] })
        let second = Task { [published] in try await published.advance { log.add("2") } }
        for _ in 0..<100 { await Task.yield() }
        #expect(log.all == ["1 start"], "the second step waits for the first")
        open.yield()
        try await first.value
        try await second.value
        #expect(log.all == ["1 start", "1 end", "2"])
        // An error ends the step and frees the turn.
        await #expect(throws: CancellationError.self) { try await published.advance { throw CancellationError() } }
        try await published.advance { log.add("3") }
        #expect(log.all.last == "3")
    }
}
