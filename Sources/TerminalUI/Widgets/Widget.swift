/// Something drawn into a rectangle of a ``Buffer``: a pure function of the widget's value.
/// Drawn through ``Buffer/render(_:in:)``.
@MainActor
public protocol Widget {
    func render(in rect: Rect, buffer: inout Buffer)
}

extension Buffer {
    /// Draws `widget` into `rect`: the one way a widget is drawn.
    @MainActor
    public mutating func render(_ widget: some Widget, in rect: Rect) { widget.render(in: rect, buffer: &self) }
}
