import CoreMetrics

/// The SSH front's figures on `/metrics` (`fakenft_ssh_*`): sessions open, started, and ended by
/// reason with their seconds; refusals by reason; accounts made for new keys; guests.
struct SSHMetrics: Sendable {
    private let factory: any MetricsFactory

    init(_ metrics: ServerMetrics) { factory = metrics.factory }

    /// Why a visitor was turned away (a bounded set of labels).
    enum Refusal: String, CaseIterable {
        case full, key, address, newKeys = "new_keys", noTerminal = "no_terminal", subsystem, forwarding
        case connections, handshake, unavailable
        /// Signed in, but opened no session (or started no app) in time.
        case noSession = "no_session"
        /// A new key let in as a guest for its visit: no more accounts are made this hour.
        case accountsForNow = "accounts_for_now"
    }

    /// How a session ended.
    enum Ending: String {
        /// The visitor quit the app.
        case quit
        /// The visitor's connection went away.
        case left
        /// Nothing was typed for the idle limit.
        case idle
        /// The server stopped.
        case closing
    }

    func started(open: Int) {
        Counter(label: "fakenft_ssh_sessions_started_total", factory: factory).increment()
        self.open(open)
    }

    func ended(_ ending: Ending, after duration: Duration, open: Int) {
        Counter(label: "fakenft_ssh_sessions_ended_total", dimensions: [("reason", ending.rawValue)], factory: factory)
            .increment()
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        FloatingPointCounter(label: "fakenft_ssh_session_seconds_total", factory: factory).increment(by: seconds)
        self.open(open)
    }

    func refused(_ reason: Refusal) {
        Counter(label: "fakenft_ssh_refusals_total", dimensions: [("reason", reason.rawValue)], factory: factory)
            .increment()
    }

    /// An account was made for a key seen for the first time.
    func newKey() { Counter(label: "fakenft_ssh_new_keys_total", factory: factory).increment() }

    /// A command over SSH ran (`command`: a name of the table's, `unknown` or `refused`) and ended with `status`.
    func command(_ command: String, status: Int32) {
        Counter(
            label: "fakenft_ssh_commands_total", dimensions: [("command", command), ("status", String(status))],
            factory: factory
        ).increment()
    }

    /// A guest came in (with a password, no account).
    func guest() { Counter(label: "fakenft_ssh_guests_total", factory: factory).increment() }

    private func open(_ count: Int) { Gauge(label: "fakenft_ssh_sessions_open", factory: factory).record(count) }
}
