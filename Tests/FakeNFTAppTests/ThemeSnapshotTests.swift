import FakeNFTCore
import Foundation
import Testing
import TerminalUI
import FakeNFTSnapshots
import FakeNFTTesting
@testable import FakeNFTApp

/// The styled cell grid of screens in each theme: the text, then one letter per cell naming
/// its style as the terminal gets it (after the theme), then the letters' legend. A colour that
/// changes, or a role that loses its colour, shows in the diff.
@MainActor @Suite struct ThemeSnapshotTests {
    static func styled(_ shell: AppShell, _ size: Size, theme: Theme) -> String {
        var buffer = Buffer(size: size)
        shell.render(into: &buffer)
        var letters: [Style: Character] = [:]
        var legend: [String] = []
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var map: [String] = []
        for y in 0..<size.height {
            var row = ""
            for x in 0..<size.width {
                let style = theme.resolve(buffer[x, y].style, colors: .full)
                if style == .plain {
                    row.append(".")
                    continue
                }
                if letters[style] == nil {
                    let letter = alphabet[min(letters.count, alphabet.count - 1)]
                    letters[style] = letter
                    legend.append("\(letter) = \(Self.describe(style))")
                }
                row.append(letters[style]!)
            }
            map.append(row)
        }
        var text = buffer.text()
        for spinner in Spinner.frames { text = text.replacingOccurrences(of: spinner, with: "*") }
        return ([text, ""] + map + [""] + legend).joined(separator: "\n")
    }

    static func describe(_ style: Style) -> String {
        func colour(_ c: Color) -> String {
            switch c {
            case .default: "default"
            case .indexed(let n): "\(n)"
            case .theme(let role): "role \(role)"
            default: "\(c)"
            }
        }
        var parts = ["fg \(colour(style.foreground))", "bg \(colour(style.background))"]
        if style.bold { parts.append("bold") }
        if style.dim { parts.append("dim") }
        if style.reverse { parts.append("reverse") }
        if style.underline { parts.append("underline") }
        return parts.joined(separator: " ")
    }

    @Test func catalogAndNFTScreenInEveryTheme() async throws {
        try await InProcessTestServer.with(imageLinks: .local(publicURL: URL(string: "http://images.test"))) {
            server async throws in
            let (_, shell) = try await startedApp(server)
            for theme in [Theme.dark, .light, .mono] {
                assertSnapshot(
                    Self.styled(shell, Size(width: 80, height: 24), theme: theme),
                    named: "theme-catalog-\(theme.name.rawValue)")
            }
            _ = shell.handle(.key(.enter))
            let collection = try #require(shell.currentScreen as? CollectionScreen)
            #expect(await eventually { collection.model.nfts.value != nil && collection.model.author.name != "…" })
            _ = shell.handle(.key(.enter))
            let nft = try #require(shell.currentScreen as? NFTScreen)
            #expect(await eventually { nft.model.collectionName != nil && nft.model.author.name != "…" })
            for theme in [Theme.dark, .light, .mono] {
                let text = Self.styled(shell, Size(width: 80, height: 24), theme: theme)
                // No role reaches the terminal unresolved.
                #expect(!text.contains("role "))
                assertSnapshot(text, named: "theme-nft-\(theme.name.rawValue)")
            }
        }
    }
}
