import Localization
import TerminalUI

/// The spinner or the error (with how to retry) shown in place of content that is not loaded.
@MainActor
enum StatusView {
    /// What is loading, as the two messages name it ("Loading the cart…", "Could not load the cart.").
    enum Subject {
        case profile, yourNFTs, yourFavorites, collections, nfts, currencies, cart, users, userCollection

        var loading: TextKey {
            switch self {
            case .profile: .loadingProfile
            case .yourNFTs: .loadingYourNFTs
            case .yourFavorites: .loadingYourFavorites
            case .collections: .loadingCollections
            case .nfts: .loadingNFTs
            case .currencies: .loadingCurrencies
            case .cart: .loadingCart
            case .users: .loadingUsers
            case .userCollection: .loadingUserCollection
            }
        }

        var failed: TextKey {
            switch self {
            case .profile: .failedProfile
            case .yourNFTs: .failedYourNFTs
            case .yourFavorites: .failedYourFavorites
            case .collections: .failedCollections
            case .nfts: .failedNFTs
            case .currencies: .failedCurrencies
            case .cart: .failedCart
            case .users: .failedUsers
            case .userCollection: .failedUserCollection
            }
        }
    }

    /// Draws the state of `loadable` and returns true when the content should not be drawn; the
    /// Retry button presses `retry`, the screen's key for it.
    static func render<Value, Failure>(
        _ loadable: Loadable<Value, Failure>, what: Subject, retry: Key?, in rect: Rect, buffer: inout Buffer
    ) -> Bool {
        switch loadable {
        case .loaded: return false
        case .loading: renderLoading(what: what, in: rect, buffer: &buffer)
        case .failed(let failure): renderFailure(failure.message, what: what, retry: retry, in: rect, buffer: &buffer)
        }
        return true
    }

    static func renderLoading(what: Subject, in rect: Rect, buffer: inout Buffer) {
        Spinner.render(
            tr(what.loading), at: Point(x: rect.x + 1, y: rect.y + 1), maxWidth: rect.width - 2, buffer: &buffer)
    }

    static func renderFailure(_ message: String, what: Subject, retry: Key?, in rect: Rect, buffer: inout Buffer) {
        let lines = DisplayWidth.wrap(tr(what.failed) + " " + message, width: max(10, rect.width - 4))
        for (i, line) in lines.enumerated() where i < rect.height - 3 {
            buffer.draw(line, at: Point(x: rect.x + 1, y: rect.y + 1 + i), style: .error, maxWidth: rect.width - 2)
        }
        guard let retry else { return }
        buffer.button(
            tr(.retryButton), at: Point(x: rect.x + 1, y: rect.y + 2 + min(lines.count, rect.height - 3)),
            style: .selected, maxWidth: rect.width - 2, key: retry)
    }
}
