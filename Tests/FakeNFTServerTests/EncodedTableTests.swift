import FakeNFTModels
import FakeNFTRequests
import Foundation
import Testing

@testable import FakeNFTServer

/// The orders a table works out once (in parallel, descending from ascending) are the orders
/// SQLite's `ORDER BY field [DESC], seq` gives: checked against a plain sort on every field.
@Suite struct EncodedTableTests {
    /// NFTs whose names, ratings, prices and authors repeat, so that most keys are ties.
    private static func records(_ count: Int) -> [NFTRecord] {
        var random = Dataset.SeededGenerator(seed: 7)
        return (0..<count).map { seq in
            let price = Double(Int.random(in: 0..<30, using: &random)) / 4
            let nft = NFT(
                id: String(seq + 1), name: ["b", "a", "Ä", "c", "ab"][Int.random(in: 0..<5, using: &random)],
                images: [],
                rating: Int.random(in: 1...5, using: &random), description: "", price: price,
                author: String(Int.random(in: 1...3, using: &random)),
                createdAt: "2023-0\(Int.random(in: 1...3, using: &random))")
            return NFTRecord(seq: seq, nft)
        }
    }

    @Test(arguments: [0, 1, 37, 25_000]) func everyOrderIsStorageOrderWithinTies(count: Int) async throws {
        let records = Self.records(count)
        let table = try await EncodedTable(
            records, sorts: ReadModel.SortWhitelist.nft, id: \.id, name: \.name, model: \.model)
        for field in ReadModel.SortWhitelist.nft.keys.keys.sorted() + ["cost"] {
            let key = try #require(
                ReadModel.SortWhitelist.nft.keys[ReadModel.SortWhitelist.nft.aliases[field] ?? field])
            for descending in [false, true] {
                let expected = records.indices.sorted { a, b in
                    let (x, y) = (key(records[a]), key(records[b]))
                    return descending ? (x > y || (!(y > x) && a < b)) : (x < y || (!(y < x) && a < b))
                }.map { records[$0].id }
                let page = table.list(ListQuery(sortField: field, descending: descending))
                let listed = try JSONDecoder().decode([NFT].self, from: Data(page.readableBytesView)).map(\.id)
                #expect(listed == expected, "\(field) \(descending ? "desc" : "asc")")
            }
        }
    }

    /// Renames, purchases and new accounts applied to a table one batch at a time give the same
    /// pages, in every order, as a table made anew from the rows (what it did before); the table
    /// before each update, which shares its chunks, still lists what it did.
    @Test func anUpdatedTableListsWhatATableMadeAnewLists() async throws {
        var random = Dataset.SeededGenerator(seed: 11)
        func user(_ seq: Int) -> UserRecord {
            UserRecord(
                seq: seq,
                User(
                    id: "u\(seq)", name: ["Ann", "Bob", "ann", "Zed", "Émile"].randomElement(using: &random)!,
                    avatar: "", description: nil, website: "",
                    nfts: (0..<Int.random(in: 0...3, using: &random)).map { String($0) },
                    rating: String(Int.random(in: 0...5, using: &random))))
        }
        var records = (0..<300).map(user)
        var table = try await EncodedTable(
            records, sorts: ReadModel.SortWhitelist.user, id: \.id, name: \.name, model: \.model)
        let queries = [nil, "name", "rating", "id", "nfts", "count"].flatMap { field in
            [false, true].flatMap { descending in
                let query = ListQuery(sortField: field, descending: descending)
                var named = query
                named.name = "an"
                return [query, named]
            }
        }
        for _ in 0..<40 {
            let before = records
            let previous = table
            let previousPages = queries.map(previous.list)
            var changed: [Int] = []
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 0..<records.count, using: &random)
                guard !changed.contains(index) else { continue }
                var changedUser = user(records[index].seq)
                changedUser.id = records[index].id
                records[index] = changedUser
                changed.append(index)
            }
            if Bool.random(using: &random) {
                changed.append(records.count)
                records.append(user(records.count))
            }
            table = try table.updating(
                changed, of: ChunkedArray(records), before: ChunkedArray(before), sorts: ReadModel.SortWhitelist.user,
                id: \.id,
                name: \.name,
                model: \.model)
            let anew = try await EncodedTable(
                records, sorts: ReadModel.SortWhitelist.user, id: \.id, name: \.name, model: \.model)
            for (query, previousPage) in zip(queries, previousPages) {
                #expect(table.list(query) == anew.list(query), "\(query)")
                #expect(previous.list(query) == previousPage, "before the update: \(query)")
            }
            #expect(table.item(id: records.last!.id) == anew.item(id: records.last!.id))
        }
    }
}
