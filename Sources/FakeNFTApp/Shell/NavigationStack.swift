/// The screens of one tab: Enter pushes, Esc or Backspace pops, the root stays. A closed
/// screen's tasks are cancelled.
@MainActor
public final class NavigationStack {
    public private(set) var screens: [any Screen]

    public init(root: any Screen) { screens = [root] }

    public var top: any Screen { screens[screens.count - 1] }
    public var depth: Int { screens.count }

    public func push(_ screen: any Screen) {
        screens.append(screen)
        screen.didAppear()
    }

    /// Pops the top screen; returns false at the root.
    @discardableResult
    public func pop() -> Bool {
        guard screens.count > 1 else { return false }
        screens.removeLast().tasks.cancelAll()
        top.didAppear()
        return true
    }

    /// Closes every screen but the root.
    public func popToRoot() {
        guard screens.count > 1 else { return }
        screens[1...].forEach { $0.tasks.cancelAll() }
        screens.removeSubrange(1...)
        top.didAppear()
    }

    /// Titles from the root to the top, for the breadcrumb.
    public var path: [String] { screens.map(\.title) }
}
