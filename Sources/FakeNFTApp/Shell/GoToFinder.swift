import Localization

/// Ctrl-P: a finder over the app's screens and every collection, NFT, author and user
/// (``GoToIndex``); a tab picked is shown, anything else opens over the screen in focus, so Back
/// returns there.
@MainActor
public final class GoToFinder {
    let panel = FinderPanel(title: tr(.goToTitle), placeholder: tr(.goToPlaceholder))
    private var entries: [GoToEntry] = []
    private let tasks = TaskBag()
    private let load: @MainActor () async -> [GoToEntry]
    private let target: @MainActor (GoToEntry.Target) -> ScreenCommand

    /// - Parameters:
    ///   - load: gathers the entries (again at each opening: what was gathered before shows meanwhile).
    ///   - target: what going to an entry does (its screen pushed, its tab shown).
    init(
        load: @escaping @MainActor () async -> [GoToEntry],
        target: @escaping @MainActor (GoToEntry.Target) -> ScreenCommand
    ) {
        self.load = load
        self.target = target
    }

    func open() {
        panel.open(entries.isEmpty ? nil : Self.rows(entries))
        tasks.cancelAll()
        tasks.run { [weak self] in
            guard let self else { return }
            let gathered = await load()
            entries = gathered
            panel.show(Self.rows(gathered))
        }
    }

    var layer: KeyLayer {
        panel.layer { [unowned self] index in
            index < entries.count ? target(entries[index].target) : .handled
        }
    }

    private static func rows(_ entries: [GoToEntry]) -> [FinderPanel.Row] {
        entries.map { FinderPanel.Row(name: $0.name, detail: $0.place) }
    }
}
