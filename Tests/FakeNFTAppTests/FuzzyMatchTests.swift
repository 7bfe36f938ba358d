import Testing
@testable import FakeNFTApp

/// The go-to finder's ranking, fzf's way: word starts and runs first.
@Suite struct FuzzyMatchTests {
    func order(_ query: String, _ names: [String]) -> [String] {
        FuzzyMatch.ranked(FuzzyMatch.Names(names), by: query).map { names[$0] }
    }

    @Test func everyCharacterInOrderOrNothing() {
        #expect(FuzzyMatch.match("bge", in: "Beige")?.positions == [0, 3, 4])
        #expect(FuzzyMatch.match("egb", in: "Beige") == nil)
        #expect(FuzzyMatch.match("", in: "Beige") == nil)
        #expect(FuzzyMatch.match("ПРАК", in: "Студентус Практикумус")?.positions == [10, 11, 12, 13])
        #expect(FuzzyMatch.match("ёж", in: "Ежик") != nil, "diacritics and case ignored")
    }

    @Test func wordStartsAndRunsRankFirst() {
        // A run at a word's start beats scattered letters and a run inside a word.
        #expect(order("ava", ["Lava Lamp", "Alva Vance", "Ava Cruz"]).first == "Ava Cruz")
        #expect(order("ava", ["Lava Lamp", "Alva Vance", "Ava Cruz"]).count == 3)
        // Initials of words beat letters in the middle of one.
        #expect(order("ac", ["Bacon", "Ava Cruz"]).first == "Ava Cruz")
        // A whole run before the same letters spread over two words.
        #expect(order("pink", ["Peach Ink", "Pink"]) == ["Pink", "Peach Ink"])
        // Equal scores: the shorter name, then the order given.
        #expect(order("be", ["Beige Two", "Beige"]) == ["Beige", "Beige Two"])
    }

    /// The finder ranks a query typed on from the last among the last one's matches only: the
    /// same names in the same order as ranking them all.
    @Test func rankingAmongTheLastMatchesIsRankingThemAll() {
        var generator = SystemRandomNumberGenerator()
        let syllables = ["ka", "ri", "mo", "ла", "Ёж", "va", "Pe", " ", "x", "Lu"]
        let names = (0..<3_000).map { _ in (0..<6).map { _ in syllables.randomElement(using: &generator)! }.joined() }
        let candidates = FuzzyMatch.Names(names)
        var last: [Int]?
        for query in ["k", "ka", "kar", "kari", "karim", "karimo"] {
            let all = FuzzyMatch.ranked(candidates, by: query)
            let narrowed = FuzzyMatch.ranked(candidates, by: query, among: last)
            #expect(narrowed == all, "\(query)")
            #expect(all.allSatisfy { FuzzyMatch.match(query, in: names[$0]) != nil })
            last = narrowed
        }
    }
}
