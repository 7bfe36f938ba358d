import FakeNFTCore
import Foundation
import Testing
import TerminalUI
import FakeNFTSnapshots
import FakeNFTTesting
@testable import FakeNFTApp

/// Every screen at the smallest size the app accepts, the classic one, a large one and a very
/// wide one, as text snapshots: what is cut, scrolled or spread is reviewed in one place.
@MainActor @Suite struct EverySizeTests {
    static let sizes = [
        Size(width: 40, height: 20), Size(width: 60, height: 16), Size(width: 80, height: 24),
        Size(width: 120, height: 40),
        Size(width: 200, height: 60),
    ]

    func snapshotAtEverySize(_ shell: AppShell, _ name: String) {
        for size in Self.sizes {
            let text = frame(shell, size)
            #expect(!text.contains("Terminal too small"), "\(name) at \(size)")
            assertSnapshot(text, named: "size-\(name)-\(size.width)x\(size.height)")
        }
    }

    @Test func everyScreen() async throws {
        // Fixed image links: the edit form shows the avatar's.
        try await InProcessTestServer.with(imageLinks: .local(publicURL: URL(string: "http://images.test"))) {
            server async throws in
            try await walkEveryScreen(server) { shell, name in snapshotAtEverySize(shell, name) }
        }
    }

    /// At a phone's 40×20 each screen shows what the spec names, whole, checked against the
    /// server's answers: collections' names and counts, a cell's name and price, the cart's
    /// prices and total with its Pay line, the profile's name and wallet, the rating's places,
    /// avatars, names, ratings and counts, the paid order's count, total, currency, prices and names.
    @Test func aPhoneShowsWhatTheSpecNames() async throws {
        try await InProcessTestServer.with { server async throws in
            let api = server.client()
            let collections = try await api.collections(page: 0, size: 100)
                .sorted { $0.nfts.count != $1.nfts.count ? $0.nfts.count > $1.nfts.count : $0.name < $1.name }
            var cart: [NFT] = []
            for id in try await api.order().nfts { cart.append(try await api.nft(id: id)) }
            let nfts = try await api.nfts(page: 0, size: 1000)
            let profile = try await api.profile()
            let users = try await api.users(page: 0, size: 3, sortBy: "rating,desc")
            let phone = Size(width: 40, height: 20)
            var paidScreens: [String: String] = [:]  // the walk pays first: checked after it
            try await walkEveryScreen(server) { shell, name in
                let text = frame(shell, phone)
                if name == "my-orders" || name == "order" { paidScreens[name] = text }
                var wanted: [String] = []
                switch name {
                case "catalog": wanted = collections.prefix(3).map { "\($0.name) (\($0.nfts.count))" }
                case "collection":
                    let shown = nfts.filter { collections[0].nfts.contains($0.id) && text.contains($0.name) }
                    #expect(!shown.isEmpty, "no NFT of \(collections[0].name) at 40×20:\n\(text)")
                    wanted = shown.map { Format.price($0.price) } + ["[+ cart]"]
                case "cart":
                    wanted = cart.map(\.name) + cart.map { Format.price($0.price) }
                    wanted.append("Pay \(Format.price(cart.reduce(0) { $0 + $1.price }))")
                case "profile": wanted = [profile.name, "\(profile.nfts.count) NFTs"]
                case "statistics":  // place, avatar and name; under them the rating and the count
                    let initials = users.map { "░" + String($0.name.prefix(1)).uppercased() + "░" }
                    wanted = users.enumerated().map { "\($0.offset + 1) \(initials[$0.offset])  \($0.element.name)" }
                    wanted += users.map { "rating \($0.ratingValue)  " + Format.count($0.nfts.count, .nfts) }
                default: break
                }
                for figure in wanted { #expect(text.contains(figure), "\(name) at 40×20 lacks \(figure):\n\(text)") }
            }
            let paid = try #require(try await api.paidOrders(page: 0, size: 10).first)
            for (name, text) in paidScreens {
                var wanted = [Format.count(paid.items.count, .nfts) + " · paid with " + paid.currencyName]
                if name == "my-orders" { wanted.append(Format.price(paid.total)) }
                if name == "order" {
                    wanted.append("Total: \(Format.price(paid.total))")
                    wanted += paid.items.prefix(2).map { Format.price($0.price) }
                    wanted += paid.items.prefix(2).compactMap { item in nfts.first { $0.id == item.nft }?.name }
                }
                for figure in wanted { #expect(text.contains(figure), "\(name) at 40×20 lacks \(figure):\n\(text)") }
            }
            #expect(paidScreens.count == 2)
        }
    }
}
