import FakeNFTModels
import Foundation
import Testing

@testable import FakeNFTServer

/// The shop's rules on an account's rows, without a database: what each change writes, and what
/// it refuses.
@Suite struct ShopRulesTests {
    static let catalog = ["1": 1.5, "2": 2.25, "3": 10]

    static func account() -> OwnerRows {
        OwnerRows(
            profile: ProfileRecord(
                Profile(id: "u-1", name: "Ann", avatar: "", description: "", website: "", nfts: ["3"], likes: ["1"])),
            order: OrderRecord(Order(id: "u-1", nfts: ["1", "2"])),
            account: AccountRecord(
                userID: "u-1", name: "Ann", email: "ann@example.com", emailKey: "ann@example.com", passwordHash: "",
                spent: 10, createdAt: "2026-11-28T00:00:00Z", kind: "person"),
            user: UserRecord(
                seq: 100,
                User(id: "u-1", name: "Ann", avatar: "", description: nil, website: "", nfts: ["3"], rating: "10")
            ))
    }

    @Test func aProfileChangeShowsInUsersAndRebasesLikes() throws {
        var rows = Self.account()
        try rows.updateProfile(
            ProfileUpdate(name: "Ann B", likes: ["2"]), ifVersion: [1], likesBase: [], catalog: Self.catalog)
        #expect(rows.profile.name == "Ann B" && rows.profile.version == 2)
        #expect(rows.profile.likes == ["1", "2"], "the client added 2 to what it read: 1 stays")
        #expect(rows.user?.name == "Ann B" && rows.user?.nfts == ["3"])
    }

    static let bitcoin = CurrencyRecord(
        seq: 0, Currency(id: "1", title: "Bitcoin", name: "BTC", image: ""), paymentSucceeds: true)

    @Test func paymentMovesTheOrderIntoTheProfileAndRatesByWhatWasSpent() throws {
        var rows = Self.account()
        let time = Date(timeIntervalSince1970: 1_800_000_000.25)
        try rows.payOrder(prices: Self.catalog, currency: Self.bitcoin, at: time)
        #expect(rows.profile.nfts == ["3", "1", "2"] && rows.order.nfts.isEmpty)
        #expect(rows.account?.spent == 13.75 && rows.user?.rating == "14" && rows.user?.nftCount == 3)
        #expect(rows.order.version == 2 && rows.profile.version == 2)
        let paid = try #require(try rows.paid?.model)
        #expect(rows.paid?.owner == "u-1" && paid.paidAt == "2027-01-15T08:00:00.250Z")
        #expect(paid.items == [.init(nft: "1", price: 1.5), .init(nft: "2", price: 2.25)] && paid.total == 3.75)
        #expect(paid.currencyId == "1" && paid.currencyName == "BTC")
    }

    @Test func anEmptyCartPaysNothingAndKeepsNoOrder() throws {
        var rows = Self.account()
        rows.order.nfts = []
        try rows.payOrder(prices: Self.catalog, currency: Self.bitcoin, at: Date())
        #expect(rows.paid == nil && rows.account?.spent == 10)
    }

    @Test func aPriceThatIsNoNumberCountsNothing() throws {
        var rows = Self.account()
        try rows.payOrder(prices: ["1": .nan, "2": .infinity], currency: Self.bitcoin, at: Date())
        #expect(try rows.paid?.model.total == 0)
    }

    @Test func whatIsRefused() {
        var rows = Self.account()
        #expect(throws: StoreError.self, "a version that moved on") {
            try rows.updateOrder(nfts: ["1"], ifVersion: [7], base: nil, catalog: Self.catalog)
        }
        #expect(throws: StoreError.self, "an NFT that does not exist") {
            try rows.updateProfile(ProfileUpdate(likes: ["404"]), ifVersion: nil, likesBase: nil, catalog: Self.catalog)
        }
        #expect(throws: StoreError.self, "an NFT already bought") {
            try rows.updateOrder(nfts: ["3"], ifVersion: nil, base: nil, catalog: Self.catalog)
        }
        #expect(rows == Self.account(), "a refused change writes nothing")
    }
}
