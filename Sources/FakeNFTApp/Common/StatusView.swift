import TerminalUI

/// The spinner or the error (with how to retry) shown in place of content that is not loaded.
@MainActor
enum StatusView {
    /// Draws the state of `loadable` and returns true when the content should not be drawn.
    static func render<Value, Failure>(_ loadable: Loadable<Value, Failure>, what: String, in rect: Rect, buffer: inout Buffer) -> Bool {
        switch loadable {
        case .loaded: return false
        case .loading: renderLoading(what: what, in: rect, buffer: &buffer)
        case .failed(let failure): renderFailure(failure.userMessage, what: what, in: rect, buffer: &buffer)
        }
        return true
    }

    static func renderLoading(what: String, in rect: Rect, buffer: inout Buffer) {
        Spinner.render("Loading \(what)…", at: Point(x: rect.x + 1, y: rect.y + 1), maxWidth: rect.width - 2, buffer: &buffer)
    }

    static func renderFailure(_ message: String, what: String, in rect: Rect, buffer: inout Buffer) {
        let lines = DisplayWidth.wrap("Could not load \(what). \(message)", width: max(10, rect.width - 4))
        for (i, line) in lines.enumerated() where i < rect.height - 3 {
            buffer.draw(line, at: Point(x: rect.x + 1, y: rect.y + 1 + i), style: .error, maxWidth: rect.width - 2)
        }
        buffer.button("[ Retry: r ]", at: Point(x: rect.x + 1, y: rect.y + 2 + min(lines.count, rect.height - 3)), style: .selected, maxWidth: rect.width - 2, key: .char("r"))
    }
}
