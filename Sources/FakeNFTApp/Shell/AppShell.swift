import FakeNFTCore
import Localization
import Foundation
import TerminalUI

/// The whole app's visible state: four tabs, each with its own navigation stack, the help
/// overlay and the toast. It routes events through the screen in focus and draws the frame.
@MainActor
public final class AppShell: LoopContent {
    /// One tab of the tab bar.
    public struct Tab {
        public var title: String
        var stack: NavigationStack
        /// A badge number, read at every render (the Cart count).
        public var badge: () -> Int?
        @MainActor
        public init(title: String, root: any Screen, badge: @escaping () -> Int? = { nil }) {
            self.title = title
            self.stack = NavigationStack(root: root)
            self.badge = badge
        }
    }

    /// The narrowest terminal the app draws in (a phone in portrait), which needs 20 rows; from
    /// 60 columns 16 rows do. Between them a row less is needed for every 5 columns more.
    public static let minimumSize = Size(width: 40, height: 20)

    /// The size the app needs at the width `size` has: `size` itself when it fits.
    public static func neededSize(for size: Size) -> Size {
        let width = max(minimumSize.width, size.width)
        return Size(width: width, height: max(16, minimumSize.height - (min(width, 60) - minimumSize.width) / 5))
    }

    public private(set) var tabs: [Tab]
    public private(set) var selectedTab = 0
    /// The `?` help over the screen in focus.
    private let help = HelpPanel()
    /// Ctrl-P's finder; nil where there is nothing to find.
    private let goTo: GoToFinder?
    /// The `:` palette: the actions of the screen in focus and the shell's, from their key maps.
    private let palette = FinderPanel(title: tr(.paletteTitle), placeholder: tr(.palettePlaceholder))
    /// The palette's commands, in its rows' order.
    private var commands: [Command] = []
    /// The command picked in the palette, run once the palette has closed.
    private var picked: Command?
    /// The rate-the-app prompt; nil where it never asks (analytics off, read-only, a guest).
    private let rating: RatingPrompt?
    /// Takes back the last like or cart change (`u`).
    private let undo: () -> Void
    /// Reads the settings again (Ctrl-R, `:reload`).
    private let reload: () -> Void
    /// Whether nothing may be changed (``AppContext/readOnly``): `u` and the shell's keys that change data say so.
    private let readOnly: Bool
    public var showsHelp: Bool { help.isShown }
    public let effects: Effects
    public let pictures: Pictures
    /// How what is shown stands against the server, when that is news (drawn at the breadcrumb's end).
    private let status: () -> String?
    /// What the last frame drew: its clickable parts, its lists' and grids' layouts.
    private var lastFrame = DrawnFrame()
    /// The screen's key layers, built once (they may sort or filter the screen's rows): for a
    /// frame, whose footer and help they give, and then for the next event, which meets the keys
    /// that frame showed; an event that may change them lets the next event or frame build anew.
    private var builtLayers: [KeyLayer]?

    /// - Parameters:
    ///   - selectedTab: the tab shown first (the one the last tabs ended on, after a sign-in).
    ///   - status: read at every render: offline, or a saved copy not yet refreshed; nil when current.
    public init(
        tabs: [Tab], selectedTab: Int = 0, effects: Effects, pictures: Pictures, goTo: GoToFinder? = nil,
        rating: RatingPrompt? = nil, undo: @escaping () -> Void = {}, reload: @escaping () -> Void = {},
        status: @escaping () -> String? = { nil },
        readOnly: Bool = false
    ) {
        self.readOnly = readOnly
        self.tabs = tabs
        self.goTo = goTo
        self.rating = rating
        self.undo = undo
        self.reload = reload
        self.status = status
        self.selectedTab = tabs.indices.contains(selectedTab) ? selectedTab : 0
        self.effects = effects
        self.pictures = pictures
        currentScreen.didAppear()
    }

    /// Closes every tab's screens (their tasks are cancelled): the tabs have ended.
    public func close() { tabs.forEach { $0.stack.close() } }

    /// The screen in focus.
    public var currentScreen: any Screen { tabs[selectedTab].stack.top }

    /// True while a spinner or a toast needs the clock to redraw.
    public var isAnimating: Bool { currentScreen.isAnimating || effects.toast != nil }

    /// Handles one event; returns false when the app should quit.
    public func handle(_ event: TerminalEvent) -> Bool {
        defer { builtLayers = nil }
        tellUsage()
        if case .mouse(let mouse) = event, mouse.kind == .click,
            case .item(TabBar.area, let tab) = lastFrame.target(at: mouse.point)
        {
            select(tab)
            return true
        }
        if case .pasteCut(let limit) = event {
            effects.show(Toast(tr(.pasteCut, limit / 1024), kind: .error))
            return true
        }
        if case .keysDropped(let count) = event {
            effects.show(Toast(tr(.keysDropped, count), kind: .error))
            return true
        }
        if help.isShown {
            if case .key(.ctrl("c")) = event { return false }
            _ = help.layer.route(event, lastFrame)
            return true
        }
        if let rating, rating.isShown { return route(event, through: [rating.layer]) }
        if let goTo, goTo.panel.isShown {
            return route(event, through: [goTo.layer])
        }
        if palette.isShown {
            let going = route(event, through: [paletteLayer])
            guard let command = picked else { return going }
            picked = nil
            if let reason = command.reason {
                effects.show(Toast(tr(.notNow, command.text, reason), kind: .error))
                return true
            }
            UsageRecorder.current?.click(.paletteCommand)
            return handle(.key(command.keys[0]))  // as if its key were pressed
        }
        let layers = screenLayers
        if case .mouse(let mouse) = event, mouse.kind == .click, let target = lastFrame.target(at: mouse.point) {
            return click(target, through: layers)
        }
        return route(event, through: layers)
    }

