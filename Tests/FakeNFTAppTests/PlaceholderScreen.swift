import FakeNFTCore
import FakeNFTApp
import TerminalUI

/// A plain panel screen, for shell tests that need a tab without data.
@MainActor
final class PlaceholderScreen: Screen {
    let title: String
    let usage = UsageEvent.Screen.catalog
    let tasks = TaskBag()
    init(title: String) { self.title = title }

    var layers: [KeyLayer] { [] }

    func render(in rect: Rect, buffer: inout Buffer) {
        let box = rect.centered(width: min(rect.width, 44), height: 5)
        buffer.render(Block(title: title, style: .dim), in: box)
        buffer.draw(
            "\(title) is not built yet.", at: Point(x: box.x + 2, y: box.y + 2), style: .plain, maxWidth: box.width - 4)
    }
}
