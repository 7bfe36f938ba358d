import Localization
import TerminalUI

/// Before the tabs, when the configuration had problems: each one, wrapped and scrolled, so it
/// can be read (stderr had them only until the screen was taken). Enter, Esc or a click goes on.
@MainActor
final class ConfigProblemsScene: LoopContent {
    enum Action: Sendable { case next, up, down }

    static var keys: KeyMap<Action> {
        KeyMap(
            "problems",
            [
                KeyBinding(
                    [.enter, .escape, .char(" ")], tr(.onboardingNext), hint: tr(.hintNext), hintKeys: "Enter", .next),
                KeyBinding([.up, .char("k")], tr(.scrollUp), .up),
                KeyBinding([.down, .char("j")], tr(.scrollDown), hint: tr(.hintMove), hintKeys: "↑↓", .down),
            ])
    }

    let problems: [String]
    private(set) var isFinished = false
    private var scroll = 0
    var isAnimating: Bool { false }

    init(problems: [String]) { self.problems = problems }

    func handle(_ event: TerminalEvent) -> Bool {
        if case .key(.ctrl("c")) = event { return false }
        if case .mouse(let mouse) = event, mouse.kind == .click { isFinished = true }
        guard case .key(let key) = event, let action = Self.keys.action(for: key) else { return true }
        switch action {
        case .next: isFinished = true
        case .up: scroll = max(0, scroll - 1)
        case .down: scroll += 1  // clamped when drawn
        }
        return true
    }

    func render(into buffer: inout Buffer) {
        let size = buffer.size
        let width = min(size.width - 4, 100), x = (size.width - width) / 2
        let lines = problems.flatMap { problem in
            DisplayWidth.wrap("✗ " + problem, width: width).enumerated().map {
                $0.offset == 0 ? $0.element : "  " + $0.element
            } + [""]
        }
        let top = 3, room = max(1, size.height - top - 2)
        let first = max(0, min(scroll, lines.count - room))
        buffer.draw("FakeNFT", at: Point(x: x, y: 0), style: .accent, maxWidth: width)
        buffer.draw(trPlural(.configProblems, problems.count), at: Point(x: x, y: 1), style: .bold, maxWidth: width)
        buffer.focus = Point(x: x, y: top)  // a screen reader reads the problems from the first shown
        for (i, line) in lines.dropFirst(first).prefix(room).enumerated() {
            buffer.draw(line, at: Point(x: x, y: top + i), style: .error, maxWidth: width)
        }
        KeyHintBar(Self.keys.hints() + [KeyHint(Key.ctrl("c").description, tr(.hintQuit))])
            .render(in: Rect(x: 0, y: size.height - 1, width: size.width, height: 1), buffer: &buffer)
    }
}
