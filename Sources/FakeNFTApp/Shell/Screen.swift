import FakeNFTCore
import TerminalUI

/// What a screen asks the navigation to do after handling an event.
@MainActor
public enum ScreenCommand {
    /// The screen used the event.
    case handled
    /// Open another screen on top of this one in the same tab.
    case push(any Screen)
    /// Close every screen of this tab but its root.
    case popToRoot
    /// Close every screen of this tab but its root, and show tab `index` (0 is Catalog).
    case finish(showingTab: Int)
    /// Show tab `index` as it was left.
    case selectTab(Int)
    /// End the tabs for the sign-in screen: the account signed out, or the user asked to sign in.
    case leaveTabs
    /// The key cannot act now: the shell says why, instead of the key vanishing.
    case cannotAct(String)
}

/// One screen of a tab: it draws its view model's state and routes keys through its layers.
@MainActor
public protocol Screen: AnyObject {
    /// The title shown in the breadcrumb line.
    var title: String { get }
    /// Which screen usage events name it as now (``UsageRecorder``).
    var usage: UsageEvent.Screen { get }
    /// The id of the NFT, collection or user it shows, where it shows one.
    var usageItem: String? { get }
    /// The screen's key layers as they are now, top first: the shell routes every key and mouse
    /// event through them and builds the footer and the help from them.
    var layers: [KeyLayer] { get }
    /// The tasks the screen started; cancelled when the screen is closed.
    var tasks: TaskBag { get }
    /// True while something animates (a spinner), so the shell keeps redrawing.
    var isAnimating: Bool { get }
    /// Draws the screen. Reads state only: no loads and no model writes.
    func render(in rect: Rect, buffer: inout Buffer)
    /// Called when the screen becomes visible (first time and after returning to it).
    func didAppear()
    /// Clears a `/` search the screen keeps; true when there was one (the tab's number, pressed
    /// on the tab's first screen, starts it afresh).
    func clearKeptSearch() -> Bool
}

public extension Screen {
    var isAnimating: Bool { false }
    var usageItem: String? { nil }
    func didAppear() {}
    func clearKeptSearch() -> Bool { false }

    /// Offers `event` to the layers top first, with what the last `frame` drew; nil when none used
    /// it and none is modal.
    func route(_ event: TerminalEvent, after frame: DrawnFrame) -> ScreenCommand? {
        KeyLayer.route(event, through: layers, after: frame)
    }
}
