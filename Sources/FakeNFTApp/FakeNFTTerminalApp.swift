import FakeNFTCore
import Foundation
import Logging
import TerminalUI

/// Builds the app on a server and runs it in the terminal.
@MainActor
public enum FakeNFTTerminalApp {
    /// The four tabs on `context`.
    public static func makeShell(context: AppContext) -> AppShell {
        let shell = AppShell(tabs: [
            AppShell.Tab(title: "Catalog", root: CatalogScreen(model: CatalogViewModel(context: context))),
            AppShell.Tab(title: "Cart", root: CartScreen(model: CartViewModel(context: context)), badge: { [weak context] in context?.cart.count }),
            AppShell.Tab(title: "Profile", root: ProfileScreen(model: ProfileViewModel(context: context))),
            AppShell.Tab(title: "Statistics", root: RatingScreen(model: RatingViewModel(context: context))),
        ])
        context.showToast = { [weak shell, weak context] toast in
            shell?.show(toast)
            context?.invalidate()
        }
        return shell
    }

    /// Runs until the user quits; returns the signal that ended it, if one did.
    public static func run(api configuration: APIConfiguration, mouse: Bool,
                           logger: Logger = Logger(label: "fakenft") { _ in SwiftLogNoOpLogHandler() }) async throws -> Int32? {
        let session = try TerminalSession(options: .init(mouse: mouse))
        defer { session.shutdown() }
        let context = AppContext(api: APIClient(configuration, logger: logger), preferences: PreferencesStore(fileURL: PreferencesStore.defaultURL()),
                                 colors: session.colors != .none)
        let shell = makeShell(context: context)
        let loop = AppLoop(session: session, shell: shell)
        context.invalidate = { loop.invalidate() }
        context.copyToClipboard = { session.copyToClipboard($0) }
        await context.start()
        await loop.run()
        context.stop()
        return session.exitSignal
    }
}
