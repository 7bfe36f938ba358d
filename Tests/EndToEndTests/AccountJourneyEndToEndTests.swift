import FakeNFTCore
import Foundation
import Testing
import FakeNFTTesting

extension EndToEnd {
    /// A new user's whole way on the real binary against `fakenft serve`: the first start's
    /// onboarding, signing up, buying an NFT, finding themselves in Statistics with it, signing out
    /// and in again to the same profile; after each step the screen is checked against the server.
    @Suite struct AccountJourneyEndToEndTests {
        static let email = "anna@example.com", password = "secret 12", name = "Anna Terminal"

        @Test func firstStartSignUpBuyRankSignOutAndBackIn() async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            let server = try await tmux.startServer()
            let api = APIClient(APIConfiguration(baseURL: server))
            try await tmux.launchApp(
                "--server \(server.absoluteString)", waitingFor: "Welcome to FakeNFT", throughWelcome: false)
            try await tmux.keys("Right")
            try await tmux.waitFor("Moving and buying")
            try await tmux.keys("Right")
            try await tmux.waitFor("Four tabs")
            try await tmux.keys("Right")
            try await tmux.waitFor("Your privacy")
            try await tmux.keys("Enter")  // Finish
            try await tmux.waitFor("Continue without an account")

            // Sign up: the Sign in / Sign up row, its other side, its first field.
            try await tmux.keys("Up", "Right", "Enter")
            for text in [Self.name, Self.email, Self.password, Self.password] {
                try await tmux.run(["send-keys", "-t", tmux.session, "-l", text])
                try await tmux.keys("Enter")
            }
            try await tmux.waitFor("Signed in as \(Self.name)")
            let signedIn = try await api.signIn(email: Self.email, password: Self.password)
            var mine = APIConfiguration(baseURL: server)
            mine.token = signedIn.token
            let account = APIClient(mine)
            let saved = try tmux.file(".local/state/fakenft/account.json")
            #expect(saved.contains("fnft_") && !saved.contains(Self.password))
            let appsToken = try #require(
                try JSONDecoder().decode(SavedSignIn.self, from: Data(saved.utf8)).account?.token)
            let mode =
                try FileManager.default.attributesOfItem(
                    atPath: tmux.directory.appendingPathComponent(".local/state/fakenft/account.json").path)[
                    .posixPermissions] as? Int
            #expect(mode == 0o600)

            // A new account's cart is empty: the shared profile's three NFTs are not its own.
            let tabs = try await tmux.screen()
            #expect(tabs.contains("2 Cart ") && !tabs.contains("Cart [3]"))
            try await tmux.keys("Enter")  // the biggest collection
            let collections = try await api.collectionsInCatalogOrder()
            let first = try await api.nft(id: collections[0].nfts[0])
            try await tmux.waitFor(first.name)
            try await tmux.keys("c")  // its first NFT into the cart
            try await tmux.waitFor("Cart [1]")
            var order = try await account.order()
            _ = try await polled {  // the badge is drawn before the server answers
                order = try await account.order()
                return order.nfts == [first.id]
            }
            #expect(order.nfts == [first.id])
            #expect(try await api.order().nfts.count == 3, "the shared cart did not change")
            try await tmux.keys("2")
            try await tmux.waitUntil("the cart with \(first.name)") {
                $0.contains("Sorted by") && $0.contains("1 NFT") && $0.contains(String(format: "%.2f ETH", first.price))
            }
            try await tmux.keys("p")
            try await tmux.waitFor("Bitcoin")
            try await tmux.keys("p")  // Bitcoin succeeds
            try await tmux.waitFor("congratulations on your purchase!")
            #expect(try await account.profile().nfts == [first.id])
            try await tmux.keys("Enter")
            try await tmux.waitFor("Rate FakeNFT")  // a first payment asks, once its success is left
            try await tmux.keys("n")
            try await tmux.waitUntil("the prompt gone") { !$0.contains("Rate FakeNFT") }

            // Statistics: the account is a user with one NFT.
            try await tmux.keys("4")
            try await tmux.waitFor("Users by rating")
            try await tmux.keys("/")
            try await tmux.run(["send-keys", "-t", tmux.session, "-l", "Terminal"])
            let everyone = try await api.users(page: 0, size: 10_000).count
            var screen = try await tmux.waitFor("1 of \(everyone) users, search: Terminal")
            #expect(screen.contains(Self.name) && screen.contains("1 NFT"))
            let user = try await api.user(id: signedIn.userId)
            #expect(user.nfts == [first.id] && user.rating == String(Int(first.price.rounded())))
            try await tmux.keys("Escape")

            // Profile: the wallet, then Log out.
            try await tmux.keys("3")
            screen = try await tmux.waitFor("Wallet: 1 NFT worth \(String(format: "%.2f ETH", first.price))")
            #expect(screen.contains(Self.name) && screen.contains("My NFTs (1)"))
            try await tmux.keys("End", "Enter")  // Log out, the last row
            try await tmux.waitFor("Log out of \(Self.email)?")
            try await tmux.keys("y")
            try await tmux.waitFor("Signed out")
            #expect(
                !FileManager.default.fileExists(
                    atPath: tmux.directory.appendingPathComponent(".local/state/fakenft/account.json").path))
            var appsSession = mine
            appsSession.token = appsToken
            // the app's token ended on the server
            await #expect(throws: APIError.unauthorized) { try await APIClient(appsSession).session() }
            #expect(try await account.session().userId == signedIn.userId, "another sign-in of the account goes on")

            // Sign in again: the same profile.
            try await tmux.run(["send-keys", "-t", tmux.session, "-l", Self.email])
            try await tmux.keys("Enter")
            try await tmux.run(["send-keys", "-t", tmux.session, "-l", Self.password])
            try await tmux.keys("Enter")
            try await tmux.waitFor("Signed in as \(Self.name)")
            try await tmux.keys("3")
            screen = try await tmux.waitFor("My NFTs (1)")
            #expect(screen.contains(Self.name))
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")

            // A second start: no onboarding, still signed in (the tabs say so; a saved sign-in is no news for a toast).
            try await tmux.launchApp(
                "--server \(server.absoluteString)", waitingFor: "9 collections", throughWelcome: false)
            screen = try await tmux.screen()
            #expect(!screen.contains("Welcome to FakeNFT") && !screen.contains("Signed in as"))
            try await tmux.keys("3")
            screen = try await tmux.waitFor("My NFTs (1)")
            #expect(screen.contains(Self.name))
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            try await tmux.type("kill %1")
        }
    }
}