    /// Offers `event` to the screen's `layers`, then to the shell's keys (over a dialog or menu,
    /// only those that act over one).
    private func route(_ event: TerminalEvent, through layers: [KeyLayer]) -> Bool {
        if case .key(let key) = event, layers.contains(where: \.isModal),
            let action = ShellKeys.actionOverModal(for: key)
        {
            return perform(action)
        }
        if let command = KeyLayer.route(event, through: layers, after: lastFrame) {
            apply(command)
            return true
        }
        guard case .key(let key) = event, let action = ShellKeys.map.action(for: key) else { return true }
        return perform(action)
    }

    /// A click on a drawn control: a button is its key; an item is picked, and a second click
    /// on the picked item opens it (Enter); an item's button picks the item, then presses its key.
    private func click(_ target: HitTarget, through layers: [KeyLayer]) -> Bool {
        switch target {
        case .key(let key): return route(.key(key), through: layers)
        case .item(let area, let index):
            if let command = KeyLayer.route(.pick(area: area, index: index), through: layers, after: lastFrame) {
                apply(command)
                return true
            }
            return route(.key(.enter), through: layers)
        case .itemButton(let area, let index, let key):
            switch KeyLayer.route(.pick(area: area, index: index), through: layers, after: lastFrame) {
            case nil, .handled?: return route(.key(key), through: layers)
            case let picked?:
                apply(picked)  // maybe another screen now: its own layers take the key
                return handle(.key(key))
            }
        }
    }

    /// Drops an expired toast.
    public func clockTicked() { effects.expireToast() }

    /// True once a screen asked for the sign-in screen (to sign out or in): the tabs end.
    public private(set) var isFinished = false

    /// Carries out a shell action; false for quit.
    private func perform(_ action: ShellAction) -> Bool {
        switch action {
        case .selectTab(let i): select(i)
        case .nextTab: select((selectedTab + 1) % tabs.count)
        case .previousTab: select((selectedTab + tabs.count - 1) % tabs.count)
        case .back: tabs[selectedTab].stack.pop()
        case .help: help.open()
        case .goTo: goTo?.open()
        case .palette: openPalette()
        case .undo:
            guard !readOnly else {
                effects.show(Toast(tr(.readOnlyKey), kind: .error))
                break
            }
            UsageRecorder.current?.click(.undo)
            undo()
        case .reload: reload()
        case .quit: return false
        }
        return true
    }

    /// Opens the palette on the commands of the screen in focus, then the shell's (a key the
    /// screen binds is the screen's).
    private func openPalette() {
        let own = activeLayers.layers.flatMap(\.commands)
        let canGoBack = tabs[selectedTab].stack.depth > 1
        let shell = ShellKeys.map.filter { $0.action != .palette }.commands { binding in
            if readOnly, binding.changesData { return tr(.readOnlyReason) }
            return binding.action == .back && !canGoBack ? tr(.notNowReason) : nil
        }
        let owned = Set(own.flatMap(\.keys))
        commands =
            own
            + shell.compactMap { command in
                var reachable = command
                reachable.keys = command.keys.filter { !owned.contains($0) }
                return reachable.keys.isEmpty ? nil : reachable
            }
        palette.open(
            FinderPanel.Listing(
                commands.map { FinderPanel.Row(name: $0.text, detail: "", key: $0.keysLabel, reason: $0.reason) }))
    }

    private var paletteLayer: KeyLayer {
        palette.layer { [unowned self] index in
            picked = commands[index]
            return .handled
        }
    }

    /// Shows tab `tab`; its own number again goes back to the tab's first screen, and there
    /// clears a kept search (saying so).
    private func select(_ tab: Int) {
        guard tab >= 0, tab < tabs.count else { return }
        guard tab != selectedTab else {
            if tabs[tab].stack.depth == 1, currentScreen.clearKeptSearch() { effects.show(Toast(tr(.searchCleared))) }
            return tabs[tab].stack.popToRoot()
        }
        selectedTab = tab
        currentScreen.didAppear()
    }

    /// Shows tab `tab` with `screen` opened over it (a link to a screen): Esc goes back to the tab.
    public func open(tab: Int, _ screen: (any Screen)?) {
        apply(.selectTab(tab))
        if let screen { apply(.push(screen)) }
    }

