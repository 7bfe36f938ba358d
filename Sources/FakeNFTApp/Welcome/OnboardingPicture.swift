import FakeNFTArt
import TerminalUI

/// The picture under an onboarding page's text: one of the offline image set's (an NFT, a coin,
/// a collection's cover), drawn from pixels made here, so it shows before any server answers.
/// Turned into cells once per size.
@MainActor
final class OnboardingPicture {
    /// The image set's path of each page's picture.
    static let paths = [
        "Mobile/iOS/NFT/Beige/April/1.png", "Mobile/iOS/Currencies/Bitcoin_(BTC).png",
        "Mobile/iOS/NFT/Обложки_коллекций/Peach.png", "Mobile/iOS/NFT/Blue/Bonnie/1.png",
    ]

    private let palette: CharacterArt.Palette
    private var drawn: [Key: [Cell]] = [:]

    private struct Key: Hashable {
        var page: Int
        var size: Size
    }

    init(palette: CharacterArt.Palette) { self.palette = palette }

    /// Page `page`'s picture in `size` cells (nothing when the page has none).
    func cells(page: Int, size: Size) -> [Cell] {
        let key = Key(page: page, size: size)
        if let cells = drawn[key] { return cells }
        guard Self.paths.indices.contains(page), let raster = Artwork.picture(for: Self.paths[page]) else { return [] }
        let cells = CharacterArt.cells(
            rgba: raster.pixels, width: raster.width, height: raster.height, columns: size.width, rows: size.height,
            palette: palette)
        drawn[key] = cells
        return cells
    }
}
