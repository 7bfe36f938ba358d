import FakeNFTModels
import Foundation

/// The shop's rules: what each change does to an owner's rows, and what it refuses (a version
/// moved on, an NFT that does not exist, one already bought). Pure: the store runs each in its
/// database's transaction (``Store/commit(owner:_:)``) and publishes what it wrote.
extension OwnerRows {
    /// Applies the fields present in `update` to the profile (an account's also shows in
    /// `/users`); unknown NFT ids in likes are refused. With `ifVersion`, refuses when the
    /// profile is no longer at that version.
    /// - Parameter likesBase: the likes the client last read: its changes since then are applied
    ///   to the likes as they are (``IDList/rebase(_:from:onto:)``) instead of replacing them.
    mutating func updateProfile(
        _ update: ProfileUpdate, ifVersion: Set<Int>?, likesBase: [String]?, catalog: [String: Double]
    ) throws {
        try Self.check(ifVersion, profile.version, "profile")
        if let name = update.name { profile.name = name }
        if let description = update.description { profile.description = description }
        if let website = update.website { profile.website = website }
        if let avatar = update.avatar { profile.avatar = avatar }
        if let likes = update.likes {
            try Self.checkNFTsExist(likes, field: "likes", in: catalog)
            let wanted = likesBase.map { IDList.rebase(likes, from: $0, onto: profile.likes) } ?? likes
            profile.likes = Self.unique(wanted)
        }
        profile.bumpVersion()
        showInUsers()
    }

    /// Replaces the order's NFTs. With `ifVersion`, refuses when the order moved on.
    /// - Parameter base: the cart the client last read (see ``updateProfile(_:ifVersion:likesBase:catalog:)``).
    mutating func updateOrder(nfts: [String], ifVersion: Set<Int>?, base: [String]?, catalog: [String: Double]) throws {
        try Self.check(ifVersion, order.version, "order")
        try Self.checkNFTsExist(nfts, field: "nfts", in: catalog)
        let wanted = base.map { IDList.rebase(nfts, from: $0, onto: order.nfts) } ?? nfts
        try checkNotOwned(wanted)
        order.nfts = Self.unique(wanted)
        order.bumpVersion()
        if user?.listed == false, !isGuest { user?.listed = true }  // a cart is something done: the account shows
    }

    /// A guest account handed to the next guest of the shop over SSH: nothing of the last one's
    /// is left (likes, NFTs, the cart, what was spent, the profile's text, the paid orders).
    mutating func clearForNextGuest() {
        profile.name = "guest"
        (profile.avatar, profile.description, profile.website) = ("", "", "")
        (profile.nfts, profile.likes) = ([], [])
        profile.bumpVersion()
        order.nfts = []
        order.bumpVersion()
        account?.spent = 0
        forgetsPaid = true
        showInUsers()
    }

    /// The address ending of the SSH front's guest accounts, which are never listed in `/users`.
    static let guestAddressEnding = "@guest.ssh.invalid"

    /// Whether these are a guest account's rows (told by what the account is, not its address).
    var isGuest: Bool { account?.isGuests ?? false }

    /// Moves `nfts` (default: the whole order) into the profile and clears the order.
    mutating func executeOrder(nfts: [String]?, ifVersion: Set<Int>?, catalog: [String: Double]) throws {
        try Self.check(ifVersion, order.version, "order")
        let bought = nfts ?? order.nfts
        try Self.checkNFTsExist(bought, field: "nfts", in: catalog)
        try checkNotOwned(bought)
        moveIntoProfile(bought, prices: catalog)
    }

    /// A payment that succeeded: the order's NFTs move into the profile, and the order is kept as
    /// paid (``paid``) with its prices then (an empty cart pays nothing and keeps nothing).
    mutating func payOrder(prices: [String: Double], currency: CurrencyRecord, at time: Date) throws {
        try checkNotOwned(order.nfts)
        let nfts = Self.unique(order.nfts)
        if !nfts.isEmpty {
            paid = try PurchaseRecord(owner: profile.id, nfts: nfts, prices: prices, currency: currency, at: time)
        }
        moveIntoProfile(nfts, prices: prices)
    }

    /// The one place where bought NFTs join a profile and leave its order. An account's row in
    /// `/users` follows: its NFTs, and its rating, the ETH it has spent, rounded.
    private mutating func moveIntoProfile(_ nfts: [String], prices: [String: Double]) {
        profile.nfts = Self.unique(profile.nfts + nfts)
        profile.bumpVersion()
        order.nfts = []
        order.bumpVersion()
        account?.spent += Set(nfts).compactMap { prices[$0] }.filter(\.isFinite).reduce(0, +)
        showInUsers()
    }

    /// Copies an account's profile into its row in `/users` (nothing for the shared profile); the
    /// row shows from then on (an SSH key's account did something), a guest account's never.
    private mutating func showInUsers() {
        guard var user, let account else { return }
        user.listed = !isGuest
        user.name = profile.name
        user.avatar = profile.avatar
        user.description = profile.description.isEmpty ? nil : profile.description
        user.website = profile.website
        user.nfts = profile.nfts
        user.nftCount = profile.nfts.count
        user.rating = String(Int(min(account.spent.rounded(), 1e15)))
        self.user = user
    }

    private static func check(_ expected: Set<Int>?, _ current: Int, _ resource: String) throws {
        if let expected, !expected.contains(current) {
            throw StoreError.versionMismatch(resource: resource, current: current)
        }
    }

    /// NFTs are only ever written when the database is seeded, so the read model's are the
    /// database's.
    private static func checkNFTsExist(_ ids: [String], field: String, in catalog: [String: Double]) throws {
        for id in Set(ids) where catalog[id] == nil {
            throw StoreError.unknownNFT(field: field, id: id)
        }
    }

    /// An NFT is bought once: an order may not hold one its buyer's profile already has.
    private func checkNotOwned(_ ids: [String]) throws {
        let owned = Set(profile.nfts)
        if let id = ids.first(where: owned.contains) { throw StoreError.alreadyOwned(field: "nfts", id: id) }
    }

    private static func unique(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }
}
