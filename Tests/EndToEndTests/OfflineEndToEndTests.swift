import FakeNFTCore
import Foundation
import Glibc
import Testing
import FakeNFTTesting

extension EndToEnd {
    /// Offline on the real binary: likes and cart changes made while the server is gone are shown,
    /// counted once in the status line, kept through a crash, and sent when the server is back (by
    /// the next start, or without a key press by the run that made them), on top of what another
    /// client changed meanwhile.
    @Suite struct OfflineEndToEndTests {
        @Test func changesMadeOfflineSurviveACrashAndReachTheServer() async throws {
            let (tmux, port, api, app) = try await Self.tmuxWithServer()
            try await tmux.launchApp(app)
            try await tmux.keys("Enter")  // the biggest collection, seen while the server answers
            let collections = try await api.collectionsInCatalogOrder()
            let first = try await api.nft(id: collections[0].nfts[0])
            try await tmux.waitFor(first.name)
            let likesBefore = try await api.profile().likes, cartBefore = try await api.order().nfts
            #expect(!likesBefore.contains(first.id) && !cartBefore.contains(first.id))

            // The server gone: the like and the cart change show, the status line counts them.
            try stopServer(port: port)
            try await tmux.keys("l")
            try await tmux.waitFor("⚠ offline: 1 waiting")
            try await tmux.keys("c")
            let offline = try await tmux.waitFor("⚠ offline: 2 waiting")
            #expect(offline.contains("♥") && offline.contains("[✕ cart]"), "\(offline)")
            #expect(!offline.contains("Could not"), "no toast per change: \(offline)")

            // A crash: what was kept is on disk, the window's one file with both actions.
            #expect(kill(try await tmux.childPID(), SIGKILL) == 0)
            try await tmux.waitFor("EXIT=137")
            let kept = tmux.directory.appendingPathComponent(".local/state/fakenft/kept")
            let files = try FileManager.default.contentsOfDirectory(atPath: kept.path)
            try #require(files.count == 1, "\(files)")
            let actions = try JSONDecoder().decode(
                [OutboxAction].self, from: Data(contentsOf: kept.appendingPathComponent(files[0])))
            #expect(
                actions.map(\.list) == [.likes, .cart] && actions.allSatisfy { $0.changes.map(\.id) == [first.id] })

            // The server back, and another client likes another NFT meanwhile.
            try await tmux.type("stty sane; clear")
            try await startServer(tmux, port: port, api: api)
            let otherLike = collections[0].nfts[1]
            let fresh = try await api.versionedProfile()
            _ = try await api.updateLikes(fresh.value.likes + [otherLike], ifVersion: fresh.version)

            // The next start sends what the crashed run kept: both likes, the cart change.
            try await tmux.launchApp(app)
            try await eventually("the kept changes on the server") {
                let likes = try await api.profile().likes, cart = try await api.order().nfts
                return Set(likes) == Set(likesBefore + [first.id, otherLike])
                    && Set(cart) == Set(cartBefore + [first.id])
            }
            try await eventually("the kept files gone once the server has their changes") {
                try FileManager.default.contentsOfDirectory(atPath: kept.path).isEmpty
            }
            try await tmux.waitUntil("no change waiting") { !$0.contains("waiting") }

            // Offline again in the same run, and back: sent without a key press.
            try await tmux.keys("Enter")
            try await tmux.waitFor(first.name)
            try stopServer(port: port)
            try await tmux.keys("l")  // unlike
            try await tmux.waitFor("⚠ offline: 1 waiting")
            try await startServer(tmux, port: port, api: api, typing: false)
            try await eventually("the unlike on the server", timeout: .seconds(40)) {
                try await !api.profile().likes.contains(first.id)
            }
            #expect(Set(try await api.profile().likes) == Set(likesBefore + [otherLike]))
            try await tmux.waitUntil("no change waiting") { !$0.contains("waiting") && !$0.contains("offline") }
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            try stopServer(port: port)
        }

        /// The journey: an offline start from the saved copy, three likes and a removal from
        /// the cart, a quit and another offline start (all four still waiting), then the server back:
        /// they arrive, and a like another client made meanwhile is kept.
        @Test func anOfflineStartKeepsChangesUntilTheServerIsBack() async throws {
            let (tmux, port, api, app) = try await Self.tmuxWithServer()
            let biggest = try await api.collectionsInCatalogOrder()[0]
            let likesBefore = try await api.profile().likes, cartBefore = try await api.order().nfts
            try await tmux.launchApp(app)  // seen once while the server answers: the grid and the cart
            try await tmux.keys("Enter")
            try await tmux.waitFor("[+ cart]")
            try await tmux.keys("2")
            try await tmux.waitFor("\(cartBefore.count) NFT")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")

            try stopServer(port: port)
            try await tmux.type("clear")
            try await tmux.launchApp(app, waitingFor: "⚠ offline", throughWelcome: false)
            try await tmux.waitFor("9 collections")  // the saved catalog can come a frame after the mark
            try await tmux.keys("1", "Enter")
            try await tmux.waitFor("[+ cart]")
            try await tmux.keys("l", "Right", "l", "Right", "l")
            try await tmux.waitFor("⚠ offline: 3 waiting")
            try await tmux.keys("2")
            try await tmux.waitFor("\(cartBefore.count) NFT")
            try await tmux.keys("d")
            try await tmux.waitFor("Remove")
            try await tmux.keys("y")
            try await tmux.waitFor("⚠ offline: 4 waiting")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")

            // Another client likes an NFT while this one is away.
            try await tmux.type("clear")
            try await startServer(tmux, port: port, api: api)
            let otherLike = try #require(biggest.nfts.last { !likesBefore.contains($0) })
            let fresh = try await api.versionedProfile()
            _ = try await api.updateLikes(fresh.value.likes + [otherLike], ifVersion: fresh.version)
            try stopServer(port: port)

            try await tmux.type("clear")
            try await tmux.launchApp(app, waitingFor: "⚠ offline: 4 waiting", throughWelcome: false)
            try await startServer(tmux, port: port, api: api, typing: false)
            try await eventually("the four changes on the server", timeout: .seconds(40)) {
                let cart = try await api.order().nfts, likes = try await api.profile().likes
                return cart.count == cartBefore.count - 1
                    && Set(likes).symmetricDifference(likesBefore + [otherLike]).count == 3
            }
            let likes = try await api.profile().likes, cart = try await api.order().nfts
            #expect(likes.contains(otherLike), "the other client's like is kept")
            #expect(Set(likes).symmetricDifference(likesBefore + [otherLike]).isSubset(of: biggest.nfts))
            #expect(Set(cart).isSubset(of: cartBefore) && cart.count == cartBefore.count - 1)
            try await tmux.waitUntil("no change waiting") { !$0.contains("waiting") && !$0.contains("offline") }
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            try stopServer(port: port)
        }

