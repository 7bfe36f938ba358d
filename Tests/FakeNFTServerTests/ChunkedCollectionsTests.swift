import Testing

@testable import FakeNFTServer

/// ``ChunkedArray`` and ``ShardedDictionary`` hold what an `Array` and a `Dictionary` would,
/// through random changes, and a copy keeps what it held when the original changes (and the
/// other way round), though the two share their chunks.
@Suite struct ChunkedCollectionsTests {
    @Test(arguments: [0, 1, 255, 256, 257, 1_000])
    func aChunkedArrayHoldsWhatAnArrayHolds(count: Int) {
        var random = SeededGenerator(seed: UInt64(count) + 1)
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

    @Test func aShardedDictionaryHoldsWhatADictionaryHolds() {
        var random = SeededGenerator(seed: 5)
        let keys = (0..<2_000).map { "key \($0)" }
        var expected: [String: Int] = [:]
        var sharded = ShardedDictionary<String, Int>()
        var copies: [(ShardedDictionary<String, Int>, [String: Int])] = []
        for step in 0..<5_000 {
            if Int.random(in: 0..<500, using: &random) == 0 { copies.append((sharded, expected)) }
            let key = keys.randomElement(using: &random)!
            let value: Int? = Int.random(in: 0..<5, using: &random) == 0 ? nil : step
            sharded[key] = value
            expected[key] = value
        }
        for key in keys { #expect(sharded[key] == expected[key]) }
        for (copy, held) in copies {
            for key in keys { #expect(copy[key] == held[key]) }
        }
    }

    @Test func aShardedDictionaryMadeFromPairsKeepsTheFirstOfEachKey() {
        let pairs = (0..<3_000).map { ("key \($0 % 2_500)", $0) }
        let sharded = ShardedDictionary(pairs)
        #expect(sharded["key 7"] == 7)
        #expect(sharded["key 2499"] == 2_499)
        #expect(sharded["key 2500"] == nil)
    }
}
