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

    /// The name the problems' layout is kept by in a frame.
    static let area = "problems"

    let problems: [String]
    private(set) var isFinished = false
    /// The first line shown: as the last frame drew it, then moved by the keys.
    private var scroll = ScrollPosition()
    var isAnimating: Bool { false }
    private let route = SceneRoute()

    init(problems: [String]) { self.problems = problems }

    private var title: String { trPlural(.configProblems, problems.count) }

    private var layers: [KeyLayer] {
        [
            KeyLayer(title: title, help: Self.keys.helpEntries, hints: Self.keys.hints()) {
                [unowned self] event, frame in
                guard case .key(let key) = event, let action = Self.keys.action(for: key) else { return nil }
                scroll.follow(frame.panes[Self.area])
                switch action {
                case .next: isFinished = true
                case .up: scroll.scroll(by: -1)
                case .down: scroll.scroll(by: 1)
                }
                return .handled
            }
        ]
    }

    func handle(_ event: TerminalEvent) -> Bool {
        route.handle(event, through: layers) { isFinished = true }  // a click goes on
    }

    func shown(_ frame: Buffer) { route.shown(frame) }

    func draw(into buffer: inout Buffer) {
        let size = buffer.size
        let width = min(size.width - 4, 100), x = (size.width - width) / 2
        let lines = problems.flatMap { problem in
            DisplayWidth.wrap("✗ " + problem, width: width).enumerated().map {
                $0.offset == 0 ? $0.element : "  " + $0.element
            } + [""]
        }
        let top = 3, room = max(1, size.height - top - 2)
        let first = max(0, min(scroll.first, lines.count - room))
        buffer.record(
            PaneLayout(
                rect: Rect(x: x, y: top, width: width, height: room), count: lines.count, firstRow: first,
                rowsShown: room),
            as: Self.area)
        buffer.draw("FakeNFT", at: Point(x: x, y: 0), style: .accent, maxWidth: width)
        buffer.draw(title, at: Point(x: x, y: 1), style: .bold, maxWidth: width)
        buffer.focus = Point(x: x, y: top)  // a screen reader reads the problems from the first shown
        for (i, line) in lines.dropFirst(first).prefix(room).enumerated() {
            buffer.draw(line, at: Point(x: x, y: top + i), style: .error, maxWidth: width)
        }
        route.finish(&buffer, title: title, layers: layers)
    }
}
