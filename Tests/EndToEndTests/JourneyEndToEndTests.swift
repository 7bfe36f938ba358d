import FakeNFTCore
import Foundation
import Testing
import FakeNFTTesting

extension EndToEnd {
    /// The three journeys this app exists for, on the real binary in tmux against `fakenft serve`:
    /// after every step, each number and name on screen is checked against the server over HTTP.
    @Suite struct JourneyEndToEndTests {
        static func price(_ value: Double) -> String { String(format: "%.2f ETH", value) }
        static func stars(_ rating: Int) -> String {
            String(repeating: "★", count: rating) + String(repeating: "☆", count: 5 - rating)
        }

        /// Browse: a collection opened with the arrows, an NFT in it, and its collection, author,
        /// rating and price as the API gives them.
        @Test func browse() async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            let server = try await tmux.startServer()
            let api = APIClient(APIConfiguration(baseURL: server))
            try await tmux.launchApp("--server \(server.absoluteString)")
            // The default order: most NFTs first, then by name.
            let collections = try await api.collectionsInCatalogOrder()
            var screen = try await tmux.screen()
            for collection in collections.prefix(3) {
                #expect(screen.contains("\(collection.name) (\(collection.nfts.count))"))
            }
            try await tmux.keys("Down", "Enter")
            let collection = collections[1]
            try await tmux.waitFor("Catalog › \(collection.name)")
            let nfts = try await collection.nfts.prefix(3).asyncMap { try await api.nft(id: $0) }
            screen = try await tmux.waitUntil("the grid") { screen in nfts.allSatisfy { screen.contains($0.name) } }
            for nft in nfts { #expect(screen.contains(Self.price(nft.price)), "\(nft.name)'s price") }
            try await tmux.keys("Right", "Enter")
            let nft = nfts[1]
            let author = try await api.user(id: nft.author).name
            screen = try await tmux.waitUntil("the NFT's facts") { $0.contains("Author: \(author)") }
            #expect(screen.contains("\(collection.name) › \(nft.name)"))
            #expect(screen.contains("Collection: \(collection.name)"))
            #expect(screen.contains("Rating: \(Self.stars(nft.rating))"))
            #expect(screen.contains("Price: \(Self.price(nft.price))"))
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            try await tmux.type("kill %1")
        }

        /// Cart: two removals through the dialog (one cancelled first); after each step the rows,
        /// the count and the total are the server's order and prices.
        @Test func cart() async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            let server = try await tmux.startServer()
            let api = APIClient(APIConfiguration(baseURL: server))
            try await tmux.launchApp("--server \(server.absoluteString)", waitingFor: "Cart [3]")
            try await tmux.keys("2")
            try await expectCartMatchesTheServer(tmux, api)
            try await tmux.keys("d")
            try await tmux.waitFor("Are you sure you want to remove")
            try await tmux.keys("Escape")
            try await tmux.waitUntil("dialog closed") { !$0.contains("Are you sure") }
            try await expectCartMatchesTheServer(tmux, api, count: 3)
            for remaining in [2, 1] {
                try await tmux.keys("d")
                try await tmux.waitFor("Are you sure you want to remove")
                try await tmux.keys("y")
                try await tmux.waitFor("Cart [\(remaining)]")
                try await expectCartMatchesTheServer(tmux, api, count: remaining)
            }
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            try await tmux.type("kill %1")
        }

        /// Waits until the server has `count` NFTs in the order (when given), then checks that the
        /// screen shows each of them, the count and the total of their prices.
        func expectCartMatchesTheServer(_ tmux: Tmux, _ api: APIClient, count: Int? = nil) async throws {
            var order = try await api.order()
            _ = try await polled {
                order = try await api.order()
                return count == nil || order.nfts.count == count
            }
            let nfts = try await order.nfts.asyncMap { try await api.nft(id: $0) }
            let total = Self.price(nfts.reduce(0) { $0 + $1.price })
            let counted = "\(nfts.count) NFT\(nfts.count == 1 ? "" : "s")"
            let screen = try await tmux.waitUntil("the cart of \(counted), \(total)") {
                $0.contains(counted) && $0.contains(total)
            }
            for nft in nfts {
                #expect(screen.contains(nft.name) && screen.contains(Self.price(nft.price)), "\(nft.name) in the cart")
            }
        }

        /// Profile: every field edited at 60×16 (the form scrolls) and again at 120×40, saved, the
        /// app restarted, and the server holds each value.
        @Test(arguments: [(60, 16), (120, 40)])
        func profile(size: (width: Int, height: Int)) async throws {
            let tmux = try await Tmux(width: size.width, height: size.height)
            let server = try await tmux.startServer()
            let api = APIClient(APIConfiguration(baseURL: server))
            try await tmux.launchApp("--server \(server.absoluteString)", waitingFor: "Cart [3]")
            try await tmux.keys("3")
            try await tmux.waitFor("My NFTs (13)")
            try await tmux.keys("e")
            try await tmux.waitFor("Edit profile")
            let values = [
                "Анна \(size.width)", "Люблю NFT и чай", "https://anna.example/\(size.width)",
                "https://anna.example/a.png",
            ]
            for (i, value) in values.enumerated() {
                if i > 0 { try await tmux.keys("Tab") }
                try await tmux.keys("C-u")
                if i == 1 { try await tmux.keys("C-u", "C-k") }  // the description has lines of its own
                try await tmux.run(["send-keys", "-t", tmux.session, "-l", value])
                try await tmux.waitFor(value)  // visible where it is typed, at any size
            }
            try await tmux.keys("Tab")
            try await tmux.waitFor("[ Save (Ctrl-S) ]")
            try await tmux.keys("Enter")
            try await tmux.waitUntil("saved") { !$0.contains("Edit profile") && $0.contains(values[0]) }
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            try await tmux.type("clear")
            try await tmux.launchApp("--server \(server.absoluteString)", waitingFor: "Cart [3]")
            try await tmux.keys("3")
            try await tmux.waitFor(values[0])
            let profile = try await api.profile()
            #expect(profile.name == values[0] && profile.website == values[2] && profile.avatar == values[3])
            #expect(profile.description.hasSuffix(values[1]))
            #expect(try await tmux.screen().contains(values[2]))
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            try await tmux.type("kill %1")
        }
    }
}

extension Sequence {
    /// `transform` of each element, one after the other.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
