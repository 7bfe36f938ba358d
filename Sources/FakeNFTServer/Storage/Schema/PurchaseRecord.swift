import FakeNFTModels
import Foundation

/// A paid order, written in the payment's transaction (migration `v13-paid-orders`): whose,
/// when (ISO 8601), the currency paid with (its id and its short name then), each NFT with its
/// price then (JSON text of ``PaidOrder/Item``s) and their total, in ETH.
struct PurchaseRecord: Equatable, Sendable, StoredRecord {
    static let databaseTableName = "purchase"
    var id: String
    var owner: String
    var paidAt: String
    var currencyId: String
    var currencyName: String
    var items: String
    var total: Double

    /// A new paid order of `nfts` at `prices` (an NFT without a finite price counts 0).
    init(owner: String, nfts: [String], prices: [String: Double], currency: CurrencyRecord, at time: Date) throws {
        let items = nfts.map { PaidOrder.Item(nft: $0, price: prices[$0].flatMap { $0.isFinite ? $0 : nil } ?? 0) }
        id = UUID().uuidString.lowercased()
        self.owner = owner
        paidAt = time.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        currencyId = currency.id
        currencyName = currency.name
        self.items = String(decoding: try JSONEncoder().encode(items), as: UTF8.self)
        total = items.reduce(0) { $0 + $1.price }
    }

    /// The order as the API answers it.
    var model: PaidOrder {
        get throws {
            let items: [PaidOrder.Item]
            do { items = try JSONDecoder().decode([PaidOrder.Item].self, from: Data(self.items.utf8)) } catch {
                throw StoreError.damaged("paid order \(id) has items that are not JSON")
            }
            return PaidOrder(
                id: id, paidAt: paidAt, currencyId: currencyId, currencyName: currencyName, items: items, total: total)
        }
    }
}
