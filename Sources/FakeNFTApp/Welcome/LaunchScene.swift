import FakeNFTCore
import Foundation
import Localization
import Observation
import TerminalUI

/// The launch screen: the app's name and a spinner while the embedded server starts or the
/// `--server` is reached (it says which), drawn only once that takes longer than ``delay`` (a
/// quick start shows nothing). q or Ctrl-C quits.
@MainActor @Observable
final class LaunchScene: LoopContent {
    static let delay: Duration = .milliseconds(150)
    private let clock: AppClock
    /// When the wait began, by ``clock``.
    private let started: Duration
    private(set) var isFinished = false
    /// The server's address (`host:port`) when it is not the embedded one.
    private let server: String?

    /// - Parameter clock: what ``delay`` is measured by (a test moves its own past it).
    init(server: URL? = nil, clock: AppClock = .continuous) {
        self.clock = clock
        started = clock.elapsed()
        self.server = server.map { url in url.port.map { "\(url.host ?? ""):\($0)" } ?? url.host ?? url.absoluteString }
    }

    /// Marks the start done: the loop moves on.
    func finish() { isFinished = true }

    var isAnimating: Bool { !isFinished }

    func handle(_ event: TerminalEvent) -> Bool {
        if case .key(let key) = event, ShellKeys.map.action(for: key) == .quit { return false }
        return true
    }

    func draw(into buffer: inout Buffer) {
        // Read first, so that the frame's observation wakes the loop the moment the start is done
        // (not at the clock's next tick, up to 100 ms later).
        guard !isFinished, clock.elapsed() - started >= Self.delay else { return }
        let size = buffer.size
        let name = "FakeNFT",
            status = "\(Spinner.frame(in: buffer)) \(server.map { tr(.launchConnecting, $0) } ?? tr(.launchStarting))"
        buffer.draw(
            name, at: Point(x: max(0, (size.width - DisplayWidth.of(name)) / 2), y: size.height / 2 - 1),
            style: .accent, maxWidth: size.width)
        buffer.draw(
            status, at: Point(x: max(0, (size.width - DisplayWidth.of(status)) / 2), y: size.height / 2 + 1),
            style: .dim, maxWidth: size.width)
    }
}
