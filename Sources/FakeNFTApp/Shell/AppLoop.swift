import Observation
import TerminalUI

/// The main loop: waits for terminal events or model changes, updates the shell, and shows a
/// new frame only when it differs from the last one (one `doupdate` per frame).
///
/// Each frame is drawn inside `withObservationTracking`: whatever observable state the frame
/// read (view models, app state, the toast) wakes the loop when it changes, so nothing asks
/// for a redraw by hand.
@MainActor
final class AppLoop {
    private enum Input { case event(TerminalEvent), redraw, ended }

    private let session: TerminalSession
    let shell: AppShell
    private let inputs: AsyncStream<Input>
    private let continuation: AsyncStream<Input>.Continuation
    private let presenter: FramePresenter
    private var ticker: Task<Void, Never>?

    init(session: TerminalSession, shell: AppShell) {
        self.session = session
        self.shell = shell
        presenter = FramePresenter(surface: session.surface)
        (inputs, continuation) = AsyncStream.makeStream(of: Input.self, bufferingPolicy: .unbounded)
    }

    /// Runs until the user quits or a quit signal arrives.
    func run() async {
        let events = session.events()
        let continuation = self.continuation
        let forward = Task {
            for await event in events { continuation.yield(.event(event)) }
            continuation.yield(.ended)
        }
        defer {
            forward.cancel()
            ticker?.cancel()
        }
        renderIfChanged()
        for await input in inputs {
            switch input {
            case .ended: return
            case .event(let event):
                if !shell.handle(event) { return }
            case .redraw:
                shell.expireToast()
            }
            renderIfChanged()
        }
    }

    /// Shows the shell's frame if it changed, watching what it read; keeps the clock running
    /// while something animates.
    func renderIfChanged() {
        let continuation = self.continuation
        withObservationTracking {
            presenter.present(size: session.size) { shell.render(into: &$0) }
        } onChange: {
            continuation.yield(.redraw)
        }
        updateTicker()
    }

    /// Keeps a clock running only while something animates: no CPU is used while idle.
    private func updateTicker() {
        if shell.isAnimating {
            guard ticker == nil else { return }
            let continuation = self.continuation
            ticker = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: Spinner.interval)
                    continuation.yield(.redraw)
                }
            }
        } else {
            ticker?.cancel()
            ticker = nil
        }
    }
}
