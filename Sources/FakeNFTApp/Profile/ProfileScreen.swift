import FakeNFTCore
import TerminalUI

/// Profile: avatar, name, description, website, and the rows My NFTs, Favorite NFTs, Website.
/// `e` opens the edit form in place.
@MainActor
public final class ProfileScreen: Screen {
    enum Action: Sendable { case open, edit, retry }
    enum Row: Int, CaseIterable { case myNFTs, favorites, website }

    static let keys = KeyMap<Action>([
        KeyBinding([.enter], "Open the row", .open),
        KeyBinding([.char("e")], "Edit the profile", .edit),
        KeyBinding([.char("r")], "Reload", .retry),
    ])
    static let formKeys: [HelpEntry] = [
        HelpEntry(keys: "Tab Shift-Tab", text: "Next / previous field"),
        HelpEntry(keys: "Ctrl-S", text: "Save (or Enter on the Save button)"),
        HelpEntry(keys: "Esc", text: "Close (asks when there are changes)"),
        HelpEntry(keys: "← → Home End", text: "Move the cursor (Ctrl-A/E too)"),
        HelpEntry(keys: "Ctrl-U Ctrl-K Ctrl-W", text: "Delete to start / to end / a word"),
    ]

    public let title = "Profile"
    let model: ProfileViewModel
    private var rows = ListState(count: Row.allCases.count)
    /// The open edit form, its save error, and the "Discard changes?" question.
    private(set) var form: ProfileForm?
    private(set) var formError: String?
    private var discard: ConfirmDialog?
    private var firstAppearance = FirstAppearance()

    public init(model: ProfileViewModel) { self.model = model }

    public var keyHelp: [HelpEntry] {
        if discard != nil { return ConfirmDialog.keyHelp }
        return form != nil ? Self.formKeys : Self.keys.helpEntries + [HelpEntry(keys: "↑ ↓ j k", text: "Move")]
    }
    public var hints: [(key: String, label: String)] {
        form != nil ? [("Tab", "next field"), ("Ctrl-S", "save"), ("Esc", "close")] : [("e", "edit"), ("Enter", "open")]
    }
    public var isAnimating: Bool { model.state == .loading || model.saving }

    public func didAppear() { firstAppearance.load { await self.model.load() } }

    public func handle(_ event: TerminalEvent) -> ScreenCommand {
        if form != nil { return handleForm(event) }
        guard case .key(let key) = event else { return .ignored }
        if let action = Self.keys.action(for: key) {
            switch action {
            case .edit:
                if let profile = model.profile { form = ProfileForm(profile: profile); formError = nil }
            case .retry:
                Task { await model.load() }
            case .open:
                return open(Row(rawValue: rows.selected) ?? .myNFTs)
            }
            return .handled
        }
        return rows.handle(key) ? .handled : .ignored
    }

    private func open(_ row: Row) -> ScreenCommand {
        guard let profile = model.profile else { return .handled }
        switch row {
        case .myNFTs: return .push(MyNFTsScreen(model: MyNFTsViewModel(context: model.context)))
        case .favorites: return .push(FavoritesScreen(model: FavoritesViewModel(context: model.context)))
        case .website:
            guard !profile.website.isEmpty else { return .handled }
            return .push(ReaderScreen(url: profile.website, context: model.context))
        }
    }

    private func handleForm(_ event: TerminalEvent) -> ScreenCommand {
        guard var current = form else { return .ignored }
        if var dialog = discard {
            guard case .key(let key) = event else { return .handled }
            let result = dialog.handle(key)
            discard = result == nil ? dialog : nil
            if result == .confirmed { form = nil }
            return .handled
        }
        switch event {
        case .paste(let text):
            current.paste(text)
        case .key(.tab): current.moveFocus(by: 1)
        case .key(.backTab): current.moveFocus(by: -1)
        case .key(.enter) where current.saveFocused, .key(.ctrl("s")):
            save(current)
        case .key(.enter) where current.focus != .description: current.moveFocus(by: 1)
        case .key(.escape):
            if current.hasChanges {
                discard = ConfirmDialog(title: "Discard changes?", message: "Your edits to the profile are not saved.",
                                        confirmLabel: "Discard", cancelLabel: "Stay", destructive: true)
            } else {
                form = nil
            }
            return .handled
        case .key(let key):
            _ = current.edit(key)
        default:
            return .handled
        }
        form = current
        return .handled
    }

