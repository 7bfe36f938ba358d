import Synchronization
import Testing
@testable import FakeNFTServer

/// One change at a time per owner, in arrival order; other owners are not held up.
struct TurnsByKeyTests {
    final class Log: Sendable {
        let entries = Mutex<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    }

    @Test func changesOfOneOwnerRunOneAtATimeAndOthersRunBeside() async throws {
        let locks = TurnsByKey(), log = Log()
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        // The first change of "anna" holds her lock until the gate opens.
        let first = Task {
            try await locks.run("anna") {
                log.add("anna 1 start")
                for await _ in gate { break }
                log.add("anna 1 end")
            }
        }
        while !log.entries.withLock({ $0.contains("anna 1 start") }) { await Task.yield() }
        let second = Task { try await locks.run("anna") { log.add("anna 2") } }
        // Boris is not held up by Anna's change.
        try await locks.run("boris") { log.add("boris") }
        #expect(log.entries.withLock { $0 } == ["anna 1 start", "boris"])
        open.yield()
        try await first.value
        try await second.value
        #expect(log.entries.withLock { $0 } == ["anna 1 start", "boris", "anna 1 end", "anna 2"])
        // An error ends the change and frees the lock.
        await #expect(throws: CancellationError.self) { try await locks.run("anna") { throw CancellationError() } }
        try await locks.run("anna") { log.add("anna 3") }
        #expect(log.entries.withLock { $0.last } == "anna 3")
    }
}
