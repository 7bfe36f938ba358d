import Foundation
import Testing
@testable import FakeNFTCore
@testable import FakeNFTModels

/// Numbers from the network that do not fit: an error or a clamped value, never a trap.
@Suite struct HostileNumberTests {
    static func nft(rating: String, price: String = "1.5") -> Data {
        Data(
            #"""
            {"id":"1","name":"N","images":[],"rating":\#(rating),"description":"","price":\#(price),"author":"a",
             "createdAt":""}
            """#
            .utf8)
    }

    @Test(arguments: ["1e300", "-1e300", "\"1e300\"", "9223372036854775807", "9.3e18", "-9.3e18", "4.5", "\"3\""])
    func outOfRangeRatingsAreClamped(rating: String) throws {
        let nft = try JSONDecoder().decode(NFT.self, from: Self.nft(rating: rating))
        #expect((0...5).contains(nft.rating))
    }

    @Test(arguments: ["\"nan\"", "\"NaN\"", "\"inf\"", "\"-infinity\"", "1e999", "\"1e999\""])
    func nonFiniteNumbersAreDecodingErrors(value: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(NFT.self, from: Self.nft(rating: value)) }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(NFT.self, from: Self.nft(rating: "1", price: value))
        }
    }

    @Test(arguments: ["\"nan\"", "\"inf\"", "1e999"])
    func aPaidOrderWithANumberThatIsNoneIsRefused(value: String) {
        let total = #"{"id":"a","paidAt":"","currencyId":"1","currencyName":"BTC","items":[],"total":\#(value)}"#
        let price = #"{"id":"a","items":[{"nft":"1","price":\#(value)}],"total":1}"#
        for json in [total, price] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(PaidOrder.self, from: Data(json.utf8)) }
        }
        let lenient = try? JSONDecoder().decode(PaidOrder.self, from: Data(#"{"id":7,"total":"2.5"}"#.utf8))
        #expect(lenient == PaidOrder(id: "7", paidAt: "", currencyId: "", currencyName: "", items: [], total: 2.5))
    }

    @Test func clampingCoversTheEdges() {
        #expect(Int.clamping(0x1p63) == .max && Int.clamping(-0x1p63) == .min && Int.clamping(-0x1p64) == .min)
        #expect(Int.clamping(2.5) == 3 && Int.clamping(-2.5) == -3 && Int.clamping(1e300) == .max)
    }

    @Test func retryAfterIsFiniteAndBounded() {
        #expect(APIClient.retryAfter("nan") == nil)
        #expect(APIClient.retryAfter("inf") == nil && APIClient.retryAfter("-inf") == nil)
        #expect(APIClient.retryAfter("-1e300") == 0)
        #expect(APIClient.retryAfter("1e300") == APIClient.maxRetryAfter)
        #expect(APIClient.retryAfter(" 2 ") == 2)
        #expect(APIClient.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT") == nil)
        #expect(APIClient.retryAfter(nil) == nil)
    }
}
