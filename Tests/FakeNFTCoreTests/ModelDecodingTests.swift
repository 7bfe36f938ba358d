import Foundation
import Testing
@testable import FakeNFTCore

/// The real responses of both API generations decode.
@Suite struct ModelDecodingTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures").standardized

    /// The generator's files, kept once: where the server seeds from them.
    static let seedData = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/FakeNFTServer/Resources/gen1").standardized

    func load(_ name: String) throws -> Data {
        try Data(
            contentsOf: (name.hasPrefix("gen1-generator-") ? Self.seedData : Self.fixtures).appendingPathComponent(name)
        )
    }

    /// The `items` of a reconstructed gen2 sample file.
    func items(_ name: String) throws -> Data {
        let object = try #require(try JSONSerialization.jsonObject(with: load(name)) as? [String: Any])
        return try JSONSerialization.data(withJSONObject: object["items"] as Any)
    }

    @Test func gen1Responses() throws {
        let nft = try JSONDecoder().decode(NFT.self, from: load("gen1-nft-by-id.vadamask.json"))
        #expect(nft.name == "April" && nft.rating == 5 && nft.price == 4.5 && nft.author == "6" && nft.website == nil)
        let collection = try JSONDecoder().decode(NFTCollection.self, from: load("gen1-collection-by-id.vadamask.json"))
        #expect(collection.nfts == ["1", "2", "3", "4", "5"])
        let collections = try JSONDecoder().decode(
            [NFTCollection].self, from: load("gen1-collections-list.vadamask.json"))
        #expect(!collections.isEmpty)
        let user = try JSONDecoder().decode(User.self, from: load("gen1-user-by-id.vadamask.json"))
        #expect(user.rating == "77" && user.ratingValue == 77)
        let profile = try JSONDecoder().decode(Profile.self, from: load("gen1-profile.vadamask.json"))
        #expect(profile.likes == ["1"])
        let order = try JSONDecoder().decode(Order.self, from: load("gen1-order.vadamask.json"))
        #expect(order.id == "1")
        // The generator's own output used integer ids.
        let generated = try JSONDecoder().decode([Profile].self, from: load("gen1-generator-profile.json"))
        #expect(generated[0].nfts.first == "68")
        let currencies = try JSONDecoder().decode([Currency].self, from: load("gen1-generator-currencies.json"))
        #expect(currencies.count == 8)
        let payments = try JSONDecoder().decode([PaymentResult].self, from: load("gen1-generator-payment-results.json"))
        #expect(payments.filter(\.success).map(\.id) == ["1", "3", "4"])
    }

    @Test func gen2Samples() throws {
        let nfts = try JSONDecoder().decode([NFT].self, from: items("gen2-nfts-sample.reconstructed.json"))
        #expect(nfts.allSatisfy { $0.createdAt.hasSuffix("[GMT]") && $0.author.hasPrefix("https://") })
        let users = try JSONDecoder().decode([User].self, from: items("gen2-users-sample.reconstructed.json"))
        #expect(users.contains { $0.description == nil })
        let collections = try JSONDecoder().decode(
            [NFTCollection].self, from: items("gen2-collections-sample.reconstructed.json"))
        #expect(!collections.isEmpty)
        let currencies = try JSONDecoder().decode([Currency].self, from: items("gen2-currencies.reconstructed.json"))
        #expect(currencies.first?.title == "Shiba Inu")
    }

    @Test func lenientShapes() throws {
        let json =
            #"""
            {"id": 7, "name": "X", "images": [], "rating": "4", "description": null, "price": "1.5", "author": 3,
             "createdAt": "2023-09-27T23:48:21.462Z[GMT]"}
            """#
        let nft = try JSONDecoder().decode(NFT.self, from: Data(json.utf8))
        #expect(nft.id == "7" && nft.rating == 4 && nft.description == "" && nft.price == 1.5 && nft.author == "3")
        #expect(nft.createdAt == "2023-09-27T23:48:21.462Z[GMT]")
        let user = try JSONDecoder().decode(
            User.self, from: Data(#"{"id":"u","name":"N","avatar":"","website":"","nfts":null,"rating":10}"#.utf8))
        #expect(user.rating == "10" && user.nfts.isEmpty && user.description == nil)
        let currency = try JSONDecoder().decode(
            Currency.self, from: Data(#"{"id":"1","title":"Bitcoin,","name":"BTC,","image":""}"#.utf8))
        #expect(currency.title == "Bitcoin" && currency.name == "BTC")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(NFT.self, from: Data(#"{"name": "no id"}"#.utf8))
        }
    }

    @Test func formEncodingMatchesRealClients() {
        #expect(IDList.formValue([]) == "null")
        #expect(
            ProfileUpdate(name: "Иван", likes: ["1", "2"]).formFields.map { "\($0.0)=\($0.1)" } == [
                "name=Иван", "likes=1,2",
            ])
        #expect(
            FormEncoding.encode([("likes", "1,2"), ("website", "https://a.b/c d&e")])
                == "likes=1,2&website=https://a.b/c%20d%26e")
        let decoded = FormEncoding.decode("name=%D0%98+x&likes%5B%5D=1&bad=%zz")
        #expect(decoded.map(\.0) == ["name", "likes[]", "bad"])
        #expect(decoded.map(\.1) == ["И x", "1", "%zz"])
        #expect(FormEncoding.decode("a=%C3&b=%c3%a9%2B&c=%&d=%4").map(\.1) == ["%C3", "é+", "%", "%4"])
        #expect(IDList.split(" 1, 2 ,,3 ") == ["1", "2", "3"])
        // plain lists split directly, the same as trimmed and split through Foundation
        for list in ["1,2,3", ",1,,2,", "null", "NULL", "", ",", "a-b,c_d", " null ", "1,\t2", "1,\u{A0}2", "Ид,2"] {
            let trimmed = list.trimmingCharacters(in: .whitespaces)
            let expected =
                trimmed.isEmpty || trimmed == "null"
                ? []
                : trimmed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            #expect(IDList.split(list) == expected, "\(list)")
        }
        let original = Profile(id: "1", name: "A", avatar: "x", description: "d", website: "w", nfts: [], likes: [])
        var edited = original
        edited.name = "B"
        #expect(ProfileUpdate.changes(from: original, to: edited) == ProfileUpdate(name: "B"))
    }

    /// The form decoder reads every field as Foundation's `removingPercentEncoding` after `+` to
    /// space would (its reference), on random fields of escapes, pluses and multibyte letters;
    /// bytes that are not UTF-8 always keep the field as text.
    @Test func formDecodingAgreesWithFoundation() {
        let pieces = ["a", "+", "%", "%2", "%20", "%2b", "%C3", "%A9", "%FF", "%00", "%e2%82%ac", "é", "ж", "=", "z"]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let field = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            let spaced = field.replacingOccurrences(of: "+", with: " ")
            // Foundation reads some bytes that are not UTF-8 as U+FFFD, others as a malformed field
            let expected = spaced.removingPercentEncoding.flatMap { $0.contains("\u{FFFD}") ? nil : $0 } ?? spaced
            #expect(FormEncoding.decode("k=" + field).first?.1 ?? "" == expected, "\(field)")
        }
    }
}
