import Foundation
import Testing
import FakeNFTTesting

extension EndToEnd {
    /// The real app against a server that misbehaves in each way: it never crashes, never shows a
    /// stack trace or a raw escape sequence, `q` quits with status 0, and the terminal is restored.
    /// One mode at a time: nine apps in tmux at once load 2 cores enough to upset the timing tests.
    @Suite(.timeLimit(.minutes(5))) struct HostileServerEndToEndTests {
        /// Through all four tabs, opening what can be opened, liking, adding to the cart, sorting.
        static let journey: [String] = [
            "Enter", "Right", "Enter", "l", "c", "w", "o", "y", "Escape", "Escape", "a", "Escape",
            "2", "s", "Escape", "Down", "d", "Escape",
            "3", "Enter", "Escape", "Down", "Down", "Enter", "Escape", "Down", "Enter", "o", "y", "Escape", "e",
            "Escape",
            "4", "Enter", "Enter", "Escape", "Escape", "1", "r",
        ]

        /// How long the journey goes round in each mode: once, unless `FAKENFT_HOSTILE_TOUR_SECONDS`
        /// asks for longer (the hostile audit's 30 s tour, run by hand: docs/testing.md).
        static let tour = Duration.seconds(
            Int(ProcessInfo.processInfo.environment["FAKENFT_HOSTILE_TOUR_SECONDS"] ?? "") ?? 0)

        @Test(arguments: HostileServer.Mode.allCases)
        func theAppSurvives(mode: HostileServer.Mode) async throws {
            let server = try HostileServer.start(mode)
            defer { server.stop() }
            let tmux = try await Tmux(width: 100, height: 30)
            try await tmux.type(
                """
                sh -c 'stty -a > before.txt; \(Tmux.binary) --server \(server.baseURL.absoluteString); echo \
                \"EX\"\"IT=$?\"; stty -a > after.txt; echo DO\"\"NE'
                """
            )
            try await tmux.passWelcome(waitingFor: "4 Statistics")
            let started = ContinuousClock.now
            repeat {
                for key in Self.journey {
                    try await tmux.keys(key)
                    try await Task.sleep(for: .milliseconds(150))
                    let screen = try await tmux.screen()
                    #expect(
                        !screen.contains("]52;") && !screen.contains("[2J") && !screen.contains("\u{202E}"),
                        "\(mode) after \(key):\n\(screen)")
                }
            } while ContinuousClock.now - started < Self.tour
            try await tmux.keys("q")
            // generous: the whole suite loads 2 cores; make bench times q (5 ms)
            try await tmux.waitFor("EXIT=0", timeout: 60)
            try await tmux.waitFor("DONE")
            #expect(try tmux.file("before.txt") == tmux.file("after.txt"), "\(mode): stty -a changed")
            let screen = try await tmux.screen()
            #expect(!screen.contains("Fatal error") && !screen.contains("crashed"), "\(mode):\n\(screen)")
        }
    }
}
