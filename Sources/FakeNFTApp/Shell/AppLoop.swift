import FakeNFTCore
import AsyncAlgorithms
import Observation
import TerminalUI

/// What the main loop shows and feeds events to: the launch screen, onboarding and sign-in,
/// then the tabs.
@MainActor
protocol LoopContent: AnyObject {
    /// Handles one event; false ends the app (quit).
    func handle(_ event: TerminalEvent) -> Bool
    /// Draws the content into `buffer` and changes nothing: the loop draws inside observation
    /// tracking, where a write would ask for the next frame at once.
    func draw(into buffer: inout Buffer)
    /// The frame drawn is the one on screen: what the next events act on (clicks, the last
    /// frame's areas) and what it asks for (pictures).
    func shown(_ frame: Buffer)
    /// True while a spinner or a toast needs the clock to redraw.
    var isAnimating: Bool { get }
    /// True once the content is done (signed in, signed out, started): the loop hands over.
    var isFinished: Bool { get }
    /// The clock ticked (while something animates): drop what has expired, such as a toast.
    func clockTicked()
}

extension LoopContent {
    func clockTicked() {}
    func shown(_ frame: Buffer) {}
}

/// What the loop runs on: the terminal's events, its size and the surface frames go to
/// (``TerminalSession``; a headless terminal in tests).
@MainActor
protocol LoopTerminal: AnyObject {
    /// The terminal's events, as each read gave them.
    func events() -> AsyncStream<[TerminalEvent]>
    var size: Size { get }
    var surface: TerminalSurface { get }
}

extension TerminalSession: LoopTerminal {}

/// The main loop: waits for terminal events or model changes, updates the content, and shows a
/// new frame only when it differs from the last one (one write per frame). The events of one
/// read are acted on together and drawn as one frame: a backlog costs one frame, not one a key.
///
/// Each frame is drawn inside `withObservationTracking`: whatever observable state the frame
/// read (view models, app state, the toast) wakes the loop when it changes, so nothing asks
/// for a redraw by hand. One loop serves one terminal session and runs its contents one after
/// another (the session's event stream is read once, for all of them).
@MainActor
final class AppLoop {
    /// How a content's turn ended.
    enum Ending { case finished, quit }

    /// A read's terminal events, the clock's tick, something frame `frame` read has changed, or
    /// the events' end.
    private enum Input: Sendable { case events([TerminalEvent]), tick, changed(frame: Int), ended }

    /// The terminal's events, then their end, merged with the loop's own changes and ticks.
    private typealias Inputs = AsyncMerge2Sequence<
        AsyncChain2Sequence<AsyncMapSequence<AsyncStream<[TerminalEvent]>, Input>, AsyncSyncSequence<[Input]>>,
        AsyncStream<Input>
    >

    private let session: any LoopTerminal
    /// Changes to what a frame read, and the clock's ticks.
    private let own: AsyncStream<Input>
    private let continuation: AsyncStream<Input>.Continuation
    private let presenter: FramePresenter
    /// Everything the loop waits for, read through one iterator for the session's life: a
    /// content's turn may end after any event, and the next turn reads on from there (an
    /// iterator made per turn would drop what its merge had already taken).
    private var inputs: Inputs.AsyncIterator?
    private var ticker: Task<Void, Never>?
    /// What the ticks keep time by.
    private let clock: AppClock
    /// How many frames were drawn: a change seen by an older frame's tracking is already drawn
    /// by a newer one (which tracks it too), so it asks for nothing. Without this, trackings left
    /// by frames that no change had reached piled up, and each key drew one more frame per
    /// pile (six frames a key after 2,000 characters typed).
    private(set) var framesDrawn = 0
    /// The terminal's events ended (a quit signal, a hang-up): every later turn ends at once.
    private var eventsEnded = false
    /// Events of a read that a content finished before acting on: the next content's.
    private var leftOver: [TerminalEvent] = []
    /// Gets the terminal's answers to the start-up queries whenever they come (they are the
    /// terminal's, not any content's).
    var onTerminalReplies: ((TerminalReplies) -> Void)?
    /// Reads the settings again (SIGUSR1), whatever content is on screen.
    var onReload: (() -> Void)?

    init(session: any LoopTerminal, clock: AppClock = .continuous) {
        self.session = session
        self.clock = clock
        presenter = FramePresenter(surface: session.surface)
        (own, continuation) = AsyncStream.makeStream(of: Input.self, bufferingPolicy: .unbounded)
    }

    deinit { ticker?.cancel() }

    /// Runs `content` until it finishes, the user quits or a quit signal arrives.
    func run(_ content: any LoopContent) async -> Ending {
        if eventsEnded { return .quit }
        // Taken for this turn and put back at its end, where the next turn reads on.
        var inputs =
            self.inputs
            ?? merge(chain(session.events().map { Input.events($0) }, [Input.ended].async), own)
            .makeAsyncIterator()
        defer { self.inputs = inputs }
        defer {
            ticker?.cancel()
            ticker = nil
        }
        if !leftOver.isEmpty, let ending = act(on: leftOver, content) { return ending }
        renderIfChanged(content)
        if content.isFinished { return .finished }
        while let input = await inputs.next(isolation: #isolation) {
            switch input {
            case .ended:
                eventsEnded = true
                return .quit
            case .events(let events):
                if let ending = act(on: events, content) { return ending }
            case .tick:
                content.clockTicked()
            case .changed(let frame):
                if frame != framesDrawn { continue }
            }
            if content.isFinished { return .finished }
            renderIfChanged(content)
        }
        return .quit
    }

    /// Hands `content` one read's events; how its turn ended, when it did (what it left of the
    /// read is kept for the next content).
    private func act(on events: [TerminalEvent], _ content: any LoopContent) -> Ending? {
        leftOver = []
        for (index, event) in events.enumerated() {
            if case .terminalReplies(let replies) = event {
                onTerminalReplies?(replies)
                presenter.invalidate()
            } else if event == .reload {
                onReload?()
            } else if !content.handle(event) {
                return .quit
            }
            if content.isFinished {
                leftOver = Array(events[(index + 1)...])
                return .finished
            }
        }
        return nil
    }

    /// Shows the content's frame if it changed, watching what it read; keeps the clock running
    /// while something animates.
    func renderIfChanged(_ content: any LoopContent) {
        let continuation = self.continuation
        var drawn: Buffer?
        framesDrawn += 1
        let frame = framesDrawn
        withObservationTracking {
            presenter.present(size: session.size) { frame in
                content.draw(into: &frame)
                drawn = frame
            }
        } onChange: {
            continuation.yield(.changed(frame: frame))
        }
        if let drawn { content.shown(drawn) }
        updateTicker(content.isAnimating)
    }

    /// Keeps a clock running only while something animates: no CPU is used while idle.
    private func updateTicker(_ animating: Bool) {
        if animating {
            guard ticker == nil else { return }
            let continuation = self.continuation, clock = clock
            ticker = Task {
                while !Task.isCancelled {
                    try? await clock.sleep(for: Spinner.interval)
                    continuation.yield(.tick)
                }
            }
        } else {
            ticker?.cancel()
            ticker = nil
        }
    }
}
