import FakeNFTCore
import Foundation
import Testing
import TerminalUI
import FakeNFTTesting
@testable import FakeNFTApp

/// An app context on a test server, without colours (pictures are placeholders, so snapshots are plain text).
/// With `clock`, its toasts and requests keep the time the test moves; else the continuous clock
/// with the generous time of `server.client()` (a loaded machine is slow, not wrong: 3 s failed
/// there; the unreachable default fails at once anyway).
@MainActor
func makeContext(
    _ server: (any ServerUnderTest)?, baseURL: URL? = nil, preferences: URL? = nil, readOnly: Bool = false,
    clock: TestClock? = nil
) -> AppContext {
    let base = baseURL ?? URL(string: "http://127.0.0.1:1")!
    let file =
        preferences ?? FileManager.default.temporaryDirectory.appendingPathComponent("prefs-\(UUID().uuidString).json")
    let time = clock.map(AppClock.init) ?? .continuous
    let services = Services(
        api: server?.client(timeout: 60, clock: time)
            ?? APIClient(APIConfiguration(baseURL: base, timeout: 60), clock: time),
        preferences: PreferencesStore(fileURL: file))
    return AppContext(
        services: services, effects: .toastsOnly(clock: time), pictures: .placeholders(), readOnly: readOnly)
}

