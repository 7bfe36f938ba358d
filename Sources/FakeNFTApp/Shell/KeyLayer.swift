import Localization
import TerminalUI

/// One layer of a screen's key route: a dialog, a menu, a text field, the screen's own keys, or
/// its list or grid. The shell offers each event to a screen's layers top first; the footer
/// hints and the `?` help are generated from the layers active at that moment, so they show
/// exactly the keys that work.
@MainActor
public struct KeyLayer {
    /// The heading of this layer's keys in the help overlay.
    public var title: String
    public var help: [HelpEntry]
    public var hints: [KeyHint]
    /// A modal layer (dialog, menu, text field) takes every key: nothing below it, and none of
    /// the shell's keys but F1 and Ctrl-C, sees one.
    public var isModal: Bool
    /// Handles an event with what the last frame drew; nil when this layer does not use it.
    public var route: (TerminalEvent, DrawnFrame) -> ScreenCommand?
    /// Its actions as the `:` palette lists them (a screen's key map; not the movement keys).
    public var commands: [Command] = []

    /// A layer whose handling reads the last frame (a list's page size, where it was drawn).
    public init(
        title: String, help: [HelpEntry], hints: [KeyHint] = [], isModal: Bool = false,
        reading route: @escaping (TerminalEvent, DrawnFrame) -> ScreenCommand?
    ) {
        self.title = title
        self.help = help
        self.hints = hints
        self.isModal = isModal
        self.route = route
    }

    /// A layer whose handling needs nothing of the last frame.
    public init(
        title: String, help: [HelpEntry], hints: [KeyHint] = [], isModal: Bool = false,
        route: @escaping (TerminalEvent) -> ScreenCommand?
    ) {
        self.init(title: title, help: help, hints: hints, isModal: isModal) { event, _ in route(event) }
    }

    /// Offers `event` to `layers` (built once for it) top first, with the last `frame`; nil when
    /// none used it and none is modal. The one way an event reaches a screen, a scene or a dialog.
    public static func route(_ event: TerminalEvent, through layers: [KeyLayer], after frame: DrawnFrame)
        -> ScreenCommand?
    {
        for layer in layers {
            if let command = layer.route(event, frame) { return command }
            if layer.isModal { return .handled }
        }
        return nil
    }

    /// A screen's key map, each action's use now declared with its handler in one place
    /// (``KeyUse``): the actions that act dispatch, show in the help and (when hinted) in the
    /// footer; one refused says why when its key is pressed and in the palette; one that passes
    /// leaves its key to the layers below. When `readOnly` (``AppContext/readOnly``) the bindings
    /// that change data are left out (their keys say so).
    public static func keys<Action>(
        _ title: String, _ map: KeyMap<Action>, readOnly: Bool, _ use: @escaping (Action) -> KeyUse
    ) -> KeyLayer {
        let every = map, map = readOnly ? map.readingOnly : map
        let uses = map.bindings.map { use($0.action) }  // each once, for the help and the footer
        var toHelp = uses.makeIterator(), toHint = uses.makeIterator()
        let acting = map.filter { _ in toHelp.next()?.acts == true }
        let hinted = map.filter { _ in toHint.next().map { $0.acts && $0.hinted } == true }
        var layer = KeyLayer(
            title: title, help: acting.helpEntries, hints: hinted.hints()
        ) { event in
            guard case .key(let key) = event else { return nil }
            guard let binding = map.binding(for: key) else {
                // A change key in read-only mode says why it does nothing.
                return every.action(for: key).map { _ in .cannotAct(tr(.readOnlyKey)) }
            }
            let now = use(binding.action)
            if now.acts { UsageRecorder.current?.pressed(scope: map.scope, name: binding.name) }
            return now.command
        }
        layer.commands = every.commands { binding in
            if readOnly, binding.changesData { return tr(.readOnlyReason) }
            return use(binding.action).reason
        }
        return layer
    }

    /// A confirmation dialog; `answer` gets the result when it closes.
    public static func dialog(
        _ title: String, _ dialog: ConfirmDialog, update: @escaping (ConfirmDialog?) -> Void,
        answer: @escaping (ConfirmDialog.Result) -> ScreenCommand = { _ in .handled }
    ) -> KeyLayer {
        KeyLayer(title: title, help: ConfirmDialog.keys.helpEntries, hints: ConfirmDialog.keys.hints(), isModal: true) {
            event in
            guard case .key(let key) = event else { return .handled }
            var open = dialog
            let result = open.handle(key)
            update(result == nil ? open : nil)
            return result.map(answer) ?? .handled
        }
    }

