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
            .keys(title, Self.keys, enabled: { [focus] in $0 != .switchMode || focus == .mode }) { [unowned self] in
                perform($0)
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

    private func perform(_ action: Action) -> ScreenCommand {
        switch action {
        case .switchMode: switchMode()
        case .up: move(-1)
        case .down: move(1)
        case .enter: enter()
        case .withoutAccount: model.continueWithoutAccount()
        }
        return .handled
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
        let size = buffer.size
        var page = Buffer(size: size)
        drawPage(into: &page)
        if model.submitting {  // dim everything under a spinner
            page.dimAll()
            page.cursor = nil
            let label = "\(Spinner.frame()) \(model.mode == .signIn ? tr(.signingIn) : tr(.signingUp))"
            let box = Rect(size: size).centered(width: min(size.width - 2, DisplayWidth.of(label) + 6), height: 3)
            page.clear(box)
            page.box(box, style: .accent)
            page.draw(label, at: Point(x: box.x + 3, y: box.y + 1), style: .accent, maxWidth: box.width - 4)
        }
        buffer = page
    }

    /// The form and its footer, under the spinner while a request runs.
    private func drawPage(into buffer: inout Buffer) {
        let size = buffer.size
        let width = min(size.width - 4, 72), x = (size.width - width) / 2
        var y = max(0, (size.height - 16) / 2)
        let rows = self.rows
        /// A row is clicked as its place among the rows (over any button drawn on it).
        func clickable(_ row: Row, _ rect: Rect) {
            if let index = rows.firstIndex(of: row) { buffer.addHit(rect, .item(area: Self.rowsArea, index: index)) }
        }
        buffer.draw("FakeNFT", at: Point(x: x, y: y), style: .accent, maxWidth: width)
        y += 2
        // The switch: the current mode reversed.
        var modeX = x
        for (index, (mode, label)) in [(SignInModel.Mode.signIn, tr(.signIn)), (.signUp, tr(.signUp))].enumerated() {
            let text = " \(label) "
            let current = model.mode == mode
            let style: Style = current ? (focus == .mode ? .selected : Style(bold: true, reverse: true)) : .dim
            let drawn = buffer.draw(text, at: Point(x: modeX, y: y), style: style, maxWidth: max(0, x + width - modeX))
            buffer.addHit(Rect(x: modeX, y: y, width: drawn, height: 1), .item(area: Self.modesArea, index: index))
            modeX += drawn + 2
        }
        y += 2
        let labelWidth = 2 + SignInModel.Field.allCases.map { DisplayWidth.of(Self.label($0)) }.reduce(0, max)
        let fieldWidth = min(40, width - labelWidth)
        for field in model.fields {
            let focused = focus == .field(field)
            buffer.draw(
                Self.label(field), at: Point(x: x, y: y), style: focused ? .accent : .plain, maxWidth: labelWidth)
            let rect = Rect(x: x + labelWidth, y: y, width: fieldWidth, height: 1)
            if let editor = model.editors[field] {
                let shown = field == .password || field == .repeatPassword ? editor.masked : editor
                buffer.render(
                    TextFieldView(shown, focused: focused, placeholder: field == .email ? "name@example.com" : ""),
                    in: rect)
            }
            clickable(.field(field), Rect(x: x, y: y, width: labelWidth + fieldWidth, height: 1))
            if model.touched.contains(field), let problem = model.problem(field) {
                let errorX = rect.maxX + 2
                if x + width - errorX >= 16 {
                    buffer.draw("✗ \(problem)", at: Point(x: errorX, y: y), style: .error, maxWidth: x + width - errorX)
                } else {
                    buffer.draw("✗ \(problem)", at: Point(x: rect.x, y: y + 1), style: .error, maxWidth: fieldWidth)
                }
            }
            y += 2
        }
        let button = model.mode == .signIn ? tr(.signInButton) : tr(.signUpButton)
        let used = buffer.button(
            button, at: Point(x: x + labelWidth, y: y), style: focus == .submit ? .selected : .accent,
            maxWidth: width - labelWidth, key: .enter)
        clickable(.submit, Rect(x: x + labelWidth, y: y, width: used, height: 1))
        if let message = model.failure?.message ?? model.notice {  // two lines, wrapped, before the next row
            for (i, line) in DisplayWidth.wrap(message, width: width - labelWidth, maxLines: 2).enumerated() {
                buffer.draw(
                    line, at: Point(x: x + labelWidth, y: y + 1 + i), style: model.failure != nil ? .error : .success,
                    maxWidth: width - labelWidth)
            }
        }
        y += 3
        let without = tr(.continueWithoutAccount)
        let usedWithout = buffer.draw(
            without, at: Point(x: x + labelWidth, y: min(y, size.height - 2)),
            style: focus == .withoutAccount ? .selected : .link, maxWidth: width - labelWidth)
        clickable(.withoutAccount, Rect(x: x + labelWidth, y: min(y, size.height - 2), width: usedWithout, height: 1))
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
