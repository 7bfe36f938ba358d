import Foundation
import Testing

extension EndToEnd {
    /// The app draws what it last saw at once, marked as not yet refreshed, then what the server
    /// says; without the server it says it is offline once and shows what it saw; a damaged copy is
    /// thrown away without a crash.
    @Suite struct SavedCopyEndToEndTests {
        @Test func aStartDrawsWhatTheLastOneSaw() async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            let server = try await tmux.startServer(arguments: "--latency 2000")  // the saved copy shows a while
            let app = "--server \(server.absoluteString)"
            try await tmux.launchApp(app)
            try await tmux.keys("Enter")  // Beige: its NFTs are seen
            try await tmux.waitFor("[+ cart]")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            try await tmux.type("clear")

            // The catalog from the saved copy before the server answers (2 s), then refreshed by its answer.
            // (The breadcrumb's mark can come a frame before the list: the catalog reads the copy from its service.)
            try await tmux.launchApp(app, waitingFor: "⟳ saved copy", throughWelcome: false)
            try await tmux.waitUntil("the saved catalog") { $0.contains("saved copy") && $0.contains("9 collections") }
            try await tmux.waitUntil("the refreshed catalog") {
                !$0.contains("saved copy") && $0.contains("9 collections")
            }
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")

            // The server gone: "offline" once, the catalog and Beige's NFTs as last seen.
            try await tmux.type("kill %1; clear")
            try await tmux.launchApp(app, waitingFor: "⚠ offline", throughWelcome: false)
            try await tmux.waitUntil("the catalog offline") { $0.contains("⚠ offline") && $0.contains("9 collections") }
            try await tmux.keys("Enter")
            let beige = try await tmux.waitFor("[+ cart]")
            #expect(beige.contains("Beige (21)") && beige.contains("⚠ offline"))
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")

            // A damaged copy: thrown away, the start goes on without it.
            let folder = tmux.directory.appendingPathComponent(".cache/fakenft/last-seen")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
                $0.hasSuffix(".json")
            }
            #expect(files.count == 1)
            for file in files {
                try Data((0..<3_000).map { _ in UInt8.random(in: 0...255) }).write(
                    to: folder.appendingPathComponent(file))
            }
            try await tmux.type("clear")
            try await tmux.launchApp(app, waitingFor: "[ Retry: r ]", throughWelcome: false)
            #expect(try await tmux.screen().contains("⚠ offline"))
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
        }
    }
}
