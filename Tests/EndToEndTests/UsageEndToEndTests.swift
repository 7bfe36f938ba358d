import FakeNFTCore
import Foundation
import Glibc
import Testing
import FakeNFTTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension EndToEnd {
    /// Usage events from the real binary to `fakenft serve`: a journey's events against the server's
    /// counts and its day's summary, nothing sent with each of the three switches, events kept
    /// offline and sent by the next start, and an SSH visitor's `DO_NOT_TRACK`.
    @Suite struct UsageEndToEndTests {
        /// The server's app event counts, `event screen` to count.
        static func counts(_ server: URL) async throws -> [String: Int] {
            let (data, _) = try await URLSession.shared.data(from: server.appendingPathComponent("metrics"))
            var counts: [String: Int] = [:]
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n")
            where line.hasPrefix("fakenft_app_events_total{") {
                let labels = line.split(separator: "\"")
                guard labels.count >= 4, let count = Int(line.split(separator: " ").last ?? "") else { continue }
                counts["\(labels[1]) \(labels[3])"] = count
            }
            return counts
        }

        /// Every screen's opens and closes match (the app closed what it showed when it ended).
        static func balanced(_ counts: [String: Int]) -> Bool {
            counts.keys.filter { $0.hasPrefix("open ") }.allSatisfy { key in
                counts[key] == counts["close " + key.dropFirst(5)]
            }
        }

        @Test func aJourneysEventsAreTheServersCounts() async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            let server = try await tmux.startServer()
            let api = APIClient(APIConfiguration(baseURL: server))
            let collection = try #require(try await api.collectionsInCatalogOrder().first)
            let nft = try await api.nft(id: collection.nfts[0])
            try await tmux.launchApp("--server \(server.absoluteString)")
            try await tmux.keys("Enter")
            try await tmux.waitFor("Catalog › \(collection.name)")
            try await tmux.keys("Enter")
            try await tmux.waitFor("\(collection.name) › \(nft.name)")
            let liked = try await api.profile().likes.contains(nft.id)
            try await tmux.keys("l")
            try await eventually("the like on the server") { try await api.profile().likes.contains(nft.id) != liked }
            try await tmux.keys("Escape", "2")
            try await tmux.waitFor("3 NFT")
            try await tmux.keys("p")
            try await tmux.waitFor("Bitcoin")
            try await tmux.keys("p")
            // the first payment asks for a rating once its success screen is left
            let success = try await tmux.waitFor("congratulations on your purchase!")
            #expect(!success.contains("Rate FakeNFT"))
            try await tmux.keys("Enter")
            try await tmux.waitFor("Rate FakeNFT")
            try await tmux.keys("n")
            try await tmux.waitUntil("the prompt gone") { !$0.contains("Rate FakeNFT") }
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")

            let counts = try await Self.counts(server)
            for (key, count) in [
                ("open nft", 1), ("click nft", 1), ("open cart", 1), ("open payment", 1), ("click payment", 1),
                ("open success", 1), ("open rating", 1), ("click rating", 1), ("open help", nil),
            ] as [(String, Int?)] {
                #expect(counts[key] == count, "\(key): \(counts)")
            }
            #expect((counts["open catalog"] ?? 0) >= 1 && (counts["open collection"] ?? 0) >= 1, "\(counts)")
            #expect(Self.balanced(counts), "every screen opened was closed: \(counts)")

            // The day's summary, from the database once the server has stopped (and written its counts).
            _ = try await spawned("/usr/bin/pkill", ["-TERM", "-f", "serve --port \(server.port ?? 0) "])
            try await eventually("the server stopped") { (try? await api.currencies()) == nil }
            let data = tmux.directory.appendingPathComponent("server-data").path
            let summary = try await spawned(Tmux.binary, ["serve", "--data", data, "--usage-summary", "today"])
            let lines = summary.output.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
            #expect(summary.status == 0)
            #expect(
                lines.contains { $0.hasPrefix("Funnel: catalog") && $0.hasSuffix("→ NFT 1 → cart 0 → paid 1") },
                "\(summary.output)")
            #expect(lines.contains("\(nft.name) (\(nft.id)) 1"), "the NFT opened, named: \(summary.output)")
            #expect(lines.contains(liked ? "unlike 1" : "like 1") && lines.contains("pay 1"), "\(summary.output)")
            #expect(lines.contains("not now 1"), "\(summary.output)")
        }

        /// `--no-analytics`, `analytics = false` and `DO_NOT_TRACK=1`: nothing is sent, and
        /// `fakenft config` says which one turned it off.
        @Test func eachSwitchSendsNothing() async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            let server = try await tmux.startServer()
            let config = tmux.directory.appendingPathComponent(".config/fakenft")
            try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
            for (prefix, arguments, source) in [
                ("", "--no-analytics", "command line"), ("DO_NOT_TRACK=1 ", "", "DO_NOT_TRACK"),
                ("", "", "config file"),
            ] {
                if source == "config file" {
                    try "analytics = false\n".write(
                        to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
                }
                try await tmux.type("clear; \(prefix)\(Tmux.binary) config \(arguments) | grep analytics")
                let said = try await tmux.waitUntil("config's analytics line") { $0.contains("analytics ") }
                #expect(said.contains("false") && said.contains(source), "\(source): \(said)")
                try await tmux.type("clear; \(prefix.isEmpty ? "unset DO_NOT_TRACK" : "export \(prefix)")")
                try await tmux.launchApp("--server \(server.absoluteString) \(arguments)")
                try await tmux.keys("Enter", "4", "?")
                try await tmux.waitFor("Keys:")
                try await tmux.keys("Escape", "q")
                try await tmux.waitFor("EXIT=0")
                try await tmux.type("clear; unset DO_NOT_TRACK")
                let counts = try await Self.counts(server)
                #expect(counts.isEmpty, "\(source): \(counts)")
            }
        }

        /// `fakenft --help` says what is sent, where, and the three ways to turn it off.
        @Test func theHelpSaysWhatIsSentAndHowToTurnItOff() async throws {
            let help = try await spawned(Tmux.binary, ["--help"])
            let words = help.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(help.status == 0)
            for part in [
                "the app sends the server it uses (and no one else)", "which screens are opened and closed",
                "never an account, token, address or typed text", "--no-analytics", "analytics = false",
                "DO_NOT_TRACK=1",
            ] {
                #expect(words.contains(part), "\(part): \(help.output)")
            }
        }

        /// Offline, events are kept in a file of the user's alone; the next start on the server sends them.
        @Test func offlineEventsAreSentByTheNextStart() async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            let server = try await tmux.startServer()
            let port = server.port ?? 0
            try await tmux.launchApp("--server \(server.absoluteString)")
            _ = try await spawned("/usr/bin/pkill", ["-KILL", "-f", "serve --port \(port) "])
            try await tmux.keys("4")
            try await tmux.waitFor("Statistics")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            let folder = tmux.directory.appendingPathComponent(".local/state/fakenft/usage")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(files.count == 1, "\(files)")
            let mode = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(files[0]).path)
            #expect(mode[.posixPermissions] as? Int == 0o600)
            try await tmux.type(
                "clear; \(Tmux.binary) serve --port \(port) --data server-data --quiet > server.log 2>&1 &")
            let api = APIClient(APIConfiguration(baseURL: server))
            try await eventually("the server back") { (try? await api.currencies()) != nil }
            try await tmux.launchApp("--server \(server.absoluteString)")  // the first send takes them
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            #expect(try await Self.counts(server)["open statistics"] == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
            let counts = try await Self.counts(server)
            #expect(Self.balanced(counts), "\(counts)")
        }

        /// Over ssh the server's own app sends a visitor's events the same way, unless the visitor's
        /// client sends `DO_NOT_TRACK=1` (`SetEnv`, as `NO_COLOR` is taken).
        @Test func anSSHVisitorsDoNotTrackIsTaken() async throws {
            let shop = try await SSHShopUnderTest(keys: ["alice"])
            let tmux = shop.tmux
            for doNotTrack in [true, false] {
                let options = doNotTrack ? "-o SetEnv=DO_NOT_TRACK=1" : ""
                try await tmux.type("clear; " + shop.ssh(key: "alice", user: "alice", options: options))
                try await tmux.passWelcome(waitingFor: "9 collections")
                try await tmux.keys("4")
                try await tmux.waitFor("Statistics")
                try await tmux.keys("q")
                try await tmux.waitFor("EXIT=0")
                let counts = try await Self.counts(shop.server)
                if doNotTrack {
                    #expect(counts.isEmpty, "DO_NOT_TRACK=1: \(counts)")
                } else {
                    #expect(counts["open statistics"] == 1 && counts["open catalog"] == 1, "\(counts)")
                }
            }
        }
    }
}
