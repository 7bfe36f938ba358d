import FakeNFTCore
import Foundation
import Testing
import FakeNFTTesting

extension EndToEnd {
    /// The app in Russian, chosen by `LANG=ru_RU.UTF-8` alone, on the real binary in tmux against
    /// `fakenft serve`: every label in Russian, plurals and prices (decimal comma) as Russian writes
    /// them, every figure the server's.
    @Suite struct RussianJourneyEndToEndTests {
        static func price(_ value: Double) -> String {
            String(format: "%.2f ETH", value).replacingOccurrences(of: ".", with: ",")
        }

        @Test func browseBuyAndLookAroundInRussian() async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            let server = try await tmux.startServer()
            let api = APIClient(APIConfiguration(baseURL: server))
            try await tmux.type("export LANG=ru_RU.UTF-8")
            try await tmux.launchApp("--server \(server.absoluteString)", waitingFor: "9 коллекций, по числу NFT")
            var screen = try await tmux.waitFor("1 Каталог   2 Корзина [3]   3 Профиль   4 Статистика")
            #expect(screen.contains("Enter открыть  s сортировка  / поиск  ? справка  q выход"))
            let collections = try await api.collectionsInCatalogOrder()
            for collection in collections.prefix(3) {
                #expect(screen.contains("\(collection.name) (\(collection.nfts.count))"))
            }

            try await tmux.keys("Down", "Enter")
            let collection = collections[1]
            try await tmux.waitFor("Каталог › \(collection.name)")
            let nfts = try await collection.nfts.prefix(3).asyncMap { try await api.nft(id: $0) }
            screen = try await tmux.waitUntil("the grid") { screen in nfts.allSatisfy { screen.contains($0.name) } }
            #expect(screen.contains("Автор коллекции: "))
            for nft in nfts {
                #expect(screen.contains(Self.price(nft.price)), "\(nft.name)'s price with a decimal comma")
            }

            try await tmux.keys("Right", "Enter")
            let nft = nfts[1]
            let author = try await api.user(id: nft.author).name
            screen = try await tmux.waitUntil("the NFT's facts") { $0.contains("Автор: \(author)") }
            #expect(screen.contains("Коллекция: \(collection.name)"))
            #expect(screen.contains("Цена: \(Self.price(nft.price))"))
            let inCart = try await api.order().nfts.contains(nft.id)
            try await tmux.keys("c")
            screen = try await tmux.waitFor(inCart ? "[+ в корзину]" : "[✕ в корзине]")

            try await tmux.keys("2")  // the Cart tab, from the NFT screen too
            var order = try await api.order()
            _ = try await polled {
                order = try await api.order()
                return order.nfts.contains(nft.id) != inCart
            }
            let items = try await order.nfts.asyncMap { try await api.nft(id: $0) }
            let total = Self.price(items.reduce(0) { $0 + $1.price })
            screen = try await tmux.waitUntil("the cart: \(items.count) NFT, \(total)") {
                $0.contains("\(items.count) NFT") && $0.contains(total)
            }
            #expect(screen.contains("Корзина [\(items.count)]"))
            #expect(screen.contains("[  Оплатить \(total) (p)  ]"), "the button names the amount")

            try await tmux.keys("?")
            screen = try await tmux.waitFor("Клавиши: Корзина")
            #expect(screen.contains("Убрать из корзины (с вопросом)") && screen.contains("Везде"))
            try await tmux.keys("Escape")
            try await tmux.waitUntil("help closed") { !$0.contains("Клавиши:") }

            try await tmux.keys("4")
            let users = try await api.users(page: 0, size: 1000)
            screen = try await tmux.waitFor("Пользователи по рейтингу, всего \(users.count)")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            try await tmux.type("kill %1")
        }
    }
}
