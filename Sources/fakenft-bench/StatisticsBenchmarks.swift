import FakeNFTApp
import FakeNFTCore
import FakeNFTServer
import Foundation
import TerminalUI
import FakeNFTTesting

/// The rating list against a server with 10,000 users.
@MainActor
enum StatisticsBenchmarks {
    static func ratingList() async throws {
        let server = try await FakeNFTServer.start(
            ServerConfiguration(
                port: 0, dataDirectory: ServerBenchmarks.temporaryDirectory(),
                seed: .large(users: 10_000, nfts: 95)))
        defer { Task { await server.stop() } }
        guard let terminal = HeadlessTerminal(size: Size(width: 120, height: 40)) else { return }
        defer { terminal.close() }
        let preferences = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bench-prefs-\(UUID().uuidString).json")
        let services = Services(
            api: APIClient(APIConfiguration(baseURL: server.baseURL)),
            preferences: PreferencesStore(fileURL: preferences))
        let context = AppContext(services: services, effects: .toastsOnly(), pictures: .placeholders())
        let model = StatisticsViewModel(context: context)
        let shell = AppShell(
            tabs: [AppShell.Tab(title: "Statistics", root: StatisticsScreen(model: model))], effects: context.effects,
            pictures: context.pictures)
        let presenter = FramePresenter(surface: terminal.surface)
        let size = Size(width: 120, height: 40)
        let clock = ContinuousClock()

        let start = clock.now
        await model.loadNextPage()
        presenter.present(size: size) { frame in
            shell.draw(into: &frame)
            shell.shown(frame)
        }
        report(
            "Statistics: first frame of the rating list (10,000 users)",
            "\(format(milliseconds(clock.now - start), 1)) ms")

        var keys = Samples(), pages = Samples()
        // Hold Down from the first user to the last; page loads are timed apart from key handling.
        while keys.values.count < 10_000 {
            let t = clock.now
            _ = shell.handle(.key(.down))
            presenter.present(size: size) { frame in
                shell.draw(into: &frame)
                shell.shown(frame)
            }
            keys.add(milliseconds(clock.now - t))
            _ = terminal.drainOutput()
            if model.isLoading {
                let waited = clock.now
                let before = model.users.count
                while model.isLoading { await Task.yield() }
                pages.add(milliseconds(clock.now - waited))
                if model.users.count == before { break }  // an error: stop rather than spin
            }
        }
        report("Statistics: key to frame scrolling 10,000 users (median)", "\(format(keys.median)) ms")
        report(
            "Statistics: key to frame scrolling 10,000 users (p99)",
            "\(format(keys.percentile(0.99))) ms over \(keys.values.count) keys")
        report(
            "Statistics: page of 50 users arriving (median / p99)",
            "\(format(pages.median, 1)) / \(format(pages.percentile(0.99), 1)) ms")
    }
}
