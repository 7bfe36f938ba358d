import FakeNFTCore
import Localization

/// Ctrl-P: a finder over the app's screens and every collection, NFT, author and user
/// (``GoToIndex``); a tab picked is shown, anything else opens over the screen in focus, so Back
/// returns there.
@MainActor
public final class GoToFinder {
    let panel = FinderPanel(title: tr(.goToTitle), placeholder: tr(.goToPlaceholder))
    private var entries: [GoToEntry] = []
    /// The entries as the panel lists them.
    private var listing: FinderPanel.Listing?
    private let tasks = TaskBag()
    private let load: @MainActor () async -> [GoToEntry]
    private let target: @MainActor (GoToEntry.Target) -> ScreenCommand
    /// When the entries shown were gathered: an opening within ``freshFor`` of it gathers nothing
    /// (a large shop's hundred thousand entries take seconds to fetch).
    private var gatheredAt: Duration?
    private let clock: AppClock
    /// How long gathered entries are used as they are.
    static let freshFor: Duration = .seconds(60)

    /// - Parameters:
    ///   - load: gathers the entries (again at an opening once they are older than ``freshFor``:
    ///     what was gathered before shows meanwhile).
    ///   - target: what going to an entry does (its screen pushed, its tab shown).
    ///   - clock: what the entries' age is measured by.
    init(
        load: @escaping @MainActor () async -> [GoToEntry], clock: AppClock,
        target: @escaping @MainActor (GoToEntry.Target) -> ScreenCommand
    ) {
        self.load = load
        self.clock = clock
        self.target = target
    }

    func open() {
        panel.open(listing)
        if let gatheredAt, clock.elapsed() - gatheredAt < Self.freshFor { return }
        tasks.cancelAll()
        tasks.run { [weak self] in
            guard let self else { return }
            let started = clock.elapsed()
            let gathered = await load()
            let listing = await Self.listing(gathered)
            guard !Task.isCancelled else { return }
            entries = gathered
            self.listing = listing
            gatheredAt = started
            panel.show(listing)
        }
    }

    var layer: KeyLayer {
        panel.layer { [unowned self] index in
            guard index < entries.count else { return .handled }
            UsageRecorder.current?.click(.goTo)
            return target(entries[index].target)
        }
    }

    /// The entries' rows, made ready to match off the main actor (a large shop has a hundred
    /// thousand).
    @concurrent private nonisolated static func listing(_ entries: [GoToEntry]) async -> FinderPanel.Listing {
        FinderPanel.Listing(entries.map { FinderPanel.Row(name: $0.name, detail: $0.place) })
    }
}
