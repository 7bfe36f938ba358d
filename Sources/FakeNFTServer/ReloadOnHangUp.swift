import ServiceLifecycle
import UnixSignals

/// SIGHUP asks for the configuration again (`fakenft serve` reads its file again) and applies what
/// may change while the server runs (``LiveSettings``); every connection and SSH session is kept.
/// A service of the server's group: it ends when the group shuts down.
struct ReloadOnHangUp: Service {
    let settings: LiveSettings
    /// The configuration now; nil when it cannot be read (what runs is kept, the reason told).
    let reload: @Sendable () async -> ServerConfiguration?

    func run() async throws {
        let hangUps = await UnixSignalsSequence(trapping: .sighup)
        for await _ in hangUps.cancelOnGracefulShutdown() {
            guard let configuration = await reload() else { continue }
            settings.apply(configuration)
        }
    }
}
