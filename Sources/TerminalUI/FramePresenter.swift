/// Draws each frame into a fresh cell grid and shows it on the terminal only when it differs
/// from the frame shown before: one write per changed frame, nothing for an unchanged one.
@MainActor
public final class FramePresenter {
    private let surface: TerminalSurface
    private var lastFrame: Buffer?

    public init(surface: TerminalSurface) { self.surface = surface }

    /// The next frame is written whole (the theme changed: the same cells now look different).
    public func invalidate() { lastFrame = nil }

    /// Renders with `draw`; returns true when the terminal was updated.
    @discardableResult
    public func present(size: Size, draw: (inout Buffer) -> Void) -> Bool {
        var frame = Buffer(size: size, forScreenReader: surface.forScreenReader)
        draw(&frame)
        if let lastFrame, lastFrame.size == frame.size, lastFrame.cursor == frame.cursor,
            lastFrame.focus == frame.focus,
            lastFrame.overlays == frame.overlays, lastFrame.hyperlinks == frame.hyperlinks,
            lastFrame.cells == frame.cells
        {
            return false
        }
        surface.present(frame, over: lastFrame)
        lastFrame = frame
        return true
    }
}
