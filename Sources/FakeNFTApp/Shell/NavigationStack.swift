/// The screens of one tab: Enter pushes, Esc or Backspace pops, the root stays. A closed
/// screen's tasks are cancelled.
@MainActor
final class NavigationStack {
    private(set) var screens: [any Screen]

    init(root: any Screen) { screens = [root] }

    var top: any Screen { screens[screens.count - 1] }
    var depth: Int { screens.count }

    func push(_ screen: any Screen) {
        screens.append(screen)
        screen.didAppear()
    }

    /// Pops the top screen; returns false at the root.
    @discardableResult
    func pop() -> Bool {
        guard screens.count > 1 else { return false }
        screens.removeLast().tasks.cancelAll()
        top.didAppear()
        return true
    }

    /// Closes every screen but the root.
    func popToRoot() {
        guard screens.count > 1 else { return }
        screens[1...].forEach { $0.tasks.cancelAll() }
        screens.removeSubrange(1...)
        top.didAppear()
    }

    /// Cancels every screen's tasks, the root's too: the tab has ended.
    func close() { screens.forEach { $0.tasks.cancelAll() } }

    /// Titles from the root to the top, for the breadcrumb.
    var path: [String] { screens.map(\.title) }
}
