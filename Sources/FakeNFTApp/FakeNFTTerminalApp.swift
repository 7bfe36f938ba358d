import Localization
import FakeNFTCore
import Foundation
import Logging
import TerminalUI

/// Builds the app on a server and runs it in the terminal.
@MainActor
public enum FakeNFTTerminalApp {
    /// The four tabs on `context`.
    public static func makeShell(context: AppContext) -> AppShell {
        let state = context.state
        return AppShell(tabs: [
            AppShell.Tab(title: tr(.tabCatalog), root: CatalogScreen(model: CatalogViewModel(context: context))),
            AppShell.Tab(title: tr(.tabCart), root: CartScreen(model: CartViewModel(context: context)), badge: { state.cart?.count }),
            AppShell.Tab(title: tr(.tabProfile), root: ProfileScreen(model: ProfileViewModel(context: context))),
            AppShell.Tab(title: tr(.tabStatistics), root: StatisticsScreen(model: StatisticsViewModel(context: context))),
        ], effects: context.effects, pictures: context.pictures)
    }

    /// Runs until the user quits; returns the signal that ended it, if one did.
    /// - Parameters:
    ///   - graphics: what the terminal shows pictures with (``TerminalProbe``, before curses starts).
    ///   - theme: the colours for the terminal's background.
    ///   - notices: problems to show once the app is up (a configuration value that was ignored).
    public static func run(api configuration: APIConfiguration, mouse: Bool, graphics: TerminalGraphics, theme: Theme = .dark,
                           symbols: CharacterArt.Symbols = .blocks, notices: [String] = [],
                           logger: Logger = Logger(label: "fakenft") { _ in SwiftLogNoOpLogHandler() }) async throws -> Int32? {
        let session = try TerminalSession(options: .init(mouse: mouse, theme: theme))
        defer { session.shutdown() }
        var graphics = graphics
        if graphics.mode == .kitty, session.colors != .full {
            graphics.mode = .symbols
            logger.info("pictures: symbols (kitty placeholders carry the image in a 256-colour foreground, and this terminal has fewer colours)")
        }
        let pixels = graphics.mode.isPixels ? PixelImages(graphics: graphics) : nil
        session.surface.pixels = pixels
        let services = Services(api: APIClient(configuration, logger: logger),
                                preferences: PreferencesStore(fileURL: PreferencesStore.defaultURL()))
        let effects = Effects(clipboard: { session.copyToClipboard($0) }, browser: Browser.open)
        let pictures = Pictures(loader: ImageLoader(disk: ImageDiskCache(directory: ImageDiskCache.defaultDirectory())),
                                palette: graphics.mode == .off ? nil : CharacterArt.Palette.for(session.colors), symbols: symbols,
                                cellAspect: Double(graphics.cellPixels.width) / Double(graphics.cellPixels.height), pixels: pixels)
        let context = AppContext(services: services, effects: effects, pictures: pictures)
        let loop = AppLoop(session: session, shell: makeShell(context: context))
        if !notices.isEmpty {   // each said on stderr before the screen was taken; `fakenft config` says them again
            effects.show(Toast(trPlural(.configProblems, notices.count), kind: .error, duration: 8))
        }
        await context.state.start()
        await loop.run()
        await context.state.finishWrites()
        context.state.stop()
        return session.exitSignal
    }
}
