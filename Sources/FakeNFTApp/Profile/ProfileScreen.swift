import Localization
import FakeNFTCore
import Foundation
import TerminalUI

/// Profile: avatar, name, description, website, and the rows My NFTs, Favorite NFTs, My orders,
/// SSH keys, Website.
/// `e` opens the edit form in place.
@MainActor
final class ProfileScreen: Screen {
    enum Action: Sendable { case open, edit, retry }
    enum Row { case myNFTs, favorites, orders, keys, website, about, signIn, signOut }
    enum FormAction: Sendable { case next, previous, save, close }

    static var keys: KeyMap<Action> {
        KeyMap(
            "profile",
            [
                KeyBinding([.char("e")], tr(.editProfileKey), hint: tr(.hintEdit), changesData: true, .edit),
                KeyBinding([.enter], tr(.openRow), hint: tr(.hintOpen), .open),
                KeyBinding([.char("r")], tr(.reload), hint: tr(.hintRetry), .retry),
            ])
    }
    static var formKeys: KeyMap<FormAction> {
        KeyMap(
            "profile-form",
            [
                KeyBinding([.ctrl("s")], tr(.saveKey), hint: tr(.hintSave), .save),
                KeyBinding([.escape], tr(.closeForm), hint: tr(.hintClose), .close),
                KeyBinding([.tab], tr(.nextField), hint: tr(.hintNextField), .next),
                KeyBinding([.backTab], tr(.previousField), .previous),
            ])
    }

    var title: String { tr(.tabProfile) }
    var usage: UsageEvent.Screen { model.form == nil ? .profile : .edit }
    let tasks = TaskBag()
    let model: ProfileViewModel
    private let rows: ListPane<Row>
    /// The "Discard changes?" question over the form.
    private var discard: ConfirmDialog?
    /// The "Log out?" question.
    private var signOut: ConfirmDialog?
    /// The first form row shown when the form is taller than the screen, as the last frame
    /// scrolled it (the frame keeps the focused field in view).
    private var formScroll = 0

    init(model: ProfileViewModel) {
        self.model = model
        rows = ListPane(area: "rows") { Self.rows(of: model.context) }
    }

    /// The rows under the profile: SSH keys and Log out when an account is signed in, Sign in
    /// when none is and the server offers accounts.
    private static func rows(of context: AppContext) -> [Row] {
        [.myNFTs, .favorites, .orders] + (context.showsKeys ? [.keys] : []) + [.website, .about]
            + (context.account != nil ? [.signOut] : context.offersAccounts ? [.signIn] : [])
    }

    var isAnimating: Bool { model.shown.isLoading || model.saving }

    func didAppear() {
        tasks.once { [model] in await model.load() }
        tasks.run { [model] in await model.loadWallet() }  // after a purchase elsewhere, the wallet grew
        tasks.run { [model] in await model.loadOrders() }
        tasks.run { [model] in await model.loadKeys() }
    }

    var layers: [KeyLayer] {
        if let signOut {
            return [
                .dialog(tr(.signOutTitle), signOut, update: { [unowned self] in self.signOut = $0 }) { result in
                    result == .confirmed ? .leaveTabs : .handled
                }
            ]
        }
        if let discard {
            return [
                .dialog(tr(.discardTitle), discard, update: { [unowned self] in self.discard = $0 }) {
                    [unowned self] result in
                    if result == .confirmed { model.closeForm() }
                    return .handled
                }
            ]
        }
        if let form = model.form { return [formLayer(form)] }
        return rows.layers(with: [
            .keys(title, Self.keys, readOnly: model.context.readOnly) { [unowned self] action in
                switch action {
                case .retry:
                    return .run(hinted: model.shown.failure != nil) { [unowned self] in
                        tasks.run { [model] in await model.load() }
                    }
                case .edit: return model.profile == nil ? .passes : .run { [model] in model.openForm() }
                case .open:
                    guard model.profile != nil, let row = rows.selected else { return .passes }
                    return .command { [unowned self] in open(row) }
                }
            }
        ])
    }