    private func save(_ submitted: ProfileForm) {
        Task {
            let error = await model.save(submitted)
            // Keep what was typed meanwhile; close only when the saved form is still the one shown.
            if let error { formError = error } else if form?.edited == submitted.edited { form = nil; formError = nil }
            model.context.invalidate()
        }
    }

    public func render(in rect: Rect, surface: any Surface) {
        if let form {
            renderForm(form, in: rect, surface: surface)
            return
        }
        guard let profile = model.profile else {
            _ = StatusView.render(model.state == .loaded ? .loading : model.state, what: "the profile", in: rect, surface: surface)
            return
        }
        let avatarWidth = 14
        PictureView.render(seed: profile.avatar, label: profile.name, in: Rect(x: rect.x, y: rect.y, width: avatarWidth, height: 6),
                           colors: model.context.colors, surface: surface)
        let x = rect.x + avatarWidth + 2, width = rect.width - avatarWidth - 2
        let edit = "[ Edit (e) ]"
        surface.draw(edit, at: Point(x: rect.maxX - DisplayWidth.of(edit), y: rect.y), style: .accent, maxWidth: rect.width)
        surface.draw(profile.name, at: Point(x: x, y: rect.y), style: .bold, maxWidth: width - DisplayWidth.of(edit) - 1)
        surface.draw(profile.website, at: Point(x: x, y: rect.y + 1), style: .link, maxWidth: width)
        let description = DisplayWidth.wrap(profile.description, width: width, maxLines: 4)
        for (i, line) in description.enumerated() {
            surface.draw(line, at: Point(x: x, y: rect.y + 3 + i), style: .plain, maxWidth: width)
        }
        let labels = ["My NFTs (\(profile.nfts.count))", "Favorite NFTs (\(model.context.likes.count))", "Website"]
        let listRect = Rect(x: rect.x, y: rect.y + max(7, 4 + min(4, description.count)), width: rect.width, height: 3 * 2)
        ListView.render(&rows, in: listRect, rowHeight: 2, surface: surface) { index, row, selected in
            SelectionMarker.render(selected, at: Point(x: row.x, y: row.y), surface: surface)
            surface.draw(labels[index], at: Point(x: row.x + 2, y: row.y), style: selected ? .selected : .bold, maxWidth: row.width - 6)
            surface.draw("›", at: Point(x: row.maxX - 2, y: row.y), style: .dim, maxWidth: 1)
        }
    }

    private func renderForm(_ form: ProfileForm, in rect: Rect, surface: any Surface) {
        surface.draw("Edit profile", at: Point(x: rect.x, y: rect.y), style: .bold, maxWidth: rect.width)
        let labelWidth = 13, fieldWidth = min(60, rect.width - labelWidth - 2)
        var y = rect.y + 2
        for field in ProfileForm.Field.allCases {
            let focused = form.focus == field && !form.saveFocused
            surface.draw(ProfileForm.label(field), at: Point(x: rect.x, y: y), style: focused ? .accent : .plain, maxWidth: labelWidth)
            let height = field == .description ? 4 : 1
            if let editor = form.editors[field] {
                TextFieldView.render(editor, in: Rect(x: rect.x + labelWidth, y: y, width: fieldWidth, height: height), focused: focused,
                                     surface: surface, placeholder: field == .avatar || field == .website ? "https://…" : "")
            }
            let errorX = rect.x + labelWidth + fieldWidth + 2
            if let error = form.error(field) {
                if errorX < rect.maxX - 4 {
                    surface.draw("✗ \(error)", at: Point(x: errorX, y: y), style: .error, maxWidth: rect.maxX - errorX)
                } else {
                    surface.draw("✗ \(error)", at: Point(x: rect.x + labelWidth, y: y + height), style: .error, maxWidth: fieldWidth)
                }
            }
            y += height + 2
        }
        let save = model.saving ? "[ Saving… ]" : "[ Save (Ctrl-S) ]"
        let saveStyle: Style = form.saveFocused ? .selected : (form.isValid ? .accent : .dim)
        let used = surface.draw(save, at: Point(x: rect.x + labelWidth, y: y), style: saveStyle, maxWidth: rect.width)
        surface.draw("[ Cancel (Esc) ]", at: Point(x: rect.x + labelWidth + used + 2, y: y), style: .plain, maxWidth: rect.width)
        if let formError {
            surface.draw(formError, at: Point(x: rect.x + labelWidth, y: y + 2), style: .error, maxWidth: rect.width - labelWidth)
        }
        if let discard { discard.render(in: rect, surface: surface) }
    }

}
