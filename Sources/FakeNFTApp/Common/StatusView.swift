import TerminalUI

/// The spinner or the error (with how to retry) shown in place of content that is not loaded.
@MainActor
enum StatusView {
    /// Draws the state of `loadable` and returns true when the content should not be drawn.
    static func render<Value, Failure>(_ loadable: Loadable<Value, Failure>, what: String, in rect: Rect, surface: any Surface) -> Bool {
        switch loadable {
        case .loaded: return false
        case .loading: renderLoading(what: what, in: rect, surface: surface)
        case .failed(let failure): renderFailure(failure.userMessage, what: what, in: rect, surface: surface)
        }
        return true
    }

    static func renderLoading(what: String, in rect: Rect, surface: any Surface) {
        Spinner.render("Loading \(what)…", at: Point(x: rect.x + 1, y: rect.y + 1), maxWidth: rect.width - 2, surface: surface)
    }

    static func renderFailure(_ message: String, what: String, in rect: Rect, surface: any Surface) {
        let lines = DisplayWidth.wrap("Could not load \(what). \(message)", width: max(10, rect.width - 4))
        for (i, line) in lines.enumerated() where i < rect.height - 3 {
            surface.draw(line, at: Point(x: rect.x + 1, y: rect.y + 1 + i), style: .error, maxWidth: rect.width - 2)
        }
        surface.draw("[ Retry: r ]", at: Point(x: rect.x + 1, y: rect.y + 2 + min(lines.count, rect.height - 3)), style: .selected, maxWidth: rect.width - 2)
    }
}
