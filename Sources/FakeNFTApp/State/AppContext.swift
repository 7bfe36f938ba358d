import Localization
import FakeNFTCore
import TerminalUI

/// What a screen is built with: the services, the shared app state, the effects and the
/// pictures. Everything is given at init; nothing is set later.
@MainActor
public struct AppContext {
    public let services: Services
    let state: AppState
    public let effects: Effects
    public let pictures: Pictures
    /// The signed-in account, or nil for the shared profile.
    public let account: Account?
    /// Whether the server offers accounts (Profile offers to sign in when none is).
    public let offersAccounts: Bool
    /// The fingerprint of the SSH key the account was signed in with (the shop over SSH), if it was.
    public let signInKey: String?
    /// Whether the account is a guest's of the shop over SSH (its address is the server's, never shown).
    public let guestVisit: Bool
    /// `fakenft --read-only` (config `read_only`): a demo or a shared screen where nothing can be
    /// changed. Every action that would change data on the server is absent: its keys (so the help
    /// and the footer; ``KeyLayer/keys(_:_:readOnly:_:)``), and the buttons that press them
    /// (heart, cart, ✕, Pay, edit).
    public let readOnly: Bool
    /// The command line a screen's link starts with (`fakenft --server URL`, or over SSH
    /// `ssh -t -p 2222 host`): the NFT screen shows `… nft 42`, which opens it again.
    public let linkCommand: String

    public init(
        services: Services, effects: Effects, pictures: Pictures, account: Account? = nil, offersAccounts: Bool = false,
        signInKey: String? = nil, guestVisit: Bool = false, readOnly: Bool = false, linkCommand: String = "fakenft"
    ) {
        self.linkCommand = linkCommand
        self.services = services
        self.account = account
        self.signInKey = signInKey
        self.guestVisit = guestVisit
        self.offersAccounts = offersAccounts
        self.readOnly = readOnly
        self.state = AppState(services: services, effects: effects, readOnly: readOnly)
        self.effects = effects
        self.pictures = pictures
    }

    /// The signed-in account as its user reads it, whole words: its address; a key's account by
    /// its name and the key; a guest's as a guest visit (never the address the server made).
    var accountName: String {
        guard let account else { return "" }
        if guestVisit { return tr(.guestAccountName) }
        if signInKey != nil { return tr(.keyAccountName, account.name) }
        return account.email
    }

    /// What the Profile's log-out row names: the key's fingerprint in full where there is one.
    var accountRowName: String { guestVisit ? accountName : signInKey ?? account?.email ?? "" }

    /// Whether Profile lists the SSH keys that open the account: a signed-in account's, not a
    /// guest's visit (whose account has no key of its own).
    var showsKeys: Bool { account != nil && !guestVisit }

    /// The NFTs of a list (a collection's, a user's, the profile's), fetched for the first
    /// ``CatalogService/maxListedNFTs`` ids; a longer list says so in a toast.
    public func listedNFTs(ids: [String]) async throws -> [NFT] {
        let nfts = try await services.catalog.nfts(ids: ids)
        if ids.count > CatalogService.maxListedNFTs {
            effects.show(Toast(tr(.showingFirst, CatalogService.maxListedNFTs, ids.count)))
        }
        return nfts
    }
}
