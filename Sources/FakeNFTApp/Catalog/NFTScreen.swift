import FakeNFTCore
import TerminalUI

/// One NFT: a larger picture and all its details, with the like and cart toggles.
@MainActor
public final class NFTScreen: Screen {
    enum Action: Sendable { case like, cart, website }

    static let keys = KeyMap<Action>([
        KeyBinding([.char("l")], "Like / unlike", .like),
        KeyBinding([.char("c")], "Add to / remove from the cart", .cart),
        KeyBinding([.char("w")], "Open the NFT's web page", .website),
    ])

    let nft: NFT
    let collectionName: String
    let authorName: String
    let context: AppContext

    public init(nft: NFT, collectionName: String, authorName: String, context: AppContext) {
        self.nft = nft; self.collectionName = collectionName; self.authorName = authorName; self.context = context
    }

    public var title: String { nft.name }
    public var keyHelp: [HelpEntry] { Self.keys.helpEntries }
    public var hints: [(key: String, label: String)] { [("l", "like"), ("c", "cart")] }

    public func handle(_ event: TerminalEvent) -> ScreenCommand {
        guard case .key(let key) = event, let action = Self.keys.action(for: key) else { return .ignored }
        switch action {
        case .like: context.toggleLike(nft)
        case .cart: context.toggleCart(nft)
        case .website:
            guard let website = nft.website, !website.isEmpty else {
                context.showToast(Toast("This NFT has no web page.", kind: .error))
                return .handled
            }
            return .push(ReaderScreen(url: website, context: context))
        }
        return .handled
    }

    public func render(in rect: Rect, surface: any Surface) {
        let pictureWidth = min(28, rect.width / 3), pictureHeight = min(12, rect.height - 2)
        PictureView.render(seed: nft.images.first ?? nft.id, label: nft.name,
                           in: Rect(x: rect.x, y: rect.y, width: pictureWidth, height: pictureHeight), colors: context.colors, surface: surface)
        let x = rect.x + pictureWidth + 2, width = rect.width - pictureWidth - 2
        let liked = context.likes.contains(nft.id), inCart = context.cart.contains(nft.id)
        var y = rect.y
        func line(_ label: String, _ value: String, _ style: Style = .plain) {
            let used = surface.draw(label, at: Point(x: x, y: y), style: .dim, maxWidth: width)
            surface.draw(value, at: Point(x: x + used, y: y), style: style, maxWidth: width - used)
            y += 1
        }
        surface.draw(nft.name, at: Point(x: x, y: y), style: .bold, maxWidth: width); y += 2
        line("Collection: ", collectionName)
        line("Author: ", authorName)
        line("Rating: ", Format.stars(nft.rating), Style(foreground: .yellow))
        line("Price: ", Format.price(nft.price), .bold)
        y += 1
        line("", "\(Format.heart(liked)) \(liked ? "Liked" : "Not liked")   (l)", liked ? Style(foreground: .red, bold: true) : .plain)
        line("", "\(Format.cartMark(inCart))   (c)", inCart ? .success : .plain)
        y += 1
        for text in DisplayWidth.wrap(nft.description, width: width, maxLines: max(0, rect.maxY - y)) {
            surface.draw(text, at: Point(x: x, y: y), style: .plain, maxWidth: width); y += 1
        }
    }
}
