import FakeNFTCore
import Foundation
import Hummingbird
import Localization
import Testing
import TerminalUI
import FakeNFTSnapshots
import FakeNFTTesting
@testable import FakeNFTApp

@MainActor @Suite struct ProfileTests {
    func makeApp(_ server: any ServerUnderTest) async -> (AppContext, AppShell, ProfileScreen) {
        let context = makeContext(server)
        let screen = ProfileScreen(model: ProfileViewModel(context: context))
        let shell = AppShell(
            tabs: [AppShell.Tab(title: "Profile", root: screen)], effects: context.effects, pictures: context.pictures)
        await context.state.start()
        #expect(await eventually { context.state.profile != nil }, "the profile loaded")
        return (context, shell, screen)
    }

    func type(_ text: String, into shell: AppShell) { for c in text { _ = shell.handle(.key(.char(c))) } }

    @Test func profileAndEditFormWithValidation() async throws {
        try await InProcessTestServer.with(imageLinks: .local(publicURL: URL(string: "http://images.test"))) {
            server async throws in  // the form shows the avatar link: a fixed one for the snapshot
            let (context, shell, screen) = await makeApp(server)
            // The wallet: the NFTs owned and what they are worth, from the server's prices.
            #expect(await eventually { screen.model.wallet.value != nil })
            let owned = try await server.get("/api/v1/profile/1", as: Profile.self).nfts
            var worth = 0.0
            for id in owned { worth += try await server.get("/api/v1/nft/\(id)", as: NFT.self).price }
            #expect(
                frame(shell, Size(width: 80, height: 24)).contains(
                    "Wallet: \(Format.count(owned.count, .nfts)) worth \(Format.price(worth))"))
            // My orders counts the account's paid orders, as the server lists them.
            #expect(await eventually { screen.model.orders.value != nil })
            let paid = try await server.client().paidOrders(page: 0, size: 100).count
            #expect(frame(shell, Size(width: 80, height: 24)).contains("My orders (\(paid))"))
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "profile-80x24")
            assertSnapshot(frame(shell, Size(width: 120, height: 40)), named: "profile-120x40")
            _ = shell.handle(.key(.char("e")))
            _ = shell.handle(.key(.ctrl("u")))  // name emptied: required
            _ = shell.handle(.key(.tab))
            _ = shell.handle(.key(.tab))
            _ = shell.handle(.key(.ctrl("u")))
            type("ftp://nope", into: shell)  // not http(s)
            #expect(screen.model.form?.isValid == false)
            assertSnapshot(frame(shell, Size(width: 120, height: 40)), named: "profile-form-errors-120x40")
            _ = shell.handle(.key(.ctrl("s")))
            #expect(await eventually { screen.model.formError?.message == "Fix the marked fields first." })
            // Esc with changes asks; Stay keeps the typed text.
            _ = shell.handle(.key(.escape))
            #expect(frame(shell, Size(width: 80, height: 24)).contains("Discard changes?"))
            _ = shell.handle(.key(.escape))
            #expect(screen.model.form?.text(.website) == "ftp://nope")
            // Fix and save: only the changed fields are sent.
            _ = shell.handle(.key(.ctrl("u")))
            type("https://ivan.example", into: shell)
            _ = shell.handle(.key(.backTab))
            _ = shell.handle(.key(.backTab))
            type("Иван 日本", into: shell)
            _ = shell.handle(.key(.tab))
            _ = shell.handle(.paste(" — ещё\u{1B}[31m!"))
            #expect(
                screen.model.form?.changes
                    == ProfileUpdate(
                        name: "Иван 日本", description: "Прошел 5-й спринт, и этот пройду — ещё!",
                        website: "https://ivan.example"))
            for _ in 0..<3 { _ = shell.handle(.key(.tab)) }  // description → website → avatar → Save
            #expect(screen.model.form?.saveFocused == true)
            _ = shell.handle(.key(.enter))
            #expect(await eventually { screen.model.form == nil })
            let saved = try await server.client().profile()
            #expect(saved.name == "Иван 日本" && saved.website == "https://ivan.example" && saved.likes.count == 12)
            #expect(context.state.profile?.name == "Иван 日本")
        }
    }

    /// A field's problem is whole at every size in both languages: beside the field where it fits
    /// there, else under it (from the label's column where it would be cut under the field).
    @Test(arguments: [Language.en, .ru]) func theFormsProblemsAreWholeAtEverySize(_ language: Language) async throws {
        try await Language.with(language) {
            try await InProcessTestServer.with { server async throws in
                let (_, shell, screen) = await makeApp(server)
                @MainActor func expectWhole(_ problem: String) {
                    for size in [
                        Size(width: 40, height: 20), Size(width: 80, height: 24), Size(width: 95, height: 30),
                        Size(width: 120, height: 40), Size(width: 200, height: 60),
                    ] {
                        let text = frame(shell, size)
                        #expect(text.contains("✗ " + problem), "'\(problem)' cut at \(size):\n\(text)")
                    }
                }
                _ = shell.handle(.key(.char("e")))
                _ = shell.handle(.key(.ctrl("u")))  // the name emptied: required
                expectWhole(tr(.nameRequired))
                _ = shell.handle(.key(.tab))
                _ = shell.handle(.key(.tab))
                _ = shell.handle(.key(.ctrl("u")))
                type("ftp://nope", into: shell)
                #expect(screen.model.form?.error(.website) == tr(.mustBeURL))
                expectWhole(tr(.mustBeURL))
            }
        }
    }

    @Test func serverErrorKeepsTheFormAndTheText() async throws {
        let server = try await TestServer.start()
        let (_, shell, screen) = await makeApp(server)
        _ = shell.handle(.key(.char("e")))
        type(" Jr", into: shell)
        await server.stop()
        _ = shell.handle(.key(.ctrl("s")))
        #expect(await eventually { screen.model.formError?.message.hasPrefix("Not saved:") == true })
        #expect(screen.model.form?.text(.name) == "Студентус Практикумус Jr")
    }

    @Test func myNFTsSortedAndFavoritesUnlike() async throws {
        try await InProcessTestServer.with { server async throws in
            let (context, shell, _) = await makeApp(server)
            _ = shell.handle(.key(.enter))  // My NFTs
            let mine = try #require(shell.currentScreen as? MyNFTsScreen)
            #expect(await eventually { mine.model.owned.value != nil && !mine.model.authorNames.isEmpty })
            let ratings = mine.model.items.map(\.rating)
            #expect(ratings == ratings.sorted(by: >), "default: by rating")
            #expect(mine.model.items.count == 13)
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "my-nfts-by-rating-80x24")
            _ = shell.handle(.key(.escape))
            _ = shell.handle(.key(.down))
            _ = shell.handle(.key(.enter))  // Favorites
            let favorites = try #require(shell.currentScreen as? FavoritesScreen)
            #expect(await eventually { favorites.model.fetched.value != nil })
            #expect(favorites.model.items.count == 12)
            assertSnapshot(frame(shell, Size(width: 120, height: 40)), named: "favorites-120x40")
            let first = favorites.model.items[0]
            _ = shell.handle(.key(.char("l")))
            #expect(
                favorites.model.items.count == 11 && !favorites.model.items.contains(first), "left the grid at once")
            #expect(!context.state.likes.contains(first.id), "Catalog sees the same likes")
            let after = frame(shell, Size(width: 120, height: 40))
            #expect(after.components(separatedBy: "♥").count - 1 == 11)
        }
    }

    @Test func emptyStates() async throws {
        try await InProcessTestServer.with { server async throws in
            #expect(try await server.request("PUT", "/api/v1/profile/1", body: "likes=null").status == 200)
            let (_, shell, _) = await makeApp(server)
            _ = shell.handle(.key(.down))
            _ = shell.handle(.key(.enter))
            let favorites = try #require(shell.currentScreen as? FavoritesScreen)
            #expect(await eventually { favorites.model.fetched.value != nil })
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "favorites-empty-80x24")
        }
        // The API cannot take NFTs away from a profile: a server whose profile owns none.
        try await withRouter(Self.serving(profileOwning: [])) { url in
            let services = Services(
                api: APIClient(APIConfiguration(baseURL: url, timeout: 3)),
                preferences: PreferencesStore(
                    fileURL: FileManager.default.temporaryDirectory.appendingPathComponent(
                        "prefs-\(UUID().uuidString).json")))
            let mine = MyNFTsScreen(
                model: MyNFTsViewModel(
                    context: AppContext(services: services, effects: .toastsOnly(), pictures: .placeholders())))
            await mine.model.load()
            var buffer = Buffer(size: Size(width: 80, height: 24))
            mine.render(in: Rect(size: buffer.size), buffer: &buffer)
            #expect(buffer.contains("You have no NFTs yet"))
            assertSnapshot(buffer.text(), named: "my-nfts-empty-80x24")
        }
    }

    /// A server with only a profile, which owns `nfts`: every other path is a 404.
    static func serving(profileOwning nfts: [String]) throws -> Router<BasicRequestContext> {
        let profile = Profile(id: "1", name: "Ann", avatar: "", description: "", website: "", nfts: nfts, likes: [])
        let body = ByteBuffer(bytes: try JSONEncoder().encode(profile))
        let router = Router()
        router.get("api/v1/profile/1") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
        }
        return router
    }

    /// What a screen reads besides its own data, and cannot, is said (a toast with the reason) and
    /// shown as unknown, never left at "…": the wallet's prices, the users' places, an NFT's collection.
    @Test func secondaryReadsThatFailAreSaid() async throws {
        // A profile owning NFT 1, and nothing else: every other read is a 404.
        try await withRouter(Self.serving(profileOwning: ["1"])) { url in
            let context = makeContext(nil, baseURL: url)
            let profile = ProfileScreen(model: ProfileViewModel(context: context))
            await profile.model.loadWallet()
            #expect(profile.model.wallet.failure == .notFound)
            #expect(
                context.effects.toast?.message == "Could not read the prices of your NFTs: Not found on the server.")
            var buffer = Buffer(size: Size(width: 80, height: 24))
            profile.render(in: Rect(size: buffer.size), buffer: &buffer)
            #expect(buffer.contains("Wallet: 1 NFT worth unknown"), "\(buffer.text())")

            let statistics = StatisticsViewModel(context: context)
            statistics.setSort(.name)  // places come from the whole rating only in other orders
            let user = User(id: "7", name: "Ann", avatar: "", description: nil, website: "", nfts: [], rating: "1")
            #expect(statistics.place(of: user, at: 0) == "…", "while the rating is read")
            await statistics.loadPlaces()
            #expect(context.effects.toast?.message == "Could not read the users' places: Not found on the server.")
            #expect(statistics.place(of: user, at: 0) == "?", "unknown, not coming")

            let nft = NFT(
                id: "1", name: "April", images: [], rating: 1, description: "", price: 1, author: "", createdAt: "")
            let model = NFTViewModel(nft: nft, context: context)
            await model.load()
            #expect(model.collectionName == "unknown")
            #expect(context.effects.toast?.message == "Could not find the NFT's collection: Not found on the server.")
        }
        // Offline, the breadcrumb says so once: no toast for each of them, and the places are unknown.
        let offline = makeContext(nil)
        let statistics = StatisticsViewModel(context: offline)
        statistics.setSort(.name)
        await statistics.loadPlaces()
        let user = User(id: "7", name: "Ann", avatar: "", description: nil, website: "", nfts: [], rating: "1")
        #expect(statistics.place(of: user, at: 0) == "?")
        #expect(offline.effects.toast == nil && offline.state.freshness == .offline)
    }

    /// My NFTs opened before the profile arrived waits for it: never "You have no NFTs yet" for
    /// a profile that was simply not loaded.
    @Test func myNFTsWaitForTheProfile() async throws {
        try await InProcessTestServer.with { server async throws in
            let mine = MyNFTsViewModel(context: makeContext(server))  // nothing loaded yet
            await mine.load()
            #expect(mine.items.count == 13)
        }
    }
}

/// A profile with control characters (a hostile server): the form shows it cleaned, and opening
/// and closing it changes nothing.
@Suite struct ProfileFormSanitizingTests {
    @Test func untouchedFieldsAreNotChanges() {
        let profile = Profile(
            id: "1", name: " Name\u{1B}[31m ", avatar: "https://a.example/\u{1B}[201~\nrm -rf ~\n",
            description: "d\u{202E}" + String(repeating: "x", count: 600), website: "--version", nfts: [], likes: [])
        var form = ProfileForm(profile: profile)
        #expect(!form.hasChanges)
        #expect(!form.text(.name).contains("\u{1B}") && !form.text(.avatar).contains("\n"))
        form.editors[.name]?.insert("!")
        #expect(
            form.changes == ProfileUpdate(name: form.text(.name).trimmingCharacters(in: .whitespaces)),
            "only the edited field")
    }
}
