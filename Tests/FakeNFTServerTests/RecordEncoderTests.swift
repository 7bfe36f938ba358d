import FakeNFTModels
import FakeNFTTesting
import Foundation
import GRDB
import NIOCore
import Testing

@testable import FakeNFTServer

/// Both stores write a record's columns one way (`RecordEncoder`): the same columns in the same
/// order, a nil as a NULL, id lists as `IDListText` writes them (slashes unescaped); and so they
/// are in either database.
struct RecordEncoderTests {
    static let nft = NFTRecord(
        seq: 7,
        NFT(
            id: "7", name: "Lark", images: ["https://x.test/a/1.png", "https://x.test/a/2.png"], rating: 3,
            description: "a \"bird\"", price: 1.5, author: "9", website: nil, createdAt: "2023-01-01"))

    @Test func bothStoresGetTheSameColumns() throws {
        let sqlite = try Self.nft.databaseDictionary
        var postgres = PostgresColumnValues()
        try RecordEncoder.write(Self.nft, to: &postgres)
        let names = ["seq", "id", "name", "images", "rating", "description", "price", "author", "website", "createdAt"]
        #expect(postgres.names == names)
        #expect(postgres.binds.count == names.count)
        #expect(Set(sqlite.keys) == Set(names))
        #expect(sqlite["images"] == #"["https://x.test/a/1.png","https://x.test/a/2.png"]"#.databaseValue)
        #expect(sqlite["website"] == .null)
        #expect(sqlite["price"] == 1.5.databaseValue)
        #expect(sqlite["description"] == #"a "bird""#.databaseValue)
    }

    /// What PostgreSQL's change function reads (`jsonb_populate_record`): every column by its
    /// name, a nil as null, an id list as the text the column holds.
    @Test func aChangedRowTravelsAsJSONKeyedByItsColumns() throws {
        let text = String(buffer: try JSONBody.encode(RecordJSON(Self.nft)))
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let columns = try #require(json as? [String: Any])
        #expect(
            Set(columns.keys) == [
                "seq", "id", "name", "images", "rating", "description", "price", "author",
                "website", "createdAt",
            ])
        #expect(columns["images"] as? String == #"["https://x.test/a/1.png","https://x.test/a/2.png"]"#)
        #expect(columns["website"] is NSNull)
        #expect(columns["price"] as? Double == 1.5 && columns["seq"] as? Int == 7)
    }

    @Test func aRecordReadsBackAsItWasWritten() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: StorageSchema.sql(StorageSchema.migrations[0].steps[0], .sqlite).joined(separator: ";"))
            try Self.nft.insert(db)
            #expect(try NFTRecord.fetchOne(db) == Self.nft)
        }
    }

    @Test func idListsAreStoredInTheirOneForm() async throws {
        try await TestServer.with { server async throws in
            let (status, body, _) = try await server.answer(
                "GET", "/api/v1/nft/1", body: nil, contentType: nil, headers: [:])
            #expect(status == 200)
            let nft = try JSONDecoder().decode(NFT.self, from: body)
            #expect(nft.images.contains { $0.contains("/") })
            // stored as the data set has them (the server answers them on its own address)
            let stored = try #require(
                try await server.databaseRows("SELECT images FROM nft WHERE id = '1'").first?.first)
            let ids = try IDListText.list(stored)
            #expect(
                ids.map { $0.split(separator: "/").suffix(4) } == nft.images.map { $0.split(separator: "/").suffix(4) })
            #expect(stored == (try IDListText.text(ids)))
            #expect(!stored.contains(#"\/"#), "no escaped slash: \(stored)")

            let (changed, _, _) = try await server.answer(
                "PUT", "/api/v1/profile/1", body: "likes=3,1", contentType: "application/x-www-form-urlencoded",
                headers: [:])
            #expect(changed == 200)
            #expect(try await server.databaseRows("SELECT likes FROM profile WHERE id = '1'") == [[#"["3","1"]"#]])
        }
    }
}