    /// An open sort menu; `chosen` gets the option picked (by key or by click).
    static func menu<Option>(
        _ menu: SortMenu<Option>, update: @escaping (SortMenu<Option>) -> Void,
        chosen: @escaping (Option) -> Void
    ) -> KeyLayer {
        KeyLayer(title: tr(.layerSortMenu), help: ActionSheet.help, hints: ActionSheet.hints, isModal: true) { event in
            var open = menu
            let option: Option?
            switch event {
            case .key(let key): option = open.handle(key)
            case .pick(let area, let index): option = open.handle(pick: area, index: index)
            default: return .handled
            }
            update(open)
            if let option { chosen(option) }
            return .handled
        }
    }

    /// A list's or a grid's movement keys, the wheel where it was drawn and clicks on its rows or
    /// cells (drawn as `area`): a click selects; on the selected one it is unused, so the shell
    /// opens it (Enter). Before it moves, the selection takes the last frame's layout of `area`
    /// (`count` items, before one is drawn).
    public static func selection<State: SelectionState>(
        _ state: State, area: String, title: String, count: @escaping () -> Int, update: @escaping (State) -> Void
    ) -> KeyLayer {
        KeyLayer(title: title, help: State.keys.helpEntries) { event, frame in
            var selection = state
            selection.follow(
                frame.panes[area]
                    ?? PaneLayout(
                        rect: Rect(x: 0, y: 0, width: 0, height: 0), count: count(), firstRow: 0, rowsShown: 1))
            switch event {
            case .key(let key): guard selection.handle(key) else { return nil }
            case .mouse(let mouse) where mouse.kind != .click:
                guard frame.panes[area]?.rect.contains(mouse.point) == true else { return nil }
                selection.wheel(down: mouse.kind == .wheelDown)
            case .pick(area, let index):
                guard index != selection.selected else { return nil }
                selection.select(index)
            default: return nil
            }
            update(selection)
            return .handled
        }
    }
}

/// What one of a screen's keys does now, declared with its handler: it acts (listed in the help,
/// and in the footer when hinted: "r retry" only where something failed), it is refused and says
/// why ("nothing selected", "offline"), or it passes: the key is not the screen's now and goes on
/// to the layers below (Esc with no search to clear is Back).
@MainActor
public struct KeyUse {
    private enum Now {
        case acts(() -> ScreenCommand)
        case refused(String)
        case passes
    }

    private let now: Now
    /// Whether the footer names it while it acts.
    let hinted: Bool

    /// Acts by running `handler`, which says what the shell does next.
    public static func command(hinted: Bool = true, _ handler: @escaping () -> ScreenCommand) -> KeyUse {
        KeyUse(now: .acts(handler), hinted: hinted)
    }

    /// Acts by running `handler`; the screen stays.
    public static func run(hinted: Bool = true, _ handler: @escaping () -> Void) -> KeyUse {
        command(hinted: hinted) {
            handler()
            return .handled
        }
    }

    /// Cannot act now, for `reason`.
    public static func refused(_ reason: String) -> KeyUse { KeyUse(now: .refused(reason), hinted: false) }

    /// Acts on `selected` with `handler` when something is selected; else refused, for
    /// `reason` ("nothing selected" unless said otherwise).
    public static func on<Selected>(
        _ selected: Selected?, otherwise reason: @autoclosure () -> String = tr(.nothingSelected),
        _ handler: @escaping (Selected) -> ScreenCommand
    ) -> KeyUse {
        guard let selected else { return .refused(reason()) }
        return .command { handler(selected) }
    }

    /// Not the screen's now: the key goes on to the layers below.
    public static let passes = KeyUse(now: .passes, hinted: false)

    var acts: Bool {
        if case .acts = now { return true }
        return false
    }

    /// What the key does when pressed: the handler's command, the refusal, or nil (it passes).
    var command: ScreenCommand? {
        switch now {
        case .acts(let handler): handler()
        case .refused(let reason): .cannotAct(reason)
        case .passes: nil
        }
    }

    /// Why the palette cannot run it now; nil when it acts.
    var reason: String? {
        switch now {
        case .acts: nil
        case .refused(let reason): reason
        case .passes: tr(.notNowReason)
        }
    }
}
