import FakeNFTCore

/// The usage events of this run (``UsageEvent``): the screen shown and the panel over it opened
/// and closed as frames show them, and the actions pressed. Recording appends to a list and
/// nothing more, so a key never waits for it; the list goes to the ``UsageReporter`` in one step
/// once ``batchSize`` events are waiting or ``delay`` after the first, and when the tabs end.
/// There is none (``current`` is nil) when analytics are off: nothing is recorded or sent.
@MainActor
public final class UsageRecorder {
    /// The recorder of the tabs running in this task; nil when analytics are off.
    @TaskLocal public static var current: UsageRecorder?

    /// What a frame shows, as usage names it: its screen (which one, by identity, and the item
    /// it shows) and the panel over it, if any.
    struct Shown: Equatable {
        var screen: ObjectIdentifier
        var name: UsageEvent.Screen
        var item: String?
        var panel: UsageEvent.Screen?
    }

    private let reporter: UsageReporter
    private var waiting: [UsageEvent] = []
    private var shown: Shown?
    private let sends = TaskBag()
    private let delay: Duration
    private let clock: AppClock
    static let batchSize = 50

    /// - Parameters:
    ///   - delay: how long the first event waits for others before they are handed on.
    ///   - clock: what that wait, and the last send's at the end, are measured by.
    public init(reporter: UsageReporter, delay: Duration = .seconds(30), clock: AppClock = .continuous) {
        self.reporter = reporter
        self.delay = delay
        self.clock = clock
    }

    /// Notes what a frame shows: a screen or panel no longer shown is closed, a new one opened.
    func show(_ now: Shown) {
        guard now != shown else { return }
        let before = shown
        shown = now
        let moved = before.map { $0.screen != now.screen || $0.name != now.name || $0.item != now.item } ?? true
        if let panel = before?.panel, moved || panel != now.panel { record(UsageEvent(.close, panel)) }
        if let before, moved { record(UsageEvent(.close, before.name, item: before.item)) }
        if moved { record(UsageEvent(.open, now.name, item: now.item)) }
        if let panel = now.panel, moved || panel != before?.panel { record(UsageEvent(.open, panel)) }
    }

    /// An action pressed on the screen shown, about `item` where there is one.
    func click(_ action: UsageEvent.Action, item: String? = nil) {
        record(UsageEvent(.click, shown?.panel ?? shown?.name ?? .catalog, action: action, item: item))
    }

    /// A key map's binding that acted: recorded when it is one of the actions usage names.
    func pressed(scope: String, name: String) {
        if let action = Self.action(scope: scope, name: name) { click(action) }
    }

    /// The actions of the key maps that usage names (likes and the cart are recorded where they
    /// are made: one key may like several marked NFTs, and undo's are not the user's).
    static func action(scope: String, name: String) -> UsageEvent.Action? {
        switch (scope, name) {
        case (_, "sort"): .sort
        case (_, "search"): .search
        case ("marks", "mark"): .mark
        case ("payment", "pay"): .pay
        default: nil
        }
    }

    /// Told every event recorded (the rating prompt hears what the user does so).
    var heard: ((UsageEvent) -> Void)?

    /// Records `event` (an item that is no plain id, a hostile server's, left out: the server
    /// would refuse the whole batch for it); hands the waiting events on when enough are waiting,
    /// else later.
    func record(_ event: UsageEvent) {
        var event = event
        if let item = event.item, !UsageEvent.isPlainID(item) { event.item = nil }
        heard?(event)
        waiting.append(event)
        if waiting.count >= Self.batchSize {
            handOn()
        } else if waiting.count == 1 {
            sends.run { [delay, clock, weak self] in
                try? await clock.sleep(for: delay)
                self?.handOn()
            }
        }
    }

    /// Gives the waiting events to the reporter, which sends them.
    private func handOn() {
        guard !waiting.isEmpty else { return }
        let events = waiting, reporter = reporter
        waiting = []
        Task.detached {
            await reporter.add(events)
            await reporter.send()
        }
    }

    /// The tabs have ended: the screen shown is closed, and what is waiting is sent within
    /// `limit` (a quit waits no longer for a server that does not answer); what could not be is
    /// kept for a later start.
    func finish(within limit: Duration = .milliseconds(250)) async {
        if let shown {
            if let panel = shown.panel { waiting.append(UsageEvent(.close, panel)) }
            waiting.append(UsageEvent(.close, shown.name, item: shown.item))
        }
        shown = nil
        sends.cancelAll()
        let events = waiting, reporter = reporter
        waiting = []
        await reporter.add(events)
        let sending = Task.detached { await reporter.send() }
        await withTaskGroup(of: Void.self) { race in
            race.addTask { await sending.value }
            race.addTask { [clock] in
                // at the limit a batch in flight is given back (the race waits for its end)
                if (try? await clock.sleep(for: limit)) != nil { sending.cancel() }
            }
            await race.next()
            race.cancelAll()
        }
        await reporter.keep()
    }
}