    private func open(_ row: Row) -> ScreenCommand {
        guard let profile = model.profile else { return .handled }
        let context = model.context
        switch row {
        case .myNFTs: return .push(MyNFTsScreen(model: MyNFTsViewModel(context: context)))
        case .favorites: return .push(FavoritesScreen(model: FavoritesViewModel(context: context)))
        case .orders: return .push(OrdersScreen(model: OrdersViewModel(context: context)))
        case .keys: return .push(KeysScreen(model: model))
        case .website:
            guard !profile.website.isEmpty else {
                context.effects.show(Toast(tr(.profileNoWebsite), kind: .error))
                return .handled
            }
            return .push(ReaderScreen(model: ReaderViewModel(url: profile.website, effects: context.effects)))
        case .about: return .push(AboutScreen())
        case .signIn: return .leaveTabs  // the shared profile ends; the sign-in screen comes
        case .signOut:
            signOut = ConfirmDialog(
                title: tr(.signOutTitle),
                message: tr(.signOutQuestion, model.context.accountName),
                confirmLabel: tr(.signOutConfirm), cancelLabel: tr(.stay), destructive: true)
            return .handled
        }
    }

    /// The edit form: its own keys first, then the focused field's editing keys.
    private func formLayer(_ form: ProfileForm) -> KeyLayer {
        KeyLayer(
            title: tr(.editProfile), help: Self.formKeys.helpEntries + TextEditor.help,
            hints: Self.formKeys.hints(), isModal: true
        ) { [unowned self] event, frame in
            formScroll = frame.panes[Self.formArea]?.firstRow ?? 0
            var current = form
            switch event {
            case .paste(let text):
                current.paste(text)
            case .key(let key):
                switch (Self.formKeys.exactAction(for: key), key) {
                case (.next, _): current.moveFocus(by: 1)
                case (.previous, _): current.moveFocus(by: -1)
                case (.save, _),
                    (nil, .enter) where current.saveFocused:
                    save(current)
                    return .handled
                case (.close, _):
                    if current.hasChanges {
                        discard = ConfirmDialog(
                            title: tr(.discardTitle), message: tr(.discardMessage),
                            confirmLabel: tr(.discard), cancelLabel: tr(.stay), destructive: true)
                    } else {
                        model.closeForm()
                    }
                    return .handled
                case (nil, .enter) where current.focus != .description: current.moveFocus(by: 1)
                case (nil, _): _ = current.edit(key)
                }
            default:
                return .handled
            }
            model.form = current
            return .handled
        }
    }

    private func save(_ submitted: ProfileForm) {
        tasks.run { [model] in await model.save(submitted) }
    }

