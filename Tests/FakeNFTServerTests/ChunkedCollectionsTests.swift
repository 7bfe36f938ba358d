import HashTreeCollections
import Testing

@testable import FakeNFTServer

/// ``ChunkedArray`` holds what an `Array` would, through random changes, and a copy keeps what
/// it held when the original changes (and the other way round), though the two share their
/// chunks; the read model's dictionaries keep the first of two rows with one key.
@Suite struct ChunkedCollectionsTests {
    @Test(arguments: [0, 1, 255, 256, 257, 1_000])
    func aChunkedArrayHoldsWhatAnArrayHolds(count: Int) {
        var random = Dataset.SeededGenerator(seed: UInt64(count) + 1)
        var expected = (0..<count).map { "row \($0)" }
        var chunked = ChunkedArray(expected)
        #expect(Array(chunked) == expected)
        var copies: [(ChunkedArray<String>, [String])] = []
        for step in 0..<600 {
            if Int.random(in: 0..<8, using: &random) == 0 { copies.append((chunked, expected)) }
            if expected.isEmpty || Bool.random(using: &random) {
                chunked.append("added \(step)")
                expected.append("added \(step)")
            } else {
                let index = Int.random(in: 0..<expected.count, using: &random)
                chunked[index] = "changed \(step)"
                expected[index] = "changed \(step)"
            }
        }
        #expect(Array(chunked) == expected)
        #expect(chunked.count == expected.count)
        #expect(chunked.last == expected.last)
        for (copy, held) in copies { #expect(Array(copy) == held) }
    }

    @Test func aCopyOfAChunkedArrayChangesAloneAndTheOriginalStays() {
        let original = ChunkedArray((0..<600).map { $0 })
        var copy = original
        copy[300] = -1
        copy.append(600)
        #expect(original[300] == 300 && original.count == 600)
        #expect(copy[300] == -1 && copy.count == 601 && copy[600] == 600)
    }

    @Test func aTreeDictionaryMadeFromPairsKeepsTheFirstOfEachKey() {
        let pairs = (0..<3_000).map { ("key \($0 % 2_500)", $0) }
        let rows = TreeDictionary(firstOf: pairs)
        #expect(rows["key 7"] == 7)
        #expect(rows["key 2499"] == 2_499)
        #expect(rows["key 2500"] == nil)
    }
}
