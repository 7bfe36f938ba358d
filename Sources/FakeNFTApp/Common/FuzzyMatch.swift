/// How well a typed query matches a name, as fzf ranks: every character of the query in order
/// (case and diacritics ignored, Cyrillic too), more for characters at word starts and in runs,
/// less for the gaps between them; the tightest such match is the one scored.
///
/// Ranking is built for a hundred thousand names a key: names are folded once (``Candidate``),
/// a name without the query's characters in order is dropped after one pass over it, the rest are
/// scored in one buffer reused for all of them and ordered by two counting sorts (scores and
/// lengths are small numbers), and the matched characters are found only for the names shown
/// (``match(_:in:)-swift.type.method``).
package enum FuzzyMatch {
    /// A match: its score (higher is better) and the name's characters it used.
    struct Match: Equatable {
        var score: Int
        var positions: [Int]
    }

    static let perCharacter = 16
    static let wordStart = 10
    static let run = 8
    static let firstCharacter = 6
    static let gapStart = 3
    static let gap = 1
    /// The longest name matched (its first characters) and the longest query (its first characters).
    static let maxName = 128, maxQuery = 32

    /// A name made ready to match: its characters (the first ``maxName``) folded to one scalar
    /// each (case and diacritics ignored; ASCII without Foundation) and what starting a match at
    /// each is worth, done once however many queries follow.
    package struct Candidate: Sendable {
        let keys: [UInt32]
        let bonuses: [Int]

        package init(_ name: String) {
            var ascii = true
            for byte in name.utf8.prefix(FuzzyMatch.maxName) where byte >= 0x80 || byte < 0x20 { ascii = false }
            guard ascii else {
                let characters = Array(name.prefix(FuzzyMatch.maxName))
                keys = characters.map { c in
                    let folded = c.isASCII ? Character(c.lowercased()) : Format.searchKey(String(c)).first ?? c
                    return folded.unicodeScalars.first?.value ?? 0
                }
                bonuses = characters.indices.map { isWordStart($0, in: characters) ? wordStart : 0 }
                return
            }
            // printable ASCII, most names: a byte is a character, read without Character's cost
            let bytes = Array(name.utf8.prefix(FuzzyMatch.maxName))
            keys = bytes.map { UInt32((0x41...0x5A).contains($0) ? $0 + 0x20 : $0) }
            bonuses = bytes.indices.map { i in
                guard i > 0 else { return wordStart }
                let before = bytes[i - 1], here = bytes[i]
                let lower = (0x61...0x7A).contains(before), upper = (0x41...0x5A).contains(here)
                let alphanumeric = lower || (0x41...0x5A).contains(before) || (0x30...0x39).contains(before)
                return !alphanumeric || (lower && upper) ? wordStart : 0
            }
        }
    }

    /// The query as names are matched against it: folded, without spaces, its first ``maxQuery``.
    static func folded(_ query: String) -> [UInt32] {
        Format.searchKey(query).filter { $0 != " " }.prefix(maxQuery).map { $0.unicodeScalars.first?.value ?? 0 }
    }

    /// The match of `query` in `name`, or nil when some character of it is not there in order.
    static func match(_ query: String, in name: String) -> Match? { match(query, in: Candidate(name)) }

    /// The match of `query` in `candidate`, with the characters it used.
    static func match(_ query: String, in candidate: Candidate) -> Match? {
        var table = Table()
        let wanted = folded(query)
        guard let (score, end) = table.score(wanted, in: candidate) else { return nil }
        return Match(
            score: score, positions: table.positions(ending: end, count: wanted.count, width: candidate.keys.count))
    }

    /// The `candidates` that match `query`, best first (then shorter, then in their order), by
    /// index; only those of `among` when given (the matches of a query this one extends: a name
    /// that misses "ab" misses "abc").
    package static func ranked(_ candidates: [Candidate], by query: String, among: [Int]? = nil) -> [Int] {
        let wanted = folded(query)
        var allowed: [Bool]?
        if let among {
            allowed = Array(repeating: false, count: candidates.count)
            for index in among { allowed?[index] = true }
        }
        var table = Table()
        var found: [Int] = [], scores: [Int] = []
        for index in candidates.indices where allowed?[index] ?? true {  // in order: ties stay in it
            guard let (score, _) = table.score(wanted, in: candidates[index]) else { continue }
            found.append(index)
            scores.append(score)
        }
        guard let low = scores.min(), let high = scores.max() else { return [] }
        // shorter first, then (stably) the higher score first: score, then length, then order
        let byLength = countingSort(found.indices, keys: { candidates[found[$0]].keys.count }, range: maxName + 1)
        let byScore = countingSort(byLength, keys: { high - scores[$0] }, range: high - low + 1)
        return byScore.map { found[$0] }
    }

    /// `items` stably sorted by `keys` (each in `0..<range`).
    private static func countingSort(
        _ items: some Collection<Int>, keys: (Int) -> Int, range: Int
    ) -> [Int] {
        var starts = Array(repeating: 0, count: range + 1)
        for item in items { starts[keys(item) + 1] += 1 }
        for key in 0..<range { starts[key + 1] += starts[key] }
        var sorted = Array(repeating: 0, count: items.count)
        for item in items {
            let key = keys(item)
            sorted[starts[key]] = item
            starts[key] += 1
        }
        return sorted
    }

    /// The scores of one name's matches, reused from name to name.
    private struct Table {
        /// best[i * width + j]: the best score of the query's first i + 1 characters, the last at j.
        var best: [Int] = []
        /// Where the query's character i - 1 is in that best match.
        var previous: [Int] = []

        /// The best score of `wanted` in `candidate` and where its last character is; nil when
        /// its characters are not all there in order. The best-scoring way to place them is the
        /// one taken (fzf's second algorithm): "ac" in "Ava Cruz" is the two initials, not the
        /// "a" next to the "C".
        mutating func score(_ wanted: [UInt32], in candidate: Candidate) -> (score: Int, end: Int)? {
            let keys = candidate.keys, bonuses = candidate.bonuses
            let n = wanted.count, m = keys.count
            guard n > 0, n <= m else { return nil }
            var found = 0  // one pass first: most names lack a character
            for key in keys where key == wanted[found] {
                found += 1
                if found == n { break }
            }
            guard found == n else { return nil }
            let none = Int.min
            if best.count < n * m {
                best = Array(repeating: none, count: n * m)
                previous = Array(repeating: -1, count: n * m)
            }
            for j in 0..<m {
                best[j] = keys[j] == wanted[0] ? perCharacter + bonuses[j] + (j == 0 ? firstCharacter : 0) : none
            }
            for i in 1..<n {
                let row = i * m, above = row - m
                for j in 0..<i { best[row + j] = none }
                // The best of the previous row before a gap, as `best + gap * k`: a gap's cost grows
                // by `gap` a character, so one running best serves every j (n × m, not n × m²).
                var gapped = none, gappedAt = -1
                for j in i..<m {
                    best[row + j] = none
                    if j >= 2, best[above + j - 2] != none, best[above + j - 2] + gap * (j - 2) > gapped {
                        gapped = best[above + j - 2] + gap * (j - 2)
                        gappedAt = j - 2
                    }
                    guard keys[j] == wanted[i] else { continue }
                    let here = perCharacter + bonuses[j]
                    if gappedAt >= 0 {
                        best[row + j] = gapped - gap * (j - 2) - gapStart + here
                        previous[row + j] = gappedAt
                    }
                    if best[above + j - 1] != none, best[above + j - 1] + run + here > best[row + j] {
                        best[row + j] = best[above + j - 1] + run + here
                        previous[row + j] = j - 1
                    }
                }
            }
            var end = -1
            for j in 0..<m
            where best[(n - 1) * m + j] != none && (end < 0 || best[(n - 1) * m + j] > best[(n - 1) * m + end]) {
                end = j
            }
            return end < 0 ? nil : (best[(n - 1) * m + end], end)
        }

        /// The characters of the match last scored that ends at `end`.
        func positions(ending end: Int, count n: Int, width m: Int) -> [Int] {
            var positions = [end]
            for i in stride(from: n - 1, to: 0, by: -1) { positions.insert(previous[i * m + positions[0]], at: 0) }
            return positions
        }
    }

    /// The first character, one after a space or a mark, or an upper-case one after lower case.
    private static func isWordStart(_ i: Int, in characters: [Character]) -> Bool {
        guard i > 0 else { return true }
        let before = characters[i - 1], here = characters[i]
        return !(before.isLetter || before.isNumber) || (before.isLowercase && here.isUppercase)
    }
}
