import CNCursesW
import Foundation
import Glibc

/// Errors starting the terminal.
public enum TerminalError: Error, Equatable, CustomStringConvertible {
    /// stdin or stdout is not a terminal (a pipe, a file, CI).
    case notATerminal
    /// `TERM` is unset or empty.
    case termNotSet
    /// No terminfo entry for `TERM`.
    case unknownTerminalType(String)
    /// The terminal cannot move the cursor (`TERM=dumb`).
    case noCursorAddressing(String)

    public var description: String {
        switch self {
        case .notATerminal: "an interactive terminal is needed (stdin and stdout must be a TTY)."
        case .termNotSet: "TERM is not set: set it to your terminal's type, e.g. TERM=xterm-256color."
        case .unknownTerminalType(let term):
            """
            this system has no terminfo entry for TERM=\(SafeText.sanitize(term).prefix(40)): set TERM to a known \
            type (e.g. xterm-256color) or install ncurses-term.
            """
        case .noCursorAddressing(let term):
            """
            TERM=\(SafeText.sanitize(term).prefix(40)) cannot move the cursor, which a full-screen app needs: use a \
            terminal such as xterm-256color.
            """
        }
    }
}

/// Owns ncurses for the life of the app: modes, colours, input events, and restoring the terminal
/// on every exit path (quit, every signal that ends a process, crashes, Ctrl-Z and `fg`).
@MainActor
public final class TerminalSession {
    /// Options chosen at start.
    public struct Options: Sendable {
        /// Report mouse clicks and the wheel. Off by default so native text selection works.
        public var mouse: Bool
        /// The colours for the terminal's background (``Theme``).
        public var theme: Theme
        public var environment: [String: String]
        /// For screen readers: the cursor shown on the selection, spinners still, pictures and
        /// ratings in words (``TerminalSurface/forScreenReader``).
        public var accessible: Bool
        /// Whether Ctrl-Z stops the app: false where nothing could resume it (an SSH session of
        /// the shop has no shell), where Ctrl-Z and SIGTSTP do nothing.
        public var jobControl: Bool
        public init(
            mouse: Bool = false, theme: Theme = .dark,
            environment: [String: String] = ProcessInfo.processInfo.environment, accessible: Bool = false,
            jobControl: Bool = true
        ) {
            self.mouse = mouse
            self.theme = theme
            self.environment = environment
            self.accessible = accessible
            self.jobControl = jobControl
        }
    }

    /// Every signal whose default action ends the process (crashes aside, ``CrashGuard``) ends
    /// the session through the event loop, so the terminal is restored, but SIGUSR1, which asks
    /// for the settings to be read again (``TerminalEvent/reload``); SIGPIPE is ignored.
    static let endingSignals: [Int32] =
        [
            SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGIO, SIGPWR,
            SIGSTKFLT, SIGXCPU, SIGXFSZ,
        ] + Array(__libc_current_sigrtmin()...__libc_current_sigrtmax())  // real-time signals end a process too
    static let handledSignals: [Int32] = [SIGWINCH, SIGTSTP, SIGCONT, SIGUSR1] + endingSignals

    /// The surface that shows frames on the terminal.
    public let surface: TerminalSurface
    public let colors: ColorSupport
    /// The signal that ended the session (one of ``endingSignals``), if one did.
    public private(set) var exitSignal: Int32?

    private let screen: OpaquePointer
    private let window: UnsafeMutablePointer<WINDOW>
    private let pump: InputPump
    private let options: Options
    private var isShutDown = false
    /// Reads the terminal; keeps a character cut by a read.
    private var reader = TerminalReader()
    /// The terminal was asked what it can do: its focus and colour scheme reports are subscribed.
    private var subscribed = false
    /// The terminal speaks the kitty keyboard protocol: its disambiguate flag is pushed.
    private var kittyKeys = false
    /// The terminal reports its colour scheme (mode 2031): the background is never asked again.
    private var reportsColorScheme = false
    /// Remembers an open paste between reads.
    private var decoder = KeyDecoder()

