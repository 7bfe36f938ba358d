import Foundation
import TerminalUI

/// The whole app's visible state: four tabs, each with its own navigation stack, the help
/// overlay and toasts. It turns events into state changes and state into a frame.
@MainActor
public final class AppShell {
    /// One tab of the tab bar.
    public struct Tab {
        public var title: String
        public var stack: NavigationStack
        /// A badge number, read at every render (the Cart count).
        public var badge: () -> Int?
        @MainActor
        public init(title: String, root: any Screen, badge: @escaping () -> Int? = { nil }) {
            self.title = title; self.stack = NavigationStack(root: root); self.badge = badge
        }
    }

    /// The smallest terminal the app draws in.
    public static let minimumSize = Size(width: 60, height: 16)

    public private(set) var tabs: [Tab]
    public private(set) var selectedTab = 0
    public private(set) var showsHelp = false
    public private(set) var toast: Toast?
    private var tabRects: [Rect] = []

    public init(tabs: [Tab]) {
        self.tabs = tabs
        tabs.first?.stack.top.didAppear()
    }

    /// The screen in focus.
    public var currentScreen: any Screen { tabs[selectedTab].stack.top }

    /// True while a spinner or a toast needs the clock to redraw.
    public var isAnimating: Bool { currentScreen.isAnimating || toast != nil }

    public func show(_ toast: Toast) { self.toast = toast }

    /// Handles one event; returns false when the app should quit.
    public func handle(_ event: TerminalEvent) -> Bool {
        if case .mouse(let mouse) = event, mouse.kind == .click,
           let tab = tabRects.firstIndex(where: { $0.contains(mouse.point) }) {
            select(tab)
            return true
        }
        if case .pasteCut(let limit) = event {
            show(Toast("The paste was cut to its first \(limit / 1024) K characters.", kind: .error))
            return true
        }
        guard case .key(let key) = event else {
            if !showsHelp { apply(currentScreen.handle(event)) }
            return true
        }
        if showsHelp {
            if key == .escape || key == .char("?") || key == .char("q") || key == .enter { showsHelp = false }
            return true
        }
        switch currentScreen.handle(event) {
        case .ignored: break
        case let command:
            apply(command)
            return true
        }
        switch ShellKeys.map.action(for: key) {
        case .selectTab(let i): select(i)
        case .nextTab: select((selectedTab + 1) % tabs.count)
        case .previousTab: select((selectedTab + tabs.count - 1) % tabs.count)
        case .back: tabs[selectedTab].stack.pop()
        case .help: showsHelp = true
        case .quit: return false
        case nil: break
        }
        return true
    }

    /// Drops an expired toast; returns true if something changed.
    public func expireToast(now: Date = Date()) -> Bool {
        guard let toast, toast.expires <= now else { return false }
        self.toast = nil
        return true
    }

    private func select(_ tab: Int) {
        guard tab >= 0, tab < tabs.count, tab != selectedTab else { return }
        selectedTab = tab
        currentScreen.didAppear()
    }

    private func apply(_ command: ScreenCommand) {
        switch command {
        case .handled, .ignored: break
        case .push(let screen): tabs[selectedTab].stack.push(screen)
        case .finish(let tab):
            tabs[selectedTab].stack.popToRoot()
            select(tab)
        }
    }

    /// Draws the whole screen into `surface`.
    public func render(into surface: any Surface) {
        let size = surface.size
        surface.cursor = nil
        guard size.width >= Self.minimumSize.width, size.height >= Self.minimumSize.height else {
            TooSmallScreen.render(need: Self.minimumSize, have: size, surface: surface)
            return
        }
        let all = Rect(size: size)
        let (top, rest) = all.splitTop(2)
        let (content, bottom) = rest.splitBottom(1)
        tabRects = TabBar.render(tabs.map { TabBar.Tab(title: $0.title, badge: $0.badge()) }, selected: selectedTab,
                                 in: top, surface: surface)
        let brand = " FakeNFT "
        surface.draw(brand, at: Point(x: size.width - DisplayWidth.of(brand), y: 0), style: .dim, maxWidth: nil)
        let breadcrumb = tabs[selectedTab].stack.path.joined(separator: " › ")
        surface.draw(breadcrumb, at: Point(x: 1, y: 1), style: .bold, maxWidth: size.width - 2)
        let screen = currentScreen
        screen.render(in: content.inset(dx: 1, dy: 0), surface: surface)
        var hints = screen.hints
        if tabs[selectedTab].stack.depth > 1 { hints.append((key: "Esc", label: "back")) }
        hints.append(contentsOf: [(key: "?", label: "help"), (key: "q", label: "quit")])
        KeyHintBar.render(hints, in: bottom, surface: surface)
        if let toast { toast.render(in: content, surface: surface) }
        if showsHelp {
            surface.cursor = nil
            HelpOverlay.render(title: "Keys: \(screen.title)",
                               sections: [(screen.title, screen.keyHelp), ("Everywhere", ShellKeys.map.helpEntries)],
                               in: all, surface: surface)
        }
    }
}
