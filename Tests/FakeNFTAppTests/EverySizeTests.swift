import FakeNFTCore
import Foundation
import Testing
import TerminalUI
import FakeNFTTesting
@testable import FakeNFTApp

/// Every screen at the smallest size the app accepts, the classic one, a large one and a very
/// wide one, as text snapshots: what is cut, scrolled or spread is reviewed in one place.
@MainActor @Suite(.serialized) struct EverySizeTests {
    static let sizes = [
        Size(width: 60, height: 16), Size(width: 80, height: 24), Size(width: 120, height: 40),
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
}
