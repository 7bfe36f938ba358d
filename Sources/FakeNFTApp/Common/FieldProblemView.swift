import TerminalUI

/// A form field's problem ("✗ …"), drawn where it is whole: beside the field when it fits in the
/// room there (and that room is at least ``minimumBeside`` wide), else on the row under the field,
/// else on that row from the label's column (the row it is rendered in). The sign-in form and
/// Profile's edit form place theirs so.
struct FieldProblemView: Widget {
    /// The fewest columns beside a field that a problem is put in.
    static let minimumBeside = 16

    var problem: String
    /// What is right of the field (after a gap), on the field's first row.
    var beside: Rect
    /// Where the field's columns start, on the row under it.
    var fieldX: Int
    var fieldWidth: Int

    func render(in rect: Rect, buffer: inout Buffer) {
        let text = Label("✗ \(problem)", style: .error)
        if beside.width >= max(Self.minimumBeside, text.width) {
            buffer.render(text, in: beside)
        } else if text.width <= fieldWidth {
            buffer.render(text, in: Rect(x: fieldX, y: rect.y, width: fieldWidth, height: 1))
        } else {
            buffer.render(text, in: rect)
        }
    }
}
