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
        let image = nft.images.indices.contains(shownImage) ? nft.images[shownImage] : ""
        buffer.render(
            PictureView(image, label: nft.name, pictures: model.context.pictures),
            in: Rect(x: rect.x, y: rect.y, width: pictureWidth, height: pictureHeight))
        if nft.images.count > 1 {
            let dots = nft.images.indices.map { $0 == shownImage ? "●" : "○" }.joined(separator: " ")
            buffer.draw(
                dots,
                at: Point(x: rect.x + max(0, (pictureWidth - DisplayWidth.of(dots)) / 2), y: rect.y + pictureHeight),
                style: .dim, maxWidth: pictureWidth)
        }
        let x = rect.x + pictureWidth + 2, width = rect.width - pictureWidth - 2
        let liked = model.isLiked, place = model.cartPlace
        var y = rect.y
        func line(_ label: String, _ value: String, _ style: Style = .plain) {
            let used = buffer.draw(label, at: Point(x: x, y: y), style: .dim, maxWidth: width)
            buffer.draw(value, at: Point(x: x + used, y: y), style: style, maxWidth: width - used)
            y += 1
        }
        /// A clickable toggle, followed by the key that does the same (from the key map); in
        /// read-only mode the state alone, as text.
        func button(_ label: String, _ action: Action, _ style: Style) {
            if model.context.readOnly {
                buffer.draw(label, at: Point(x: x, y: y), style: style, maxWidth: width)
                y += 1
                return
            }
            guard let key = Self.keys.key(for: action) else { return }
            let used = buffer.button(label, at: Point(x: x, y: y), style: style, maxWidth: width, key: key)
            buffer.draw("   (\(key))", at: Point(x: x + used, y: y), style: .dim, maxWidth: width - used)
            y += 1
        }
        buffer.draw(nft.name, at: Point(x: x, y: y), style: .bold, maxWidth: width)
        y += 2
        line(tr(.fieldCollection), model.collectionName ?? "…")
        line(tr(.fieldAuthor), model.author.name)
        line(tr(.fieldRating), Format.stars(nft.rating, in: buffer), .star)
        line(tr(.fieldPrice), Format.price(nft.price), .bold)
        y += 1
        button("\(Format.heart(liked)) \(liked ? tr(.liked) : tr(.notLiked))", .like, liked ? .heart : .plain)
        if place == .owned {  // bought: a fact, not a button (its key says why it cannot act)
            buffer.draw(Format.cartMark(place), at: Point(x: x, y: y), style: .success, maxWidth: width)
            y += 1
        } else if !model.context.readOnly {
            button(Format.cartMark(place), .cart, place == .outOfCart ? .plain : .success)
        }
        y += 1
        for text in DisplayWidth.wrap(nft.description, width: width, maxLines: max(0, rect.maxY - y)) {
            buffer.draw(text, at: Point(x: x, y: y), style: .plain, maxWidth: width)
            y += 1
        }
    }
}
