import TerminalUI

/// What a screen asks the navigation to do after handling an event.
@MainActor
public enum ScreenCommand {
    /// The screen used the event.
    case handled
    /// The screen did not use it: the shell's global keys get a chance.
    case ignored
    /// Open another screen on top of this one in the same tab.
    case push(any Screen)
    /// Close every screen of this tab but its root, and show tab `index` (0 is Catalog).
    case finish(showingTab: Int)
}

/// One screen of a tab: it draws itself and maps events to intents on its view model.
@MainActor
public protocol Screen: AnyObject {
    /// The title shown in the breadcrumb line.
    var title: String { get }
    /// The screen's keys, for the help overlay (generated from the screen's key map).
    var keyHelp: [HelpEntry] { get }
    /// Short hints for the bottom bar.
    var hints: [(key: String, label: String)] { get }
    /// True while something animates (a spinner), so the shell keeps redrawing.
    var isAnimating: Bool { get }
    func render(in rect: Rect, surface: any Surface)
    func handle(_ event: TerminalEvent) -> ScreenCommand
    /// Called when the screen becomes visible (first time and after returning to it).
    func didAppear()
}

public extension Screen {
    var hints: [(key: String, label: String)] { [] }
    var isAnimating: Bool { false }
    func didAppear() {}
}
