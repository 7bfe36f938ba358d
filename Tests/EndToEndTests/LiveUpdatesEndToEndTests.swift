import FakeNFTCore
import Foundation
import Testing
import FakeNFTTesting

extension EndToEnd {
    /// Two terminals signed in to one account on `fakenft serve`: a like and a cart change made in
    /// one show in the other without a key pressed there.
    @Suite struct LiveUpdatesEndToEndTests {
        static let email = "twin@example.com", password = "secret 12"

        /// Starts the app in `tmux` on `server` and signs in (after skipping onboarding).
        func signIn(_ tmux: Tmux, _ server: URL) async throws {
            try await tmux.launchApp(
                "--server \(server.absoluteString)", waitingFor: "Welcome to FakeNFT", throughWelcome: false)
            try await tmux.keys("s")
            try await tmux.waitFor("Continue without an account")
            try await tmux.run(["send-keys", "-t", tmux.session, "-l", Self.email])
            try await tmux.keys("Enter")
            try await tmux.run(["send-keys", "-t", tmux.session, "-l", Self.password])
            try await tmux.keys("Enter")
            try await tmux.waitFor("Signed in as Twin")
        }

        @Test func aLikeAndACartChangeInOneTerminalShowInTheOther() async throws {
            let one = try await Tmux(width: 100, height: 30), other = try await Tmux(width: 100, height: 30)
            let server = try await one.startServer()
            _ = try await APIClient(APIConfiguration(baseURL: server)).signUp(
                name: "Twin", email: Self.email, password: Self.password)
            try await signIn(one, server)
            try await signIn(other, server)
            try await other.keys("3")
            try await other.waitFor("Favorite NFTs (0)")
            let api = APIClient(APIConfiguration(baseURL: server))
            let biggest = try await api.collectionsInCatalogOrder()[0]
            let first = try await api.nft(id: biggest.nfts[0])
            try await one.keys("Enter")  // the biggest collection
            try await one.waitFor(first.name)
            try await one.keys("l")  // like its first NFT
            try await other.waitFor("Favorite NFTs (1)")  // shown in the other terminal, no key pressed there
            try await one.keys("c")  // and into the cart
            try await other.waitFor("Cart [1]")
            for tmux in [one, other] {
                try await tmux.keys("q")
                try await tmux.waitFor("EXIT=0")
            }
            try await one.type("kill %1")
        }
    }
}
