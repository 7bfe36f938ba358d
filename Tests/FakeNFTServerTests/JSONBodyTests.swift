import FakeNFTModels
import Foundation
import NIOCore
import Testing

@testable import FakeNFTServer

/// The server's JSON is byte for byte what `JSONEncoder` writes with sorted keys and unescaped
/// slashes, for everything it serves and for the edges of the format.
struct JSONBodyTests {
    private static let reference: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()

    private static func expectSame<T: Encodable>(
        _ value: T, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let made = String(buffer: try JSONBody.encode(value))
        let expected = String(decoding: try reference.encode(value), as: UTF8.self)
        #expect(made == expected, sourceLocation: sourceLocation)
    }

    @Test func everythingTheShippedDataServesIsWrittenAsJSONEncoderWritesIt() throws {
        let data = try Dataset.gen1()
        for nft in data.nfts { try Self.expectSame(nft) }
        for collection in data.collections { try Self.expectSame(collection) }
        for user in data.users { try Self.expectSame(user) }
        for currency in data.currencies { try Self.expectSame(currency) }
        try Self.expectSame(data.profile)
        try Self.expectSame(data.order)
        try Self.expectSame(data.nfts)
        try Self.expectSame(["token": "t/1", "userId": "7", "name": "Анна", "email": "a@example.com"])
    }

    struct Edges: Encodable {
        var text: String
        var number: Double
        var optional: String?
        var list: [String?]
        var nested: [String: [Int]]
        var flag: Bool
        var small: Int8
    }

    @Test(arguments: [
        "", "plain", "a/b", "quote\"", "back\\slash", "\n\r\t\u{8}\u{C}", "\u{0}\u{1}\u{1F}\u{7F}", "\u{1B}[2J",
        "Пушкин", "🐸👩‍👩‍👧", "\u{2028}\u{2029}", "é and e\u{301}",
    ])
    func stringsAreEscapedAsJSONEncoderEscapesThem(text: String) throws {
        try Self.expectSame(text)
        try Self.expectSame([text: text])
    }

    @Test(arguments: [0, -0.0, 1, -1, 40, 39.37, 0.1, 1e-7, 1e15, 1e16, 1e21, 1.5e300, 5e-324, 12.5, 100])
    func numbersAreWrittenAsJSONEncoderWritesThem(number: Double) throws {
        try Self.expectSame(number)
        try Self.expectSame(
            Edges(
                text: "t", number: number, optional: nil, list: ["a", nil], nested: ["b": [1], "a": []], flag: true,
                small: -8))
    }

    /// A key given twice (no conformance of ours does it).
    struct Twice: Encodable {
        enum Keys: CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .b)
            try container.encode(2, forKey: .a)
            try container.encode(3, forKey: .b)
        }
    }

    @Test func keysSortAsJSONEncoderSortsThem() throws {
        try Self.expectSame(Twice())
        try Self.expectSame(["Zed": 1, "a10": 2, "a9": 3, "nftCount": 4, "nfts": 5, "": 6, "é": 7, "e": 8])
        try Self.expectSame([String: Int]())
        try Self.expectSame([[String]]())
    }

    @Test func whatJSONCannotSayIsRefusedAsJSONEncoderRefusesIt() {
        for number in [Double.nan, .infinity, -.infinity] {
            #expect(throws: EncodingError.self) { try JSONBody.encode(number) }
            #expect(throws: EncodingError.self) { try JSONBody.encode(["price": number]) }
        }
    }

    /// Dates, URLs and data have strategies of their own: `JSONEncoder` writes them.
    @Test func valuesWithAStrategyOfTheirOwnAreLeftToJSONEncoder() throws {
        try Self.expectSame(["at": Date(timeIntervalSinceReferenceDate: 12.5)])
        try Self.expectSame(["link": URL(string: "https://example.com/a")!])
        try Self.expectSame(["bytes": Data([1, 2, 3])])
    }
}