    private func apply(_ command: ScreenCommand) {
        switch command {
        case .handled: break
        case .push(let screen): tabs[selectedTab].stack.push(screen)
        case .popToRoot: tabs[selectedTab].stack.popToRoot()
        case .finish(let tab):
            tabs[selectedTab].stack.popToRoot()
            select(tab)
        case .selectTab(let tab): if tab != selectedTab { select(tab) }
        case .leaveTabs: isFinished = true
        case .cannotAct(let reason): effects.show(Toast(reason, kind: .error))
        }
    }

    /// The screen's layers as built for this frame or event (``builtLayers``).
    private var screenLayers: [KeyLayer] {
        if let builtLayers { return builtLayers }
        let layers = currentScreen.layers
        builtLayers = layers
        return layers
    }

    /// The layers that take keys now: down to the first modal one.
    private var activeLayers: (layers: [KeyLayer], modal: Bool) {
        let layers = screenLayers
        guard let modal = layers.firstIndex(where: \.isModal) else { return (layers, false) }
        return (Array(layers[...modal]), true)
    }

    /// Keeps the frame's clickable parts for the next click and asks for the pictures it shows.
    public func shown(_ frame: Buffer) {
        lastFrame = DrawnFrame(frame)
        pictures.want(frame.pictures)
        tellUsage()
    }

    /// Tells usage (``UsageRecorder``) the screen and panel in front now: after each frame, and
    /// before each event (so a key pressed before the next frame is the screen's it was pressed on).
    private func tellUsage() {
        guard let usage = UsageRecorder.current else { return }
        let screen = currentScreen
        let panel: UsageEvent.Screen? =
            help.isShown
            ? .help
            : rating?.isShown == true
                ? .rating : goTo?.panel.isShown == true ? .goTo : palette.isShown ? .palette : nil
        usage.show(
            UsageRecorder.Shown(
                screen: ObjectIdentifier(screen), name: screen.usage, item: screen.usageItem, panel: panel))
    }

    /// Draws the whole screen into `buffer`.
    public func draw(into buffer: inout Buffer) {
        let size = buffer.size
        buffer.cursor = nil
        let need = Self.neededSize(for: size)
        guard size.width >= need.width, size.height >= need.height else {
            buffer.render(TooSmallScreen(need: need), in: Rect(size: size))
            return
        }
        let all = Rect(size: size)
        // An owed rating prompt opens with the first frame that has room for it.
        rating?.offer(
            over: currentScreen,
            modal: help.isShown || goTo?.panel.isShown == true || palette.isShown
                || screenLayers.contains(where: \.isModal))
        let (top, content, bottom) = all.rows(.length(2), .fill, .length(1))
        let tabBar = TabBar(tabs.map { TabBar.Tab(title: $0.title, badge: $0.badge()) }, selected: selectedTab)
        buffer.render(tabBar, in: top)
        let brand = " FakeNFT "  // only where the tabs leave room: a tab's name is never cut for it
        if size.width - DisplayWidth.of(brand) >= tabBar.width {
            buffer.draw(brand, at: Point(x: size.width - DisplayWidth.of(brand), y: 0), style: .dim, maxWidth: nil)
        }
        let breadcrumb = tabs[selectedTab].stack.path.joined(separator: " › ")
        var breadcrumbWidth = size.width - 2
        if let status = status() {
            let width = min(DisplayWidth.of(status), size.width / 2)
            buffer.draw(status, at: Point(x: size.width - 1 - width, y: 1), style: .accent, maxWidth: width)
            breadcrumbWidth -= width + 1
        }
        buffer.draw(breadcrumb, at: Point(x: 1, y: 1), style: .bold, maxWidth: breadcrumbWidth)
        let screen = currentScreen
        screen.render(in: content.inset(dx: 1, dy: 0), buffer: &buffer)
        builtLayers = nil  // as this frame shows them
        var (layers, modal) = activeLayers
        if let goTo, goTo.panel.isShown { (layers, modal) = ([goTo.layer], true) }
        if palette.isShown { (layers, modal) = ([paletteLayer], true) }
        if let rating, rating.isShown { (layers, modal) = ([rating.layer], true) }
        let own = layers.flatMap(\.hints)  // a key the screen binds is not the shell's there
        let shell = ShellKeys.hints(canGoBack: tabs[selectedTab].stack.depth > 1, modal: modal).filter { hint in
            !own.contains { $0.key == hint.key }
        }
        buffer.render(KeyHintBar(own + shell, keepingLast: shell.count), in: bottom)
        goTo?.panel.render(in: content, buffer: &buffer)
        palette.render(in: content, buffer: &buffer)
        rating?.render(in: content, buffer: &buffer)
        // Over the hints, never over figures; while a dialog or menu is open its keys stay in
        // view and the toast takes the breadcrumb line.
        if let toast = effects.toast { buffer.render(toast, in: modal ? top : bottom) }
        help.render(
            title: screen.title, layers: layers,
            everywhere: modal ? ShellKeys.helpOverModal : ShellKeys.map.helpEntries,
            in: all, buffer: &buffer)
    }
}
