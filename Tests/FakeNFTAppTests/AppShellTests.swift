import Testing
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
        #expect(small.contains("60×16"))
    }
}
