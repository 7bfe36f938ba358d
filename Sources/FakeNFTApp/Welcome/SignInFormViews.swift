import FakeNFTCore
import Localization
import TerminalUI

/// The sign-in form's switch on one row: Sign in and Sign up, the current mode reversed (the
/// focus's colour when the switch has it); each clicked as its place in `area` (0 and 1).
@MainActor
struct ModeSwitchView: Widget {
    var mode: SignInModel.Mode
    var focused: Bool
    var area: String

    func render(in rect: Rect, buffer: inout Buffer) {
        var x = rect.x
        for (index, (mode, label)) in [(SignInModel.Mode.signIn, tr(.signIn)), (.signUp, tr(.signUp))].enumerated() {
            let current = self.mode == mode
            let style: Style = current ? (focused ? .selected : Style(bold: true, reverse: true)) : .dim
            let drawn = buffer.draw(
                " \(label) ", at: Point(x: x, y: rect.y), style: style, maxWidth: max(0, rect.maxX - x))
            buffer.addHit(Rect(x: x, y: rect.y, width: drawn, height: 1), .item(area: area, index: index))
            x += drawn + 2
        }
    }
}

/// One field of the form on two rows: its label and its box (clicked as `target`), and the
/// field's problem where it is whole (``FieldProblemView``).
@MainActor
struct FormFieldView: Widget {
    /// Rows a field takes.
    static let height = 2

    var label: String
    var labelWidth: Int
    var fieldWidth: Int
    var field: TextFieldView
    var problem: String?
    var target: HitTarget

    func render(in rect: Rect, buffer: inout Buffer) {
        let (line, under) = rect.rows(.length(1), .length(1))
        let (labelArea, box, rest) = line.columns(.length(labelWidth), .length(fieldWidth), .fill)
        buffer.render(Label(label, style: field.focused ? .accent : .plain), in: labelArea)
        buffer.render(field, in: box)
        buffer.addHit(Rect(x: rect.x, y: rect.y, width: labelWidth + fieldWidth, height: 1), target)
        guard let problem else { return }
        let (_, beside) = rest.columns(.length(2), .fill)
        buffer.render(
            FieldProblemView(problem: problem, beside: beside, fieldX: box.x, fieldWidth: fieldWidth),
            in: under)
    }
}

/// The spinner over the dimmed form while its request runs, in a box at the middle.
@MainActor
struct SubmittingView: Widget {
    var label: String

    func render(in rect: Rect, buffer: inout Buffer) {
        let box = rect.centered(width: min(rect.width - 2, DisplayWidth.of(label) + 6), height: 3)
        buffer.clear(box)
        buffer.render(Block(style: .accent), in: box)
        let (_, text, _) = box.inset(dx: 0, dy: 1).columns(.length(3), .fill, .length(1))
        buffer.render(Label(label, style: .accent), in: text)
    }
}
