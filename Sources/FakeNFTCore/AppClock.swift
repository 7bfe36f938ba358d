/// The clock the client core and the app wait by (time-outs, retries and their back-off,
/// reconnects, toasts, spinners): the continuous clock when they run, one a test moves itself in
/// their tests, so a busy machine makes a test slower, never wrong.
public struct AppClock: Sendable {
    /// The time since this clock was made.
    public let elapsed: @Sendable () -> Duration
    /// Sleeps until ``elapsed`` reaches the given time.
    private let sleepUntil: @Sendable (Duration) async throws -> Void

    public init<C: Clock<Duration> & Sendable>(_ clock: C) {
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
        sleepUntil = { try await clock.sleep(until: start.advanced(by: $0), tolerance: nil) }
    }

    /// The continuous clock: the app's.
    public static let continuous = AppClock(ContinuousClock())

    /// Sleeps for `duration`; throws when the task is cancelled.
    public func sleep(for duration: Duration) async throws { try await sleepUntil(elapsed() + duration) }

    /// Sleeps until ``elapsed`` is `time`; throws when the task is cancelled.
    public func sleep(untilElapsed time: Duration) async throws { try await sleepUntil(time) }
}
