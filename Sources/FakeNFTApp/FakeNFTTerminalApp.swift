import FakeNFTCore
import Foundation
import TerminalUI

/// Builds the app on a server and runs it in the terminal.
@MainActor
public enum FakeNFTTerminalApp {
    /// Runs until the user quits; returns the signal that ended it, if one did.
    public static func run(api configuration: APIConfiguration, mouse: Bool) async throws -> Int32? {
        let session = try TerminalSession(options: .init(mouse: mouse))
        defer { session.shutdown() }
        let shell = AppShell(tabs: ["Catalog", "Cart", "Profile", "Statistics"].map {
            AppShell.Tab(title: $0, root: PlaceholderScreen(title: $0))
        })
        let loop = AppLoop(session: session, shell: shell)
        await loop.run()
        session.shutdown()
        return session.exitSignal
    }
}
