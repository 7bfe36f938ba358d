import FakeNFTCore
import Foundation
import TerminalUI
import FakeNFTTesting
@testable import FakeNFTApp

/// An app context on a test server, without colours (pictures are placeholders, so snapshots are plain text).
@MainActor
func makeContext(_ server: TestServer?, baseURL: URL? = nil, preferences: URL? = nil) -> AppContext {
    let base = server?.baseURL ?? baseURL ?? URL(string: "http://127.0.0.1:1")!
    let file = preferences ?? FileManager.default.temporaryDirectory.appendingPathComponent("prefs-\(UUID().uuidString).json")
    let services = Services(api: APIClient(APIConfiguration(baseURL: base, timeout: 3)), preferences: PreferencesStore(fileURL: file))
    return AppContext(services: services, effects: .toastsOnly(), pictures: .placeholders())
}

/// Renders the shell into a cell grid; spinner frames are masked so snapshots are stable.
@MainActor
func frame(_ shell: AppShell, _ size: Size) -> String {
    var buffer = Buffer(size: size)
    shell.render(into: &buffer)
    var text = buffer.text()
    for spinner in Spinner.frames { text = text.replacingOccurrences(of: spinner, with: "*") }
    return text
}

/// Waits (without sleeping fixed times) until `condition` holds, up to 5 s.
@MainActor
func eventually(_ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(5)
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}
