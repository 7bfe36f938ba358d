import TerminalUI

/// The panel a tab shows until its own screens are built.
@MainActor
public final class PlaceholderScreen: Screen {
    public let title: String
    public init(title: String) { self.title = title }

    public var keyHelp: [HelpEntry] { [] }

    public func render(in rect: Rect, surface: any Surface) {
        let box = rect.centered(width: min(rect.width, 44), height: 5)
        surface.box(box, title: title, style: .dim)
        surface.draw("\(title) is not built yet.", at: Point(x: box.x + 2, y: box.y + 2), style: .plain, maxWidth: box.width - 4)
    }

    public func handle(_ event: TerminalEvent) -> ScreenCommand { .ignored }
}