        /// A tmux with `fakenft serve` started in its shell: the server's port, a client of it, and
        /// the app's arguments for it.
        /// One online start, and every tab reads offline: a collection never opened shows its NFTs,
        /// Statistics its first page, My NFTs its authors by name (checked against the server).
        @Test func everyTabReadsOfflineAfterOneOnlineStart() async throws {
            let (tmux, port, api, app) = try await Self.tmuxWithServer()
            let collections = try await api.collectionsInCatalogOrder()
            let smallest = try #require(collections.last)
            let smallestFirst = try await api.nft(id: smallest.nfts[0])
            let topUser = try await api.users(page: 0, size: 1, sortBy: "rating,desc")[0]
            let mine = try await api.nft(id: try #require(try await api.profile().nfts.first))
            let author = try await api.user(id: mine.author).name
            let every = Set(collections.flatMap(\.nfts))
            // Online until the saved copy holds what every tab shows: the app reads it ahead on its own.
            let folder = tmux.directory.appendingPathComponent(".cache/fakenft/last-seen")
            var attempts = 0
            try await eventually("a saved copy with every tab", timeout: .seconds(90)) {
                try await tmux.launchApp(app)
                attempts += 1  // each run open longer: a busy machine reads ahead slower, never wrongly
                try await Task.sleep(for: .seconds(attempts))
                try await tmux.keys("q")
                try await tmux.waitFor("EXIT=0")
                try await tmux.type("clear")
                let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                guard let file = files.first(where: { $0.hasSuffix(".json") }),
                    let data = FileManager.default.contents(atPath: folder.appendingPathComponent(file).path),
                    let saved = try? JSONDecoder().decode(LastSeen.self, from: data)
                else { return false }
                return every.isSubset(of: Set(saved.nfts.map(\.id))) && saved.firstPages["rating"] != nil
                    && saved.people.contains { $0.id == mine.author }
            }
            try stopServer(port: port)
            try await tmux.launchApp(app)
            try await tmux.keys("G", "Enter")  // the last collection, never opened
            let grid = try await tmux.waitFor(smallestFirst.name)
            #expect(!grid.contains("Could not"), "\(grid)")
            try await tmux.keys("4")
            let statistics = try await tmux.waitFor(topUser.name)
            #expect(!statistics.contains("Could not load the users"), "\(statistics)")
            try await tmux.keys("3")
            try await tmux.waitFor("My NFTs")
            try await tmux.keys("Enter")
            // The name first, its author from the saved people a frame later: waited for, not raced.
            let owned = try await tmux.waitUntil("\(mine.name) by \(author)") {
                $0.contains(mine.name) && $0.contains(String(author.prefix(10)))
            }
            #expect(!owned.contains("by user "), "\(owned)")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
        }

        private static func tmuxWithServer() async throws -> (Tmux, port: Int, APIClient, app: String) {
            let tmux = try await Tmux(width: 100, height: 30)
            let server = try await tmux.startServer()
            return (
                tmux, try #require(server.port), APIClient(APIConfiguration(baseURL: server)),
                "--server \(server.absoluteString)"
            )
        }

        /// Ends the `fakenft serve` listening on `port` at once (SIGKILL).
        private func stopServer(port: Int) throws {
            _ = try spawnAndWait("/usr/bin/pkill", ["-KILL", "-f", "serve --port \(port) "])
        }

        /// Starts `fakenft serve` on `port` again, on the same data: typed in the pane's shell, or
        /// (while the app has the pane) run from here; waits until it answers.
        private func startServer(_ tmux: Tmux, port: Int, api: APIClient, typing: Bool = true) async throws {
            let command = "\(Tmux.binary) serve --port \(port) --data server-data --quiet"
            if typing {
                try await tmux.type("\(command) > server.log 2>&1 &")
            } else {
                try await tmux.run([
                    "run-shell", "-b", "cd \(tmux.directory.path) && exec \(command) > server2.log 2>&1",
                ])
            }
            try await eventually("the server back on port \(port)") { (try? await api.currencies()) != nil }
        }
    }
}
