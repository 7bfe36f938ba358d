import Foundation
import Logging
import TerminalUI

/// What the terminal shows pictures with, and the theme for its background: decided from the
/// environment at start, so that nothing waits for the terminal, again when its answers to the
/// start-up queries arrive (at once, after a network's delay, or never), and again whenever it
/// reports a new colour scheme or background (`--theme auto` follows it).
@MainActor
final class TerminalFit {
    /// The decision for the answers so far (nil: none yet).
    typealias Decide = @MainActor (TerminalReplies?) -> (graphics: TerminalGraphics, theme: Theme)

    private let session: TerminalSession
    private var decide: Decide
    private let logger: Logger
    private(set) var graphics: TerminalGraphics
    /// What the terminal answered so far.
    private var replies: TerminalReplies?
    /// Pictures in pixels, when the terminal shows them.
    private(set) var pixels: PixelImages?
    /// The pictures to refit when the answers change how they are drawn (set once they exist).
    weak var pictures: Pictures?

    init(session: TerminalSession, decide: @escaping Decide, logger: Logger) {
        self.session = session
        self.decide = decide
        self.logger = logger
        graphics = TerminalGraphics(mode: .off)  // until the first decision, just below
        apply(decide(nil), replies: false)
    }

    /// A cell's width over its height, for character art.
    var cellAspect: Double { Double(graphics.cellPixels.width) / Double(graphics.cellPixels.height) }

    /// The settings changed: decide with `decide` from now on, for the answers so far.
    func redecide(_ decide: @escaping Decide) {
        self.decide = decide
        apply(decide(replies), replies: true)
    }

    /// The terminal answered (or reported a change): decide again, and redraw with what it can do.
    func take(_ replies: TerminalReplies) {
        let known = self.replies.map { $0.updated(with: replies) } ?? replies
        self.replies = known
        apply(decide(known), replies: true)
    }

    private func apply(_ decided: (graphics: TerminalGraphics, theme: Theme), replies: Bool) {
        var graphics = decided.graphics
        if graphics.mode == .kitty, session.colors != .full {
            graphics.mode = .symbols
            logger.info(
                """
                pictures: symbols (kitty placeholders carry the image in a 256-colour foreground, and this terminal \
                has fewer colours)
                """
            )
        }
        let changed = !replies || graphics.mode != self.graphics.mode || graphics.cellPixels != self.graphics.cellPixels
        self.graphics = graphics
        if changed {
            pixels = graphics.mode.isPixels ? PixelImages(graphics: graphics) : nil
            session.surface.pixels = pixels
            pictures?.refit(cellAspect: cellAspect, pixels: pixels)
        }
        session.surface.theme = decided.theme
        logger.info(
            """
            pictures: \(graphics.mode.rawValue) (\(graphics.reasons.joined(separator: "; "))); theme: \
            \(decided.theme.name.rawValue)\(replies ? " (the terminal answered)" : "")
            """
        )
    }
}
