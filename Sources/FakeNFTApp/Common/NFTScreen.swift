import Localization
import FakeNFTCore
import TerminalUI

/// One NFT: a larger picture and all its details, with the like and cart toggles.
@MainActor
final class NFTScreen: Screen {
    enum Action: Sendable, Equatable { case like, cart, website, previous, next }

    static var keys: KeyMap<Action> {
        KeyMap(
            "nft",
            [
                KeyBinding([.char("l")], tr(.likeUnlike), hint: tr(.hintLike), changesData: true, .like),
                KeyBinding([.char("c")], tr(.cartToggle), hint: tr(.hintCart), changesData: true, .cart),
                KeyBinding(
                    [.left, .char("h")], tr(.previousPicture), hint: tr(.hintPictures), hintKeys: "←→", .previous),
                KeyBinding([.right], tr(.nextPicture), .next),
                KeyBinding([.char("w")], tr(.openNFTPage), hint: tr(.hintWebPage), .website),
            ])
    }

    let tasks = TaskBag()
    let model: NFTViewModel

    init(model: NFTViewModel) { self.model = model }

    var title: String { model.nft.name }
    var usage: UsageEvent.Screen { .nft }
    var usageItem: String? { model.nft.id }

    func didAppear() { tasks.once { [model] in await model.load() } }

    /// The picture shown, of the NFT's images.
    private(set) var shownImage = 0

    var layers: [KeyLayer] {
        let nft = model.nft, count = nft.images.count, owned = model.cartPlace == .owned
        let state = model.context.state, effects = model.context.effects
        return [
            .keys(tr(.layerNFT), Self.keys, readOnly: model.context.readOnly) { [unowned self] action in
                switch action {
                case .like: return .run { state.toggleLike(nft) }
                // an owned NFT cannot go in the cart: refused with its reason, in the palette too
                case .cart: return owned ? .refused(tr(.alreadyOwned, nft.name)) : .run { state.toggleCart(nft) }
                case .previous, .next:
                    guard count > 1 else { return .passes }
                    let step = action == .next ? 1 : count - 1
                    return .run { [unowned self] in shownImage = (shownImage + step) % count }
                case .website:
                    guard let website = nft.website, !website.isEmpty else { return .refused(tr(.nftNoPage)) }
                    return .command { .push(ReaderScreen(model: ReaderViewModel(url: website, effects: effects))) }
                }
            }
        ]
    }

    func render(in rect: Rect, buffer: inout Buffer) {
        let nft = model.nft
        // As large as the width allows (a third of it), square in 1:2 cells; grows with the terminal.
        let pictureHeight = min(rect.height - 2, max(4, rect.width / 6)),
            pictureWidth = min(rect.width / 3, pictureHeight * 2)
        let (pictureColumn, _, details) = rect.columns(.length(pictureWidth), .length(2), .fill)
        let (picture, dotsRow, _) = pictureColumn.rows(.length(pictureHeight), .length(1), .fill)
        let image = nft.images.indices.contains(shownImage) ? nft.images[shownImage] : ""
        buffer.render(PictureView(image, label: nft.name, pictures: model.context.pictures), in: picture)
        if nft.images.count > 1 {
            let dots = nft.images.indices.map { $0 == shownImage ? "●" : "○" }.joined(separator: " ")
            buffer.render(Paragraph([Line(dots, style: .dim, alignment: .center, wraps: false)]), in: dotsRow)
        }
        let liked = model.isLiked, place = model.cartPlace
        func field(_ label: String, _ value: String, _ style: Style = .plain) -> Line {
            Line([Span(label, style: .dim), Span(value, style: style)], wraps: false)
        }
        /// A clickable toggle, followed by the key that does the same (from the key map); in
        /// read-only mode the state alone, as text.
        func toggle(_ label: String, _ action: Action, _ style: Style) -> [Line] {
            if model.context.readOnly { return [Line(label, style: style, wraps: false)] }
            guard let key = Self.keys.key(for: action) else { return [] }
            return [Line([.button(label, style: style, key: key), Span("   (\(key))", style: .dim)], wraps: false)]
        }
        var lines = [
            Line(nft.name, style: .bold, wraps: false), .blank,
            field(tr(.fieldCollection), model.collectionName ?? "…"), field(tr(.fieldAuthor), model.author.name),
            field(tr(.fieldRating), Format.stars(nft.rating, in: buffer), .star),
            field(tr(.fieldPrice), Format.price(nft.price), .bold), .blank,
        ]
        lines += toggle("\(Format.heart(liked)) \(liked ? tr(.liked) : tr(.notLiked))", .like, liked ? .heart : .plain)
        if place == .owned {  // bought: a fact, not a button (its key says why it cannot act)
            lines.append(Line(Format.cartMark(place), style: .success, wraps: false))
        } else if !model.context.readOnly {
            lines += toggle(Format.cartMark(place), .cart, place == .outOfCart ? .plain : .success)
        }
        let link = "\(model.context.linkCommand) nft \(nft.id)"
        lines += [
            .blank, Line(nft.description), .blank, Line([Span(tr(.fieldLink), style: .dim), Span(link, style: .dim)]),
        ]
        buffer.render(Paragraph(lines), in: details)
    }
}
