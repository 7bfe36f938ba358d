import Testing
@testable import TerminalUI

/// Themes: every role readable on the background it was chosen for, styles resolved per theme
/// and colour depth, and the theme found from the terminal's answer.
@Suite struct ThemeTests {
    static let esc = "\u{1B}"

    /// WCAG contrast of each role against its theme's background and a nearby one (terminals'
    /// "black" and "white" backgrounds are rarely pure): 4.5:1 for text, 3:1 for symbols.
    @Test(arguments: [(Theme.dark, RGB(30, 30, 30)), (Theme.light, RGB(245, 245, 240))])
    func everyColourIsReadableOnItsBackground(theme: Theme, nearby: RGB) {
        for role in Theme.Role.allCases {
            let colour = Theme.rgb(theme.colors[role]!)
            for background in [theme.background, nearby] {
                let ratio = Theme.contrast(colour, background)
                #expect(ratio >= role.minimumContrast, "\(theme.name) \(role) \(colour) on \(background): \(ratio)")
            }
        }
        // Selection is reverse video: the terminal's own colours, swapped.
        #expect(Style.selected.reverse)
    }

    @Test func contrastFollowsWCAG() {
        #expect(abs(Theme.contrast(RGB(0, 0, 0), RGB(255, 255, 255)) - 21) < 0.01)
        #expect(abs(Theme.contrast(RGB(118, 118, 118), RGB(255, 255, 255)) - 4.54) < 0.02)
    }

    @Test func rolesBecomeColoursAttributesOrBasicColours() {
        #expect(Theme.dark.resolve(.accent, colors: .full).foreground == .indexed(81))
        #expect(Theme.light.resolve(.accent, colors: .full).foreground == .indexed(25))
        #expect(Theme.light.resolve(.star, colors: .sixteen).foreground == .yellow)
        // Dim text gets the muted colour: light backgrounds wash the faint attribute out.
        let dim = Theme.light.resolve(.dim, colors: .full)
        #expect(dim.foreground == .indexed(242) && !dim.dim)
        // Mono: no colour at all, the meaning carried by attributes.
        let accent = Theme.mono.resolve(.accent, colors: .full)
        #expect(accent.foreground == .default && accent.bold)
        #expect(Theme.mono.resolve(.link, colors: .full).underline)
        #expect(Theme.mono.resolve(.dim, colors: .full).dim)
        #expect(
            Theme.dark.resolve(.heart, colors: .none).foreground == .default, "NO_COLOR: no colour whatever the theme")
        // Colours that are not roles (pictures) pass through.
        #expect(Theme.light.resolve(Style(foreground: .indexed(200)), colors: .full).foreground == .indexed(200))
    }

    @Test func theBackgroundTheTerminalReportsPicksTheTheme() {
        func decide(_ reply: String, _ environment: [String: String] = [:]) -> Theme.Name {
            Theme.decide(choice: .auto, environment: environment, replies: TerminalReplies(parsing: Array(reply.utf8)))
                .theme.name
        }
        // xterm's answer (recorded, 4 hex digits per channel), others with 2 digits and BEL.
        #expect(decide("\(Self.esc)]11;rgb:ffff/ffff/ffff\(Self.esc)\\\(Self.esc)[?64;1;2c") == .light)
        #expect(decide("\(Self.esc)]11;rgb:0000/0000/0000\(Self.esc)\\") == .dark)
        #expect(decide("\(Self.esc)]11;rgb:fd/f6/e3\u{07}") == .light)  // Solarized light
        #expect(decide("\(Self.esc)]11;rgb:1e1e/1e1e/2e2e\u{07}") == .dark)
        #expect(decide("\(Self.esc)]11;rgb:zz/00/00\u{07}") == .dark, "garbage: the default")
        #expect(decide("", ["COLORFGBG": "0;15"]) == .light)
        #expect(decide("", ["COLORFGBG": "15;0"]) == .dark)
        #expect(decide("\(Self.esc)]11;rgb:ffff/ffff/ffff\(Self.esc)\\", ["NO_COLOR": "1"]) == .mono)
        #expect(Theme.decide(choice: .light, environment: [:], replies: nil).theme.name == .light)
        #expect(TerminalProbe.queries(inTmux: false).text.contains("\(Self.esc)]11;?"))
    }
}
