import Localization
import TerminalUI

/// A sort menu over typed options: opens on `s`, answers with the chosen option.
@MainActor
struct SortMenu<Option: Equatable & Sendable>: Widget {
    let options: [(label: String, value: Option)]
    private var sheet: ActionSheet?

    init(_ options: [(label: String, value: Option)]) { self.options = options }

    var isOpen: Bool { sheet != nil }

    /// The label of `option` for status lines: "by name", "by NFT count" (only the first letter lowered).
    func name(of option: Option) -> String {
        guard let label = options.first(where: { $0.value == option })?.label, let first = label.first else {
            return ""
        }
        return first.lowercased() + label.dropFirst()
    }

    mutating func open(current: Option) {
        sheet = ActionSheet(
            title: tr(.sortTitle), options: options.map(\.label), current: options.firstIndex { $0.value == current })
    }

    /// The menu's key layer while it is open.
    func layer(update: @escaping (SortMenu) -> Void, chosen: @escaping (Option) -> Void) -> KeyLayer? {
        isOpen ? KeyLayer.menu(self, update: update, chosen: chosen) : nil
    }

    /// Handles a key while open; returns the option chosen, if one was.
    mutating func handle(_ key: Key) -> Option? {
        guard var open = sheet else { return nil }
        let result = open.handle(key)
        sheet = result == nil ? open : nil
        if case .chosen(let index) = result, index < options.count { return options[index].value }
        return nil
    }

    /// Handles a click on an option while open; returns the option chosen.
    mutating func handle(pick area: String, index: Int) -> Option? {
        guard let open = sheet, case .chosen(let chosen) = open.handle(pick: area, index: index), chosen < options.count
        else { return nil }
        sheet = nil
        return options[chosen].value
    }

    /// The menu, when open, centred in `rect`.
    func render(in rect: Rect, buffer: inout Buffer) { if let sheet { buffer.render(sheet, in: rect) } }
}
