/// How well a typed query matches a name, as fzf ranks: every character of the query in order
/// (case and diacritics ignored, Cyrillic too), more for characters at word starts and in runs,
/// less for the gaps between them; the tightest such match is the one scored.
///
/// Ranking is built for a hundred thousand names a key: names are folded once (``Names``),
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

    /// Names made ready to match, all in two flat arrays (no object per name: a hundred
    /// thousand are read a key without a reference count touched): each name's characters (its
    /// first ``maxName``) folded to one scalar each (case and diacritics ignored; ASCII without
    /// Foundation) and what starting a match at each is worth, done once however many queries follow.
    package struct Names: Sendable {
        private var keys: [UInt32] = []
        private var bonuses: [UInt8] = []
        /// Where each name ends in ``keys``.
        private var ends: [Int] = []

        package init(_ names: some Sequence<String>) {
            for name in names { append(name) }
        }

        package var count: Int { ends.count }

        private mutating func append(_ name: String) {
            var ascii = true
            for byte in name.utf8.prefix(FuzzyMatch.maxName) where byte >= 0x80 || byte < 0x20 { ascii = false }
            if ascii {  // printable ASCII, most names: a byte is a character, read without Character's cost
                let bytes = Array(name.utf8.prefix(FuzzyMatch.maxName))
                for (i, byte) in bytes.enumerated() {
                    keys.append(UInt32((0x41...0x5A).contains(byte) ? byte + 0x20 : byte))
                    let before = i > 0 ? bytes[i - 1] : 0x20
                    let lower = (0x61...0x7A).contains(before), upper = (0x41...0x5A).contains(byte)
                    let alphanumeric = lower || (0x41...0x5A).contains(before) || (0x30...0x39).contains(before)
                    bonuses.append(!alphanumeric || (lower && upper) ? UInt8(wordStart) : 0)
                }
            } else {
                let characters = Array(name.prefix(FuzzyMatch.maxName))
                for (i, c) in characters.enumerated() {
                    let folded = c.isASCII ? Character(c.lowercased()) : Format.searchKey(String(c)).first ?? c
                    keys.append(folded.unicodeScalars.first?.value ?? 0)
                    bonuses.append(isWordStart(i, in: characters) ? UInt8(wordStart) : 0)
                }
            }
            ends.append(keys.count)
        }

        /// Calls `body` with the folded characters and bonuses of name `index`.
        func withName<T>(
            _ index: Int, _ body: (UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<UInt8>) -> T
        ) -> T {
            let range = (index == 0 ? 0 : ends[index - 1])..<ends[index]
            return keys.withUnsafeBufferPointer { keys in
                bonuses.withUnsafeBufferPointer { bonuses in
                    body(UnsafeBufferPointer(rebasing: keys[range]), UnsafeBufferPointer(rebasing: bonuses[range]))
                }
            }
        }

        /// Calls `body` with a way to read every name's characters and bonuses, each by index.
        func withAll<T>(
            _ body: ((Int) -> (UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<UInt8>)) -> T
        ) -> T {
            keys.withUnsafeBufferPointer { keys in
                bonuses.withUnsafeBufferPointer { bonuses in
                    ends.withUnsafeBufferPointer { ends in
                        body { index in
                            let range = (index == 0 ? 0 : ends[index - 1])..<ends[index]
                            return (
                                UnsafeBufferPointer(rebasing: keys[range]),
                                UnsafeBufferPointer(rebasing: bonuses[range])
                            )
                        }
                    }
                }
            }
        }
    }

    /// The query as names are matched against it: folded, without spaces, its first ``maxQuery``.
    static func folded(_ query: String) -> [UInt32] {
        Format.searchKey(query).filter { $0 != " " }.prefix(maxQuery).map { $0.unicodeScalars.first?.value ?? 0 }
    }

    /// The match of `query` in `name`, or nil when some character of it is not there in order.
    static func match(_ query: String, in name: String) -> Match? { match(query, at: 0, of: Names([name])) }

    /// The match of `query` in name `index` of `names`, with the characters it used.
    static func match(_ query: String, at index: Int, of names: Names) -> Match? {
        var table = Table()
        let wanted = folded(query)
        return names.withName(index) { keys, bonuses in
            wanted.withUnsafeBufferPointer { wanted in
                guard let (score, end) = table.score(wanted, keys, bonuses) else { return nil }
                return Match(
                    score: score, positions: table.positions(ending: end, count: wanted.count, width: keys.count))
            }
        }
    }

    /// The `names` that match `query`, best first (then shorter, then in their order), by
    /// index; only those of `among` when given (the matches of a query this one extends: a name
    /// that misses "ab" misses "abc").
    package static func ranked(_ names: Names, by query: String, among: [Int]? = nil) -> [Int] {
        let wanted = folded(query)
        var allowed: [Bool]?
        if let among {
            allowed = Array(repeating: false, count: names.count)
            for index in among { allowed?[index] = true }
        }
        var table = Table()
        var found: [Int] = [], scores: [Int] = [], lengths: [Int] = []
        wanted.withUnsafeBufferPointer { wanted in
            names.withAll { name in
                for index in 0..<names.count where allowed?[index] ?? true {  // in order: ties stay in it
                    let (keys, bonuses) = name(index)
                    guard let (score, _) = table.score(wanted, keys, bonuses) else { continue }
                    found.append(index)
                    scores.append(score)
                    lengths.append(keys.count)
                }
            }
        }
        guard let low = scores.min(), let high = scores.max() else { return [] }
        // shorter first, then (stably) the higher score first: score, then length, then order
        let byLength = countingSort(found.indices, keys: { lengths[$0] }, range: maxName + 1)
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

        /// The best score of `wanted` in a name (its folded `keys` and `bonuses`) and where its
        /// last character is; nil when its characters are not all there in order. The
        /// best-scoring way to place them is the one taken (fzf's second algorithm): "ac" in
        /// "Ava Cruz" is the two initials, not the "a" next to the "C".
        mutating func score(
            _ wanted: UnsafeBufferPointer<UInt32>, _ keys: UnsafeBufferPointer<UInt32>,
            _ bonuses: UnsafeBufferPointer<UInt8>
        ) -> (score: Int, end: Int)? {
            let n = wanted.count, m = keys.count
            guard n > 0, n <= m else { return nil }
            var found = 0  // one pass first: most names lack a character
            for key in keys where key == wanted[found] {
                found += 1
                if found == n { break }
            }
            guard found == n else { return nil }
            if best.count < n * m {
                best = Array(repeating: 0, count: n * m)
                previous = Array(repeating: -1, count: n * m)
            }
            return best.withUnsafeMutableBufferPointer { best in
                previous.withUnsafeMutableBufferPointer { previous in
                    Self.fill(best, previous, wanted, keys, bonuses)
                }
            }
        }

        private static func fill(
            _ best: UnsafeMutableBufferPointer<Int>, _ previous: UnsafeMutableBufferPointer<Int>,
            _ wanted: UnsafeBufferPointer<UInt32>, _ keys: UnsafeBufferPointer<UInt32>,
            _ bonuses: UnsafeBufferPointer<UInt8>
        ) -> (score: Int, end: Int)? {
            let n = wanted.count, m = keys.count, none = Int.min
            for j in 0..<m {
                best[j] =
                    keys[j] == wanted[0] ? perCharacter + Int(bonuses[j]) + (j == 0 ? firstCharacter : 0) : none
            }
            for i in 1..<n {
                let row = i * m, above = row - m
                // The best of the previous row before a gap, as `best + gap * k`: a gap's cost grows
                // by `gap` a character, so one running best serves every j (n × m, not n × m²).
                var gapped = none, gappedAt = -1
                for j in 0..<m {
                    best[row + j] = none
                    guard j >= i else { continue }
                    if j >= 2, best[above + j - 2] != none, best[above + j - 2] + gap * (j - 2) > gapped {
                        gapped = best[above + j - 2] + gap * (j - 2)
                        gappedAt = j - 2
                    }
                    guard keys[j] == wanted[i] else { continue }
                    let here = perCharacter + Int(bonuses[j])
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
            let last = (n - 1) * m
            var end = -1
            for j in 0..<m where best[last + j] != none && (end < 0 || best[last + j] > best[last + end]) { end = j }
            return end < 0 ? nil : (best[last + end], end)
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
