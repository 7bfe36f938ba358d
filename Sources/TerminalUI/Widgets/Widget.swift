/// Something drawn into a rectangle of a ``Buffer``: a pure function of the widget's value.
@MainActor
public protocol Widget {
    func render(in rect: Rect, buffer: inout Buffer)
}

/// A widget that also lays out a state the caller keeps between frames (a list's scroll
/// offset, a grid's columns), so that keys and clicks act on what was drawn.
@MainActor
public protocol StatefulWidget {
    associatedtype State
    func render(in rect: Rect, buffer: inout Buffer, state: inout State)
}
