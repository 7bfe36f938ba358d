import FakeNFTCore
import Localization
import Observation
import TerminalUI

/// The sign-in screen, when the server offers accounts: Sign in / Sign up (←/→ on the switch, the
/// first row), the fields with their problems as you type, the button, and "Continue without an
/// account". Tab/↓ and Shift-Tab/↑ move between the rows, Enter goes on (and sends from the last
/// field). While the request runs the screen dims under a spinner.
@MainActor
final class SignInScene: LoopContent {
    /// The rows the focus moves over.
    enum Row: Hashable { case mode, field(SignInModel.Field), submit, withoutAccount }

    enum Action: Sendable { case switchMode, up, down, enter, withoutAccount }

    /// The name the rows are clicked by.
    static let rowsArea = "rows"
    /// The name the switch's two modes are clicked by (sign in 0, sign up 1).
    static let modesArea = "modes"

    static var keys: KeyMap<Action> {
        KeyMap(
            "sign-in",
            [
                KeyBinding([.tab, .down], tr(.signInNextField), hint: tr(.hintMove), hintKeys: "Tab ↑↓", .down),
                KeyBinding([.backTab, .up], tr(.previousField), .up),
                KeyBinding([.left, .right], tr(.signInSwitch), hint: tr(.hintSwitch), hintKeys: "←→", .switchMode),
                KeyBinding([.enter], tr(.signInEnter), hint: tr(.hintNext), .enter),
                KeyBinding([.escape], tr(.continueWithoutAccountKey), hint: tr(.hintWithoutAccount), .withoutAccount),
            ])
    }

    let model: SignInModel
    private let tasks = TaskBag()
    private var focus: Row = .field(.email)
    /// Clicks, layers, the help and the footer, as every scene has them.
    private let route = SceneRoute()

    init(model: SignInModel) { self.model = model }

    var isFinished: Bool { model.outcome != nil }
    var isAnimating: Bool { model.submitting }

    private var rows: [Row] { [.mode] + model.fields.map { .field($0) } + [.submit, .withoutAccount] }

    private var title: String { model.mode == .signIn ? tr(.signIn) : tr(.signUp) }

    /// Top first: nothing while the request runs; the focused field's editing keys; the scene's
    /// keys; clicks on the rows.
    private var layers: [KeyLayer] {
        if model.submitting { return [KeyLayer(title: title, help: [], isModal: true) { _ in .handled }] }
        var layers: [KeyLayer] = []
        if case .field(let field) = focus {
            layers.append(
                KeyLayer(title: Self.label(field), help: TextEditor.help) { [unowned self] event in
                    switch event {
                    case .key(let key)
                    where !KeyRemap.fixed.contains(key)
                        && (key == .left || key == .right || Self.keys.exactAction(for: key) == nil):
                        _ = model.edit(field) { $0.handle(key) }
                    case .paste(let text):
                        _ = model.edit(field) {
                            $0.insert(text)
                            return true
                        }
                    default: return nil
                    }
                    return .handled
                })
        }
        // ←→ switch the mode only on its row (in a field they move the caret): hinted only there
        layers.append(
            .keys(title, Self.keys, readOnly: false) { [unowned self] action in
                switch action {
                case .switchMode: focus == .mode ? .run { [unowned self] in switchMode() } : .passes
                case .up: .run { [unowned self] in move(-1) }
                case .down: .run { [unowned self] in move(1) }
                case .enter: .run { [unowned self] in enter() }
                case .withoutAccount: .run { [model] in model.continueWithoutAccount() }
                }
            })
        layers.append(
            KeyLayer(title: title, help: []) { [unowned self] event in
                if case .pick(Self.modesArea, let index) = event {
                    focus = .mode
                    if (index == 1) != (model.mode == .signUp) { switchMode() }
                    return .handled
                }
                guard case .pick(Self.rowsArea, let index) = event, rows.indices.contains(index) else { return nil }
                focus = rows[index]
                if focus == .submit || focus == .withoutAccount { enter() }
                return .handled
            })
        return layers
    }

    func handle(_ event: TerminalEvent) -> Bool { route.handle(event, through: layers) }

    /// Switches the mode; a focused field gives the focus to the new mode's first field.
    private func switchMode() {
        model.switchMode()
        if case .field = focus { focus = .field(model.fields[0]) }
    }

    private func move(_ step: Int) {
        let rows = self.rows
        let index = rows.firstIndex(of: focus) ?? 0
        focus = rows[max(0, min(rows.count - 1, index + step))]
    }

