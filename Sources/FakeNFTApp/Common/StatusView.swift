import Localization
import TerminalUI

/// The spinner or the error (with how to retry) shown in place of content that is not loaded.
@MainActor
struct StatusView: Widget {
    /// What is loading, as the two messages name it ("Loading the cart…", "Could not load the cart.").
    enum Subject {
        case profile, yourNFTs, yourFavorites, collections, nfts, currencies, cart, users, userCollection, orders, keys

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
            case .orders: .loadingOrders
            case .keys: .loadingKeys
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
            case .orders: .failedOrders
            case .keys: .failedKeys
            }
        }
    }

    /// What is shown: the spinner, or the error with its message.
    enum State { case loading, failed(String) }

    var state: State
    var what: Subject
    /// The key the Retry button presses (the screen's), or nil for no button.
    var retry: Key?

    /// The spinner for `what`.
    static func loading(_ what: Subject) -> StatusView { StatusView(state: .loading, what: what, retry: nil) }

    /// The error for `what` with `message`, and Retry pressing `retry`.
    static func failure(_ message: String, what: Subject, retry: Key?) -> StatusView {
        StatusView(state: .failed(message), what: what, retry: retry)
    }

    private init(state: State, what: Subject, retry: Key?) {
        self.state = state
        self.what = what
        self.retry = retry
    }

    /// The state of `loadable`; nil once it is loaded (the content is drawn instead).
    init?<Value, Failure>(_ loadable: Loadable<Value, Failure>, what: Subject, retry: Key?) {
        switch loadable {
        case .loaded: return nil
        case .loading: self.init(state: .loading, what: what, retry: nil)
        case .failed(let failure): self.init(state: .failed(failure.message), what: what, retry: retry)
        }
    }

    func render(in rect: Rect, buffer: inout Buffer) {
        guard case .failed(let message) = state else {
            let (_, line, _) = rect.rows(.length(1), .length(1), .fill)
            let spinner = line.inset(dx: 1, dy: 0)
            return buffer.render(Spinner(tr(what.loading)), in: spinner)
        }
        let area = rect.inset(dx: 1, dy: 1)
        let error = Paragraph([Line(tr(what.failed) + " " + message, style: .error)])
        guard let retry else { return buffer.render(error, in: area) }
        // the button always shows, under as much of the message as leaves room for it
        let shown = min(error.height(width: area.width), area.height - 2)
        let (text, _, button) = area.rows(.length(shown), .length(1), .length(1))
        buffer.render(error, in: text)
        buffer.render(Paragraph([Line([.button(tr(.retryButton), style: .selected, key: retry)])]), in: button)
    }
}