/// The four tabs on `server` signed in as `account` (its token on every request), started, on
/// its Profile; `signInKey` is the SSH key a session signed in with.
@MainActor
func signedInApp(_ server: any ServerUnderTest, as account: Account, signInKey: String? = nil) async throws
    -> (AppContext, AppShell, ProfileScreen)
{
    var configuration = APIConfiguration(baseURL: server.baseURL, timeout: 60)
    configuration.token = account.token
    let services = Services(
        api: APIClient(configuration),
        preferences: PreferencesStore(
            fileURL: FileManager.default.temporaryDirectory.appendingPathComponent("prefs-\(UUID().uuidString).json")))
    let context = AppContext(
        services: services, effects: .toastsOnly(), pictures: .placeholders(), account: account,
        offersAccounts: true, signInKey: signInKey)
    let shell = FakeNFTTerminalApp.makeShell(context: context)
    await context.state.start()
    _ = shell.handle(.key(.char("3")))
    return (context, shell, try #require(shell.currentScreen as? ProfileScreen))
}

/// Renders the shell into a cell grid; spinner frames are masked so snapshots are stable.
@MainActor
func frame(_ shell: AppShell, _ size: Size) -> String {
    var buffer = Buffer(size: size)
    shell.render(into: &buffer)
    var text = buffer.text()
    for spinner in Spinner.frames { text = text.replacingOccurrences(of: spinner, with: "*") }
    // a paid order's time is the test's own: the same in every snapshot
    return text.replacing(/20\d\d-\d\d-\d\d \d\d:\d\d/, with: "2026-01-02 03:04")
}

/// The four tabs on `server`, started, with the cart, the profile and the catalog loaded.
@MainActor
func startedApp(_ server: any ServerUnderTest, readOnly: Bool = false, clock: TestClock? = nil) async throws
    -> (AppContext, AppShell)
{
    let context = makeContext(server, readOnly: readOnly, clock: clock)
    let shell = FakeNFTTerminalApp.makeShell(context: context)
    await context.state.start()
    #expect(await eventually { context.state.cart != nil && context.state.profile != nil })
    let catalog = try #require((shell.currentScreen as? CatalogScreen)?.model)
    #expect(await eventually { catalog.collections.value != nil })
    return (context, shell)
}

/// Opens the app on `server` and walks through every screen, menu and dialog, calling `visit`
/// with the shell and the screen's name once the screen shows its data. It ends with a payment
/// and the order it keeps.
@MainActor
func walkEveryScreen(_ server: any ServerUnderTest, visit: (AppShell, String) throws -> Void) async throws {
    let (_, shell) = try await startedApp(server)
    try visit(shell, "catalog")
    _ = shell.handle(.key(.char("?")))
    try visit(shell, "help")
    _ = shell.handle(.key(.escape))
    _ = shell.handle(.key(.char("s")))
    try visit(shell, "sort-menu")
    _ = shell.handle(.key(.escape))
    _ = shell.handle(.key(.enter))
    let collection = try #require(shell.currentScreen as? CollectionScreen)
    #expect(await eventually { collection.model.nfts.value != nil && collection.model.author.name != "…" })
    try visit(shell, "collection")
    _ = shell.handle(.key(.enter))
    let nft = try #require(shell.currentScreen as? NFTScreen)
    #expect(await eventually { nft.model.collectionName != nil && nft.model.author.name != "…" })
    try visit(shell, "nft")
    _ = shell.handle(.key(.tab))  // on the NFT screen 1-3 choose its picture
    let cart = try #require((shell.currentScreen as? CartScreen)?.model)
    #expect(await eventually { cart.visibleItems.count == 3 })
    try visit(shell, "cart")
    _ = shell.handle(.key(.char("d")))
    try visit(shell, "cart-remove")
    _ = shell.handle(.key(.escape))
    _ = shell.handle(.key(.char("p")))
    let payment = try #require(shell.currentScreen as? PaymentScreen)
    #expect(await eventually { payment.model.currencies.value != nil })
    try visit(shell, "payment")
    _ = shell.handle(.key(.char("3")))
    let profile = try #require(shell.currentScreen as? ProfileScreen)
    #expect(await eventually { profile.model.wallet.value != nil && profile.model.orders.value != nil })
    try visit(shell, "profile")
    _ = shell.handle(.key(.char("e")))
    try visit(shell, "profile-form")
    _ = shell.handle(.key(.escape))
    _ = shell.handle(.key(.enter))
    let mine = try #require(shell.currentScreen as? MyNFTsScreen)
    #expect(await eventually { mine.model.owned.value != nil && !mine.model.authorNames.isEmpty })
    try visit(shell, "my-nfts")
    _ = shell.handle(.key(.escape))
    _ = shell.handle(.key(.down))
    _ = shell.handle(.key(.enter))
    let favorites = try #require(shell.currentScreen as? FavoritesScreen)
    #expect(await eventually { favorites.model.fetched.value != nil })
    try visit(shell, "favorites")
    _ = shell.handle(.key(.char("4")))
    let statistics = try #require((shell.currentScreen as? StatisticsScreen)?.model)
    #expect(await eventually { !statistics.users.isEmpty && statistics.total != nil })
    try visit(shell, "statistics")
    _ = shell.handle(.key(.enter))
    try visit(shell, "user")
    _ = shell.handle(.key(.down))
    _ = shell.handle(.key(.enter))
    let userNFTs = try #require(shell.currentScreen as? UserCollectionScreen)
    #expect(await eventually { userNFTs.model.nfts.value != nil })
    try visit(shell, "user-nfts")
    _ = shell.handle(.key(.char("2")))
    _ = shell.handle(.key(.char("p")))
    let paying = try #require(shell.currentScreen as? PaymentScreen)
    #expect(await eventually { paying.model.currencies.value != nil })
    _ = shell.handle(.key(.char("p")))
    // the emptied order reaches the cart's badge on the main actor's next turn
    #expect(await eventually { paying.model.outcome == .succeeded && paying.model.context.state.cartIDs.isEmpty })
    try visit(shell, "payment-success")
    _ = shell.handle(.key(.char("3")))
    _ = shell.handle(.key(.escape))  // Favorites, left open above the profile
    #expect(shell.currentScreen is ProfileScreen)
    _ = shell.handle(.key(.home))
    _ = shell.handle(.key(.down))
    _ = shell.handle(.key(.down))
    _ = shell.handle(.key(.enter))
    let orders = try #require(shell.currentScreen as? OrdersScreen)
    #expect(await eventually { orders.model.orders.value?.isEmpty == false })
    try visit(shell, "my-orders")
    _ = shell.handle(.key(.enter))
    let order = try #require(shell.currentScreen as? OrderScreen)
    #expect(await eventually { order.model.catalog.value != nil })
    try visit(shell, "order")
}

extension LoopContent {
    /// A frame drawn and shown, as the loop does.
    func render(into buffer: inout Buffer) {
        draw(into: &buffer)
        shown(buffer)
    }
}
