import FakeNFTTesting
import Testing
@testable import FakeNFTServer

/// Readers waiting for a generation: woken by its arrival, by their patience's end, or by
/// their task's cancellation, whichever comes first; never left waiting. Patience runs on a
/// test clock, moved by the tests.
struct PublishedGenerationTests {
    let clock = TestClock()
    let deadlines: Deadlines
    let generations: PublishedGeneration

    init() {
        deadlines = Deadlines(tick: .milliseconds(25), clock: clock)
        generations = PublishedGeneration(deadlines: deadlines)
    }

    /// Whether `count` readers come to wait with their patience watched.
    func waiting(_ count: Int) async -> Bool { await afterYielding { deadlines.watching == count } }

    @Test func aReachedGenerationAnswersAtOnce() async {
        generations.reached(5)
        #expect(await generations.wait(for: 5, within: .seconds(60)))
        #expect(await generations.wait(for: 3, within: .seconds(60)))
        #expect(deadlines.watching == 0, "no patience watched for an answer at once")
    }

    @Test func anArrivalWakesThoseWaitingForItOrOlder() async throws {
        let early = Task { [generations] in await generations.wait(for: 2, within: .seconds(60)) }
        let late = Task { [generations] in await generations.wait(for: 9, within: .milliseconds(200)) }
        #expect(await waiting(2))
        generations.reached(3)
        #expect(await early.value, "woken by generation 3, its patience untouched")
        #expect(await waiting(1), "its watch lifted; the later reader still waits")
        await clock.sleepers()
        clock.advance(by: .milliseconds(200))
        #expect(await late.value == false, "9 never came: its patience ended")
    }

    @Test func aCancelledReaderStopsWaiting() async throws {
        let reader = Task { [generations] in await generations.wait(for: 1, within: .seconds(60)) }
        #expect(await waiting(1))
        reader.cancel()
        #expect(await reader.value == false)
        #expect(await waiting(0), "its watch lifted")
    }
}
