import Foundation
import Testing

extension EndToEnd {
    /// Real pictures on the real binary: the embedded server's images, drawn as character art.
    @Suite struct PicturesEndToEndTests {
        /// The 256-colour background indices used on `lines` of a `capture-pane -e` screen, with counts.
        static func backgrounds(_ screen: String, lines: Range<Int>) -> [Int: Int] {
            var counts: [Int: Int] = [:]
            let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
            for row in rows[lines.clamped(to: 0..<rows.count)] {
                var rest = Substring(row)
                while let range = rest.range(of: "48;5;") {
                    let digits = rest[range.upperBound...].prefix { $0.isNumber }
                    if let n = Int(digits) { counts[n, default: 0] += 1 }
                    rest = rest[range.upperBound...]
                }
            }
            return counts
        }

        static func dominant(_ counts: [Int: Int]) -> Int? { counts.max { $0.value < $1.value }?.key }

        /// The RGB of an xterm colour-cube or grey index (16-255).
        static func rgb(_ n: Int) -> (Int, Int, Int) {
            if n >= 232 {
                let v = 8 + (n - 232) * 10
                return (v, v, v)
            }
            let levels = [0, 95, 135, 175, 215, 255], i = max(0, n - 16)
            return (levels[i / 36], levels[(i / 6) % 6], levels[i % 6])
        }

        /// How far apart two palette colours look (Euclidean in RGB).
        static func distance(_ a: Int, _ b: Int) -> Double {
            let (x, y) = (rgb(a), rgb(b))
            let d = [(x.0 - y.0), (x.1 - y.1), (x.2 - y.2)].map { Double($0 * $0) }.reduce(0, +)
            return d.squareRoot()
        }

        @Test func theNFTsPictureIsDrawnInManyColoursAndMatchesTheGrid() async throws {
            let tmux = try await Tmux(width: 120, height: 40)
            try await tmux.launchApp()
            try await tmux.keys("Enter")  // the first collection
            try await tmux.waitFor("Collection author")
            let grid = try await tmux.waitUntil("the grid's pictures", colors: true) { screen in
                return Self.backgrounds(screen, lines: 9..<14).count >= 4
            }
            _ = grid
            let gridScreen = try await tmux.run(["capture-pane", "-t", tmux.session, "-p", "-e"])
            let gridColour = try #require(Self.dominant(Self.backgrounds(gridScreen, lines: 9..<14)))
            try await tmux.keys("Enter")  // the first NFT
            try await tmux.waitFor("Price:")
            let nftScreen = try await tmux.waitUntil("the NFT's picture", colors: true) { screen in
                Self.backgrounds(screen, lines: 2..<16).count >= 8
            }
            let colours = Self.backgrounds(nftScreen, lines: 2..<16)
            #expect(colours.count >= 8, "a picture, not a placeholder: \(colours.count) colours")
            let own = try #require(Self.dominant(colours))
            // The palette's nearest entries for one colour differ a little with the size drawn.
            #expect(
                Self.distance(own, gridColour) < 90,
                "the same main colour in the grid (\(gridColour)) and on its own screen (\(own))")
            try await tmux.keys("Right")  // its second picture
            _ = try await tmux.waitUntil("the second picture", colors: true) { screen in
                return Self.backgrounds(screen, lines: 2..<16) != colours && screen.contains("○ ● ○")
            }
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
        }
    }
}
