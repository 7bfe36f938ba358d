import FakeNFTApp
import FakeNFTCore
import FakeNFTServer
import Foundation

/// Ctrl-P on a large shop (`--large 10000,100000`): gathering every entry, then each key of an
/// eight-letter query ranked over all of them as the finder ranks it (a key typed on ranks among
/// the last key's matches).
@MainActor
enum GoToBenchmarks {
    static func largeShop() async throws {
        let server = try await FakeNFTServer.start(
            ServerConfiguration(
                port: 0, dataDirectory: ServerBenchmarks.temporaryDirectory(),
                seed: .large(users: 10_000, nfts: 100_000)))
        defer { Task { await server.stop() } }
        let preferences = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bench-prefs-\(UUID().uuidString).json")
        let services = Services(
            api: APIClient(APIConfiguration(baseURL: server.baseURL)),
            preferences: PreferencesStore(fileURL: preferences))
        let clock = ContinuousClock()
        var start = clock.now
        let entries = await GoToIndex.load(services)
        let gathered = milliseconds(clock.now - start)
        start = clock.now
        let candidates = FuzzyMatch.Names(entries.map(\.name))
        report(
            "Ctrl-P: gather and prepare \(entries.count) entries",
            "\(format(gathered, 0)) ms gathered, \(format(milliseconds(clock.now - start), 0)) ms prepared")
        let query = String(
            entries[entries.count / 2].name.lowercased().filter { $0.isLetter }.prefix(8))
        var typedOn = Samples(), fromScratch = Samples()
        for _ in 0..<5 {
            var last: [Int]?
            for length in 1...query.count {
                let typed = String(query.prefix(length))
                start = clock.now
                last = FuzzyMatch.ranked(candidates, by: typed, among: last)
                typedOn.add(milliseconds(clock.now - start))
                start = clock.now
                _ = FuzzyMatch.ranked(candidates, by: typed)
                fromScratch.add(milliseconds(clock.now - start))
            }
        }
        report(
            "Ctrl-P: a key of \"\(query)\" over \(entries.count) (median / slowest)",
            "\(format(typedOn.median, 2)) / \(format(typedOn.percentile(1), 2)) ms (target 5 ms)")
        report(
            "Ctrl-P: the same, every key ranking all (median / slowest)",
            "\(format(fromScratch.median, 2)) / \(format(fromScratch.percentile(1), 2)) ms")
    }
}
