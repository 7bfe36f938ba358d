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
    /// Handles an event; nil when this layer does not use it.
    public var route: (TerminalEvent) -> ScreenCommand?

    public init(
        title: String, help: [HelpEntry], hints: [KeyHint] = [], isModal: Bool = false,
        route: @escaping (TerminalEvent) -> ScreenCommand?
    ) {
        self.title = title
        self.help = help
        self.hints = hints
        self.isModal = isModal
        self.route = route
    }

    /// A screen's key map: the bindings whose action is `enabled` now dispatch, show in the
    /// help and (when they have a hint and are `hinted` now) in the footer: "r retry" only
    /// where something failed, though `r` reloads everywhere. In ``ReadOnlyMode`` the bindings
    /// that change data are left out.
    public static func keys<Action>(
        _ title: String, _ map: KeyMap<Action>, enabled: @escaping (Action) -> Bool = { _ in true },
        hinted: (Action) -> Bool = { _ in true },
        perform: @escaping (Action) -> ScreenCommand
    ) -> KeyLayer {
        let map = ReadOnlyMode.isOn ? map.readingOnly : map
        return KeyLayer(
            title: title, help: map.helpEntries(where: enabled), hints: map.hints { enabled($0) && hinted($0) }
        ) {
            event in
            guard case .key(let key) = event, let action = map.action(for: key), enabled(action) else { return nil }
            return perform(action)
        }
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

    /// A list's movement keys, the wheel inside `rect` (where it was drawn), and clicks on its
    /// rows (drawn as `area`): a click selects a row; on the selected row it is unused, so the
    /// shell opens it (Enter).
    public static func list(_ state: ListState, area: String, in rect: Rect, update: @escaping (ListState) -> Void)
        -> KeyLayer
    {
        KeyLayer(title: tr(.layerList), help: ListState.keys.helpEntries) { event in
            var list = state
            switch event {
            case .key(let key): guard list.handle(key) else { return nil }
            case .mouse(let mouse): guard list.handle(mouse, in: rect) else { return nil }
            case .pick(area, let index):
                guard index != list.selected else { return nil }
                list.select(index)
            default: return nil
            }
            update(list)
            return .handled
        }
    }

    /// A grid's movement keys, the wheel inside `rect`, and clicks on its cells (drawn as `area`).
    public static func grid(_ state: GridState, area: String, in rect: Rect, update: @escaping (GridState) -> Void)
        -> KeyLayer
    {
        KeyLayer(title: tr(.layerGrid), help: GridState.keys.helpEntries) { event in
            var grid = state
            switch event {
            case .key(let key): guard grid.handle(key) else { return nil }
            case .mouse(let mouse) where mouse.kind != .click && rect.contains(mouse.point):
                _ = grid.handle(mouse.kind == .wheelDown ? .down : .up)
            case .pick(area, let index):
                guard index != grid.selected else { return nil }
                grid.select(index)
            default: return nil
            }
            update(grid)
            return .handled
        }
    }
}
