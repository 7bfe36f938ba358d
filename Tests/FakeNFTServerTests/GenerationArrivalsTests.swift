import Testing
@testable import FakeNFTServer

/// Readers waiting for a generation: woken by its arrival, by their patience's end, or by
/// their task's cancellation, whichever comes first; never left waiting.
struct GenerationArrivalsTests {
    @Test func aReachedGenerationAnswersAtOnce() async {
        let arrivals = GenerationArrivals()
        arrivals.reached(5)
        #expect(await arrivals.wait(for: 5, within: .seconds(60)))
        #expect(await arrivals.wait(for: 3, within: .seconds(60)))
    }

    @Test func anArrivalWakesThoseWaitingForItOrOlder() async throws {
        let arrivals = GenerationArrivals()
        let early = Task { await arrivals.wait(for: 2, within: .seconds(60)) }
        let late = Task { await arrivals.wait(for: 9, within: .milliseconds(200)) }
        try await Task.sleep(for: .milliseconds(50))
        arrivals.reached(3)
        #expect(await early.value, "woken by generation 3, long before its patience ends")
        #expect(await late.value == false, "9 never came: its patience ended")
    }

    @Test func aCancelledReaderStopsWaiting() async throws {
        let arrivals = GenerationArrivals()
        let reader = Task { await arrivals.wait(for: 1, within: .seconds(60)) }
        try await Task.sleep(for: .milliseconds(20))
        reader.cancel()
        #expect(await reader.value == false)
    }
}