    /// True when stdin and stdout are a terminal, so a session can start.
    /// The line shown if the app crashes, after the terminal is restored (say where the
    /// backtrace went).
    public nonisolated static func setCrashNotice(_ text: String) { CrashGuard.setNotice(text) }

    /// Where Swift's backtrace goes if the app crashes, in place of the terminal.
    public nonisolated static func setCrashLog(_ path: String) { CrashGuard.setLog(path) }

    /// What keeps the app from starting, found before anything else starts: no terminal, or no
    /// `TERM`. (An unknown `TERM`, or one without cursor addressing, shows when curses starts.)
    public nonisolated static func problem(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> TerminalError?
    {
        guard isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 else { return .notATerminal }
        guard let term = environment["TERM"], !term.trimmingCharacters(in: .whitespaces).isEmpty else {
            return .termNotSet
        }
        return nil
    }

    public init(options: Options = Options()) throws {
        if let problem = Self.problem(environment: options.environment) { throw problem }
        if setlocale(LC_ALL, "") == nil || String(cString: cnc_codeset()) != "UTF-8" {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
        let term = options.environment["TERM"] ?? ""
        // A closed output ends the app through its event loop, not by a signal that skips the
        // terminal's restoration.
        signal(SIGPIPE, SIG_IGN)
        let signalFD = SignalPipe.install(Self.handledSignals)
        CrashGuard.install()
        guard let screen = newterm(nil, cnc_stdout(), cnc_stdin()) else {
            SignalPipe.restoreDefaults(Self.handledSignals)
            throw TerminalError.unknownTerminalType(term)
        }
        set_term(screen)
        guard cnc_has_capability("cup") != 0 else {
            endwin()
            delscreen(screen)
            SignalPipe.restoreDefaults(Self.handledSignals)
            throw TerminalError.noCursorAddressing(term)
        }
        guard let window = cnc_stdscr() else { throw TerminalError.notATerminal }
        self.screen = screen
        self.window = window
        self.options = options
        raw()
        noecho()
        nonl()
        typeahead(-1)  // a frame is drawn whole, whatever input is waiting (the app reads it itself)
        curs_set(0)
        if has_colors() {
            start_color()
            use_default_colors()
        }
        colors = ColorSupport.detect(
            environment: options.environment, cursesColors: Int(cnc_colors()), hasColors: has_colors())
        surface = TerminalSurface(window: window, colors: colors, output: cnc_stdout(), theme: options.theme)
        surface.forScreenReader = options.accessible
        surface.writesHyperlinks = HyperlinkSupport.detect(environment: options.environment)
        pump = InputPump(inputFD: STDIN_FILENO, signalFD: signalFD, ending: Set(Self.endingSignals))
        Self.writeControl(modes.on)
    }

    /// The reports the app asks of the terminal, and their undoing (in reverse): bracketed paste;
    /// with ``Options/mouse`` clicks and the wheel (in SGR form, which has no column limit); once
    /// the terminal was asked, focus changes (mode 1004) and its colour scheme (mode 2031); the
    /// kitty keyboard protocol's disambiguate flag where the terminal answered its query.
    private var modes: (on: String, off: String) {
        var on = "\u{1B}[?2004h", off = "\u{1B}[?2004l"
        if options.mouse { (on, off) = (on + "\u{1B}[?1000h\u{1B}[?1006h", "\u{1B}[?1006l\u{1B}[?1000l" + off) }
        if subscribed { (on, off) = (on + Self.subscriptions.on, Self.subscriptions.off + off) }
        if kittyKeys { (on, off) = (on + Self.kittyFlags.push, Self.kittyFlags.pop + off) }
        return (on, off)
    }

    /// Focus and colour scheme reports, on and off.
    private static let subscriptions = (on: "\u{1B}[?1004h\u{1B}[?2031h", off: "\u{1B}[?2031l\u{1B}[?1004l")
    /// The kitty keyboard protocol's disambiguate flag, pushed and popped.
    private static let kittyFlags = (push: "\u{1B}[>1u", pop: "\u{1B}[<u")

    /// The terminal's size now.
    public var size: Size { surface.size }

    /// Asks the terminal what it can do (``TerminalProbe/queries(inTmux:)``) without waiting for
    /// it: the answers come among the keys, never typed, as one ``TerminalEvent/terminalReplies(_:)``
    /// once the last device attributes arrived (never, from a terminal that does not answer).
    public func askTerminal(inTmux: Bool) {
        let (text, attributes) = TerminalProbe.queries(inTmux: inTmux)
        decoder.expectReplies(endingWithDeviceAttributes: attributes)
        askedAt = .now
        subscribed = true
        Self.writeControl(Self.subscriptions.on + text)
    }

    /// Takes what the terminal answered: the kitty keyboard protocol where it speaks it, frames
    /// unsynchronized where it said it cannot synchronize them.
    private func adopt(_ replies: TerminalReplies) {
        if replies.colorScheme != nil { reportsColorScheme = true }
        if replies.cannotSynchronize { surface.synchronizesFrames = false }
        if replies.keyboardFlags != nil, !kittyKeys {
            kittyKeys = true
            Self.writeControl(Self.kittyFlags.push)
        }
    }

    /// The terminal has the focus again: where it reports no colour scheme, its background is
    /// asked again (it may have turned light or dark meanwhile); not while answers are awaited.
    private func focusCameIn() {
        guard !reportsColorScheme, !decoder.awaitsReplies else { return }
        let (text, attributes) = TerminalProbe.backgroundAgain()
        decoder.expectReplies(endingWithDeviceAttributes: attributes)
        askedAt = .now
        Self.writeControl(text)
    }

    /// When the terminal was asked; its answers are no longer waited for ``answerTime`` later.
    private var askedAt: ContinuousClock.Instant?
    /// How long a terminal may take to answer (a slow SSH link's round trips included).
    static let answerTime: Duration = .seconds(5)

    /// Every key, paste, mouse, resize and resume event until the session ends (quit signal or
    /// hang-up), as each read gave them (``InputBacklog``: a flood's keys dropped, Ctrl-C first):
    /// the app draws one frame for a read, however many events it held.
    public func events() -> AsyncStream<[TerminalEvent]> {
        AsyncStream { continuation in
            let task = Task { @MainActor [weak self] in
                guard let pump = self?.pump else { return }
                for await wake in pump.wakes {
                    guard let self else { break }
                    switch wake {
                    case .input:
                        self.deliverRead(to: continuation)
                        pump.acknowledge()
                    case .signal(let signo):
                        if !self.handle(signal: signo, continuation) {
                            self.shutdown()  // the terminal first: what the app does before it ends may take a while
                            continuation.finish()
                            return
                        }
                    case .hangup:
                        self.exitSignal = SIGHUP
                        self.shutdown()
                        continuation.finish()
                        return
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Decides what the decoder holds when no more input comes in time.
    private var heldTimeout: Task<Void, Never>?

    /// Delivers what was read. What the decoder holds waits for more input, but only for its
    /// ``KeyDecoder/waitLimit``: an ESC that ended the read (Escape, or the start of a key's
    /// sequence or of an answer still on its way) is Escape after the escape delay, an open
    /// paste is delivered after a pause.
    private func deliverRead(to continuation: AsyncStream<[TerminalEvent]>.Continuation, resized: Bool = false) {
        heldTimeout?.cancel()
        heldTimeout = nil
        deliver(drain(resized: resized), to: continuation)
        if decoder.takeFocusIn() { focusCameIn() }
        guard let limit = decoder.waitLimit else { return }
        heldTimeout = Task { @MainActor [weak self] in
            try? await Task.sleep(for: limit)
            guard !Task.isCancelled, let self else { return }
            self.deliver(self.decoder.timeOut(), to: continuation)
        }
    }

    /// Restores the terminal. Safe to call more than once.
    public func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        heldTimeout?.cancel()
        pump.stop()
        surface.handBack(deleteUploads: true)
        Self.writeControl(modes.off)
        curs_set(1)
        endwin()
        delscreen(screen)
        SignalPipe.restoreDefaults(Self.handledSignals)
        CrashGuard.disarm()
    }

    /// Puts `text` on the clipboard of the terminal (and of the machine it runs on, over ssh too)
    /// with OSC 52. Terminals that do not support it ignore the sequence.
    public func copyToClipboard(_ text: String) {
        Self.writeControl("\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}")
    }

    /// Stops the process group like Ctrl-Z does in a cooked terminal, and repaints after `fg`.
    public func suspend() {
        surface.handBack(deleteUploads: false)
        Self.writeControl(modes.off)
        endwin()
        let continued = SignalPipe.continued
        // The whole group, so a wrapping shell sees the stop; `fg` sends SIGCONT.
        if kill(0, SIGSTOP) == 0 {
            // A stop sent to a group can land after kill returns (another thread takes it, late
            // on a busy machine): wait for it and the SIGCONT, so nothing is drawn over the shell.
            let start = ContinuousClock.now
            while SignalPipe.continued == continued, ContinuousClock.now - start < .seconds(2) { usleep(1_000) }
        }
        resume()
    }

    /// Back from a stop: raw mode first (so no key is echoed by the tty), the alternate screen
    /// again (curses enters it on its next update), then a full repaint.
    private func resume() {
        reset_prog_mode()
        wnoutrefresh(window)
        doupdate()
        Self.writeControl(modes.on)
        surface.repaintAll()
    }

    private func deliver(_ events: [TerminalEvent], to continuation: AsyncStream<[TerminalEvent]>.Continuation) {
        var batch: [TerminalEvent] = []
        for event in InputBacklog.fair(events) {
            if case .terminalReplies(let replies) = event { adopt(replies) }
            if event == .key(.ctrl("z")) {
                guard options.jobControl else { continue }
                if !batch.isEmpty { continuation.yield(batch) }
                batch = []
                suspend()
                continuation.yield([.resumed])
            } else {
                batch.append(event)
            }
        }
        if !batch.isEmpty { continuation.yield(batch) }
    }

    private func handle(signal signo: Int32, _ continuation: AsyncStream<[TerminalEvent]>.Continuation) -> Bool {
        switch signo {
        case SIGWINCH:
            var rows: Int32 = 0, cols: Int32 = 0
            if cnc_terminal_size(STDOUT_FILENO, &rows, &cols) == 0 { resizeterm(rows, cols) }
            surface.terminalResized(fd: STDOUT_FILENO)
            deliverRead(to: continuation, resized: true)
        case SIGTSTP:
            guard options.jobControl else { break }
            suspend()
            continuation.yield([.resumed])
        case SIGCONT:
            resume()
            continuation.yield([.resumed])
        case SIGUSR1:
            continuation.yield([.reload])
        default:
            exitSignal = signo
            return false
        }
        return true
    }

    /// Reads everything the terminal sent and decodes it, after a resize when there was one.
    private func drain(resized: Bool = false) -> [TerminalEvent] {
        if let askedAt, askedAt.duration(to: .now) > Self.answerTime {
            decoder.stopExpectingReplies()
            self.askedAt = nil
        }
        let read = reader.drain(STDIN_FILENO)
        return decoder.decode(resized ? [.event(.resize(size))] + read : read)
    }

    private static func writeControl(_ sequence: String) {
        fputs(sequence, cnc_stdout())
        fflush(cnc_stdout())
    }
}