    func render(in rect: Rect, buffer: inout Buffer) {
        if let form = model.form {
            renderForm(form, in: rect, buffer: &buffer)
            return
        }
        if let status = StatusView(model.shown, what: .profile, retry: Self.keys.key(for: .retry)) {
            buffer.render(status, in: rect)
            return
        }
        guard let profile = model.profile else { return }
        // On a phone's width a smaller avatar, and Edit only in the key hints.
        let narrow = rect.width < 56
        let (picture, _, facts) = rect.columns(.length(narrow ? 8 : 14), .length(2), .fill)
        let (avatar, _) = picture.rows(.length(narrow ? 4 : 6), .fill)
        buffer.render(PictureView(profile.avatar, label: profile.name, pictures: model.context.pictures), in: avatar)
        let showsEdit = !model.context.readOnly && !narrow
        let edit = showsEdit ? tr(.editButton, Self.keys.keyLabel(for: .edit)) : ""
        let wallet = model.wallet.value.map { Format.price($0) } ?? (model.wallet.isLoading ? "…" : tr(.unknown))
        let walletText = Paragraph([Line(tr(.wallet, Format.count(profile.nfts.count, .nfts), wallet), style: .success)]
        )
        let walletRows = walletText.height(width: facts.width, most: 2)
        let description = Paragraph([Line(profile.description)])
        let descriptionRows = description.height(width: facts.width, most: 4 - walletRows)
        let (heading, website, walletArea, _, descriptionArea) = facts.rows(
            .length(1), .length(1), .length(walletRows), .length(1), .length(descriptionRows))
        let (name, editButton) = heading.columns(.fill, .length(showsEdit ? DisplayWidth.of(edit) + 1 : 0))
        buffer.render(Paragraph([Line(profile.name, style: .bold, wraps: false)]), in: name)
        if showsEdit {
            let button = Span.button(edit, style: .accent, key: Self.keys.key(for: .edit))
            buffer.render(Paragraph([Line([button], alignment: .trailing, wraps: false)]), in: editButton)
        }
        buffer.render(Paragraph([Line([.webLink(profile.website, to: profile.website)], wraps: false)]), in: website)
        buffer.render(walletText, in: walletArea)
        buffer.render(description, in: descriptionArea)
        let shownRows = rows.all
        let labels = shownRows.map { row in
            switch row {
            case .myNFTs: tr(.myNFTsRow, profile.nfts.count)
            case .favorites: tr(.favoritesRow, model.context.state.likes.count)
            case .orders: model.ordersCount.map { tr(.myOrdersRow, $0) } ?? tr(.myOrders)
            case .keys: model.keys.value.map { tr(.sshKeysRow, $0.count) } ?? tr(.sshKeys)
            case .website: tr(.websiteRow)
            case .about: tr(.aboutRow)
            case .signIn: tr(.signInRow)
            case .signOut: tr(.signOutRow, model.context.accountRowName)
            }
        }
        let top = rect.y + max(7, 5 + min(3, descriptionRows))
        let area = Rect(x: rect.x, y: top, width: rect.width, height: max(2, min(shownRows.count * 2, rect.maxY - top)))
        rows.render(in: area, rowHeight: 2, buffer: &buffer) { _, index, row, selected, buffer in
            buffer.render(LinkRow(labels[index], selected: selected), in: row)
        }
        if let signOut { buffer.render(signOut, in: rect) }
    }

    /// The form's height when nothing is cut: title and gap, each field and its gap, the
    /// buttons, a gap and the error line (the rows ``drawForm(_:in:buffer:)`` uses).
    static let formHeight = 2 + ProfileForm.Field.allCases.map { ProfileForm.rows($0) + 2 }.reduce(0, +) + 1 + 2

    /// The name the form's scroll position is kept by in a frame.
    static let formArea = "form"

    /// Draws the form at full height, then shows the part around the focused field: on a short
    /// terminal the form scrolls, and says so, instead of typing into a field out of sight.
    private func renderForm(_ form: ProfileForm, in rect: Rect, buffer: inout Buffer) {
        var page = Buffer(
            size: Size(width: rect.width, height: max(rect.height, Self.formHeight)),
            forScreenReader: buffer.forScreenReader)
        let focus = drawForm(form, in: Rect(size: page.size), buffer: &page)
        // What the form drew reaches this far (no error line: less than the most it can need).
        let used = (0..<page.size.height).last { !page.line($0).allSatisfy { $0 == " " } }.map { $0 + 1 } ?? 0
        var formScroll = self.formScroll
        if focus.maxY > formScroll + rect.height { formScroll = focus.maxY - rect.height }
        if focus.y < formScroll { formScroll = focus.y }
        formScroll = max(0, min(formScroll, used - rect.height))
        buffer.record(
            PaneLayout(rect: rect, count: used, firstRow: formScroll, rowsShown: rect.height), as: Self.formArea)
        buffer.blit(
            page, from: Rect(x: 0, y: formScroll, width: rect.width, height: rect.height),
            to: Point(x: rect.x, y: rect.y))
        let above = tr(.moreAbove), below = tr(.moreBelow)
        if formScroll > 0 {
            buffer.draw(
                above, at: Point(x: rect.maxX - DisplayWidth.of(above), y: rect.y), style: .dim, maxWidth: rect.width)
        }
        if formScroll + rect.height < used {
            buffer.draw(
                below, at: Point(x: rect.maxX - DisplayWidth.of(below), y: rect.maxY - 1), style: .dim,
                maxWidth: rect.width)
        }
        if let discard { buffer.render(discard, in: rect) }
    }