    private func enter() {
        switch focus {
        case .mode: focus = .field(model.fields[0])
        case .field(let field):
            if field == model.fields.last { submit() } else { move(1) }
        case .submit: submit()
        case .withoutAccount: model.continueWithoutAccount()
        }
    }

    private func submit() { tasks.run { [model] in await model.submit() } }

    func shown(_ frame: Buffer) { route.shown(frame) }

    func draw(into buffer: inout Buffer) {
        var page = Buffer(size: buffer.size, forScreenReader: buffer.forScreenReader)
        drawPage(into: &page)
        if model.submitting {  // dim everything under a spinner
            page.dimAll()
            page.cursor = nil
            let label = "\(Spinner.frame(in: page)) \(model.mode == .signIn ? tr(.signingIn) : tr(.signingUp))"
            page.render(SubmittingView(label: label), in: Rect(size: page.size))
        }
        buffer = page
    }

    /// The form and its footer, under the spinner while a request runs: the title, the switch,
    /// the fields, the button with the request's outcome under it, and "Continue without an
    /// account" (kept above the footer).
    private func drawPage(into buffer: inout Buffer) {
        let size = buffer.size
        let width = min(size.width - 4, 72), top = max(0, (size.height - 16) / 2)
        let form = Rect(x: (size.width - width) / 2, y: top, width: width, height: max(0, size.height - top))
        let rows = self.rows
        func target(_ row: Row) -> HitTarget { .item(area: Self.rowsArea, index: rows.firstIndex(of: row) ?? 0) }
        let (titleRow, switchRow, rest) = form.rows(.length(2), .length(2), .fill)
        let (fieldsArea, buttonRow, below) = rest.rows(
            .length(FormFieldView.height * model.fields.count), .length(1), .fill)
        let (messageArea, withoutRow) = below.rows(.length(2), .fill)
        buffer.render(Label("FakeNFT", style: .accent), in: titleRow)
        buffer.render(ModeSwitchView(mode: model.mode, focused: focus == .mode, area: Self.modesArea), in: switchRow)
        let labelWidth = 2 + SignInModel.Field.allCases.map { DisplayWidth.of(Self.label($0)) }.reduce(0, max)
        let fieldWidth = min(40, width - labelWidth)
        for (index, field) in model.fields.enumerated() {
            guard let editor = model.editors[field] else { continue }
            let focused = focus == .field(field)
            let shown = field == .password || field == .repeatPassword ? editor.masked : editor
            let view = FormFieldView(
                label: Self.label(field), labelWidth: labelWidth, fieldWidth: fieldWidth,
                field: TextFieldView(shown, focused: focused, placeholder: field == .email ? "name@example.com" : ""),
                problem: model.touched.contains(field) ? model.problem(field) : nil, target: target(.field(field)))
            let row = fieldsArea.rows(.length(FormFieldView.height * index), .length(FormFieldView.height)).1
            buffer.render(view, in: row)
        }
        let label = model.mode == .signIn ? tr(.signInButton) : tr(.signUpButton)
        // Under the fields, or from the form's left edge when it would be cut there.
        func indent(for columns: Int) -> Int { labelWidth + columns <= width ? labelWidth : 0 }
        let (_, button) = buttonRow.columns(.length(indent(for: DisplayWidth.of(label))), .fill)
        buffer.render(Button(label, style: focus == .submit ? .selected : .accent, key: .enter), in: button)
        buffer.addHit(
            Rect(x: button.x, y: button.y, width: min(button.width, DisplayWidth.of(label)), height: 1), target(.submit)
        )
        if let message = model.failure?.message ?? model.notice {  // two lines, wrapped, before the next row
            let (_, text) = messageArea.columns(.length(indent(for: DisplayWidth.of(label))), .fill)
            buffer.render(Paragraph([Line(message, style: model.failure != nil ? .error : .success)]), in: text)
        }
        // never under the footer: over the message's last line when the screen is short
        let withoutY = min(withoutRow.y, size.height - 2)
        let link = Label(tr(.continueWithoutAccount), style: focus == .withoutAccount ? .selected : .link)
        let (_, without) = Rect(x: form.x, y: withoutY, width: width, height: 1).columns(
            .length(indent(for: link.width)), .fill)
        buffer.render(link, in: without)
        buffer.addHit(
            Rect(x: without.x, y: without.y, width: min(without.width, link.width), height: 1),
            target(.withoutAccount))
        route.finish(&buffer, title: title, layers: layers)
    }

    static func label(_ field: SignInModel.Field) -> String {
        switch field {
        case .name: tr(.fieldName)
        case .email: tr(.fieldEmail)
        case .password: tr(.fieldPassword)
        case .repeatPassword: tr(.fieldRepeatPassword)
        }
    }
}
