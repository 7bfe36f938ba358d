import Localization

/// Ctrl-P: a finder over every collection, NFT, author and user (``GoToIndex``); the one picked
/// opens over the screen in focus, so Back returns there.
@MainActor
public final class GoToFinder {
    let panel = FinderPanel(title: tr(.goToTitle), placeholder: tr(.goToPlaceholder))
    private var entries: [GoToEntry] = []
    private let tasks = TaskBag()
    private let load: @MainActor () async -> [GoToEntry]
    private let screen: @MainActor (GoToEntry.Target) -> any Screen

    /// - Parameters:
    ///   - load: gathers the entries (again at each opening: what was gathered before shows meanwhile).
    ///   - screen: the screen that shows an entry.
    init(
        load: @escaping @MainActor () async -> [GoToEntry],
        screen: @escaping @MainActor (GoToEntry.Target) -> any Screen
    ) {
        self.load = load
        self.screen = screen
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
            index < entries.count ? .push(screen(entries[index].target)) : .handled
        }
    }

    private static func rows(_ entries: [GoToEntry]) -> [FinderPanel.Row] {
        entries.map { FinderPanel.Row(name: $0.name, detail: $0.place) }
    }
}
