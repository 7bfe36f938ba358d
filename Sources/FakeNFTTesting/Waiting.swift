import Foundation
import Observation

/// Waits until `condition` holds, re-checking it only when something it read through Observation
/// changes (no polling, no fixed sleeps). `condition` must read the observable state it waits for
/// (a view model, the app's state, a frame drawn from them); one that reads nothing observable
/// is checked once more at the end of `limit`, which only ends a wait that would otherwise hang:
/// beside the whole suite on 2 cores a collection and its author took over 5 s once, and a cart's
/// NFTs over 20 s with both cores also busy while twenty SSH visitors' apps started.
@MainActor
public func eventually(within limit: Duration = .seconds(60), _ condition: @MainActor () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        let (changes, changed) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let holds = withObservationTracking {
            condition()
        } onChange: {
            changed.yield()
            changed.finish()
        }
        if holds { return true }
        let timer = Task {
            try? await Task.sleep(until: deadline)
            changed.finish()
        }
        for await _ in changes { break }
        timer.cancel()
    }
    return condition()
}

/// Asks `holds` every `interval` until it says yes, for at most `limit`: for state outside this
/// process that nothing here can observe (a server's counters, a file a child process writes).
public func polled(
    every interval: Duration = .milliseconds(20), within limit: Duration = .seconds(20),
    isolation: isolated (any Actor)? = #isolation, _ holds: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + limit
    while try await !holds() {
        if ContinuousClock.now + interval > deadline { return false }
        try? await Task.sleep(for: interval)
    }
    return true
}

/// Lets other tasks run until `holds` says yes, for at most `turns` yields: for what tasks in
/// this process finish on their own without waiting on time (a watch lifted, a write queued),
/// so a busy machine makes the wait longer, never wrong.
public func afterYielding(turns: Int = 1_000_000, _ holds: () -> Bool) async -> Bool {
    for _ in 0..<turns where !holds() { await Task.yield() }
    return holds()
}
