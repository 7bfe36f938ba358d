import FakeNFTCore
import Testing
import FakeNFTSnapshots
import FakeNFTTesting
import TerminalUI
@testable import FakeNFTApp

@MainActor @Suite struct AppShellTests {
    func makeShell() -> AppShell {
        AppShell(
            tabs: ["Catalog", "Cart", "Profile", "Statistics"].map {
                AppShell.Tab(title: $0, root: PlaceholderScreen(title: $0))
            },
            effects: .toastsOnly(), pictures: .placeholders())
    }

    func frame(_ shell: AppShell, _ size: Size) -> Buffer {
        var buffer = Buffer(size: size)
        shell.render(into: &buffer)
        return buffer
    }

    @Test func switchesTabsByNumberTabAndShiftTab() {
        let shell = makeShell()
        #expect(shell.handle(.key(.char("3"))))
        #expect(shell.selectedTab == 2)
        _ = shell.handle(.key(.tab))
        #expect(shell.selectedTab == 3)
        _ = shell.handle(.key(.tab))
        #expect(shell.selectedTab == 0)
        _ = shell.handle(.key(.backTab))
        #expect(shell.selectedTab == 3)
        assertSnapshot(frame(shell, Size(width: 80, height: 24)).text(), named: "shell-statistics-80x24")
        assertSnapshot(frame(shell, Size(width: 120, height: 40)).text(), named: "shell-statistics-120x40")
    }

    @Test func clickOnTabSelectsIt() {
        let shell = makeShell()
        _ = frame(shell, Size(width: 80, height: 24))
        _ = shell.handle(.mouse(MouseEvent(kind: .click, point: Point(x: 14, y: 0))))
        #expect(shell.selectedTab == 1)
    }

    @Test func helpOpensAndClosesAndListsTheKeys() {
        let shell = makeShell()
        _ = shell.handle(.key(.char("?")))
        #expect(shell.showsHelp)
        let help = frame(shell, Size(width: 80, height: 24))
        for entry in ShellKeys.map.helpEntries { #expect(help.contains(entry.text)) }
        assertSnapshot(help.text(), named: "shell-help-80x24")
        _ = shell.handle(.key(.char("2")))  // keys do not leak through the overlay
        #expect(shell.selectedTab == 0)
        _ = shell.handle(.key(.escape))
        #expect(!shell.showsHelp)
    }

    @Test func quitKeys() {
        #expect(!makeShell().handle(.key(.char("q"))))
        #expect(!makeShell().handle(.key(.ctrl("c"))))
    }

    @Test func tooSmallTerminal() {
        let small = frame(makeShell(), Size(width: 30, height: 8))
        #expect(small.contains("Terminal too small"))
        #expect(small.contains("40×20"))
        // Between a phone's 40×20 and 60×16, a row less for every 5 columns more.
        let between = frame(makeShell(), Size(width: 50, height: 17))
        #expect(between.contains("Terminal too small") && between.contains("50×18"), "\(between)")
        for fits in [Size(width: 40, height: 20), Size(width: 50, height: 18), Size(width: 60, height: 16)] {
            #expect(!frame(makeShell(), fits).contains("Terminal too small"), "\(fits)")
        }
    }
}

/// A screen of one clickable row, counting how often its layers are built.
@MainActor
private final class CountingScreen: Screen {
    let title = "Counting"
    let usage = UsageEvent.Screen.catalog
    let tasks = TaskBag()
    private(set) var builds = 0
    private(set) var picks = 0
    private(set) var opens = 0

    var layers: [KeyLayer] {
        builds += 1
        return [
            KeyLayer(title: title, help: []) { [unowned self] event in
                switch event {
                case .pick("row", _):
                    picks += 1
                    return picks == 1 ? .handled : nil  // a second click on the picked row opens it
                case .key(.enter):
                    opens += 1
                    return .handled
                default: return nil
                }
            }
        ]
    }

    func render(in rect: Rect, buffer: inout Buffer) {
        buffer.draw("Row", at: Point(x: rect.x, y: rect.y), style: .plain, maxWidth: rect.width)
        buffer.addHit(Rect(x: rect.x, y: rect.y, width: 3, height: 1), .item(area: "row", index: 0))
    }
}

@MainActor @Suite struct LayersPerEventTests {
    /// Built for a frame and handed to the event after it; an event that may change them lets
    /// the next event or frame build anew: a key with its frame builds them once, not twice.
    @Test func aFrameBuildsTheScreensLayersAndTheNextEventUsesThem() {
        let screen = CountingScreen()
        let shell = AppShell(
            tabs: [AppShell.Tab(title: "Counting", root: screen)], effects: .toastsOnly(), pictures: .placeholders())
        var buffer = Buffer(size: Size(width: 80, height: 24))
        shell.render(into: &buffer)
        #expect(screen.builds == 1, "a frame builds them once, for its hints and help")
        let row = Point(x: 1, y: 2)  // the content's first row, under the tab bar and the breadcrumb
        #expect(buffer.target(at: row) == .item(area: "row", index: 0))
        _ = shell.handle(.mouse(MouseEvent(kind: .click, point: row)))
        #expect(screen.picks == 1 && screen.builds == 1, "the click meets the layers the frame drew")
        _ = shell.handle(.mouse(MouseEvent(kind: .click, point: row)))  // picked already: Enter
        #expect(screen.picks == 2 && screen.opens == 1)
        #expect(screen.builds == 2, "after the first click, built anew; the pick and its Enter share one build")
        _ = shell.handle(.key(.enter))
        #expect(screen.opens == 2 && screen.builds == 3, "no frame between: built for the key")
        for _ in 0..<100 {
            shell.render(into: &buffer)
            _ = shell.handle(.key(.enter))
        }
        #expect(screen.opens == 102 && screen.builds == 103, "100 keys each after its frame: 100 builds, not 200")
    }
}