    /// Draws the whole form into `rect`; returns the rows of what has the focus.
    private func drawForm(_ form: ProfileForm, in rect: Rect, buffer: inout Buffer) -> Rect {
        buffer.draw(tr(.editProfile), at: Point(x: rect.x, y: rect.y), style: .bold, maxWidth: rect.width)
        // Fields are 60 wide, wider where the terminal leaves 60 columns beside them for a problem and the avatar.
        let labelWidth = 2 + ProfileForm.Field.allCases.map { DisplayWidth.of(ProfileForm.label($0)) }.reduce(0, max),
            available = rect.width - labelWidth - 2, fieldWidth = min(max(60, available - 60), available)
        var y = rect.y + 2
        var focusRows = Rect(x: rect.x, y: rect.y, width: rect.width, height: 1)
        var avatarY = y
        for field in ProfileForm.Field.allCases {
            let focused = form.focus == field && !form.saveFocused
            buffer.draw(
                ProfileForm.label(field), at: Point(x: rect.x, y: y), style: focused ? .accent : .plain,
                maxWidth: labelWidth)
            let height = ProfileForm.rows(field)
            if let editor = form.editors[field] {
                let placeholder = field == .avatar || field == .website ? "https://…" : ""
                buffer.render(
                    TextFieldView(editor, focused: focused, placeholder: placeholder),
                    in: Rect(x: rect.x + labelWidth, y: y, width: fieldWidth, height: height))
            }
            if let error = form.error(field) {
                let besideX = rect.x + labelWidth + fieldWidth + 2
                let under = Rect(x: rect.x, y: y + height, width: rect.width, height: 1)
                buffer.render(
                    FieldProblemView(
                        problem: error, beside: Rect(x: besideX, y: y, width: max(0, rect.maxX - besideX), height: 1),
                        fieldX: rect.x + labelWidth, fieldWidth: fieldWidth),
                    in: under)
            }
            if focused { focusRows = Rect(x: rect.x, y: y, width: rect.width, height: height + 1) }
            if field == .avatar { avatarY = y }
            y += height + 2
        }
        // The avatar of the link being typed, once it is a valid link and there is room: beside
        // its own field (which then has no problem to say), below the others' problems.
        let previewX = rect.x + labelWidth + fieldWidth + 4
        if rect.maxX - previewX >= 10, let avatar = form.avatarLink {
            buffer.render(
                PictureView(avatar, label: form.text(.name), pictures: model.context.pictures),
                in: Rect(x: previewX, y: avatarY, width: 10, height: 5))
        }
        let save = model.saving ? tr(.savingButton) : tr(.saveButton)
        let saveStyle: Style = form.saveFocused ? .selected : (form.isValid ? .accent : .dim)
        let used = buffer.button(
            save, at: Point(x: rect.x + labelWidth, y: y), style: saveStyle, maxWidth: rect.width, key: .ctrl("s"))
        buffer.button(
            tr(.cancelButton), at: Point(x: rect.x + labelWidth + used + 2, y: y), style: .plain, maxWidth: rect.width,
            key: .escape)
        if form.saveFocused { focusRows = Rect(x: rect.x, y: y, width: rect.width, height: 1) }
        if let formError = model.formError {
            buffer.draw(
                formError.message, at: Point(x: rect.x + labelWidth, y: y + 2), style: .error,
                maxWidth: rect.width - labelWidth
            )
            if form.saveFocused { focusRows.height = 3 }
        }
        return focusRows
    }

}
