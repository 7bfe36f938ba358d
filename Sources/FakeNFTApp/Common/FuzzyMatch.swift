/// How well a typed query matches a name, as fzf ranks: every character of the query in order
/// (case and diacritics ignored, Cyrillic too), more for characters at word starts and in runs,
/// less for the gaps between them; the tightest such match is the one scored.
enum FuzzyMatch {
    /// A match: its score (higher is better) and the name's characters it used.
    struct Match: Equatable {
        var score: Int
        var positions: [Int]
    }

    /// A match of one of several items: its place among them and its name's length.
    private struct Found {
        var order: Int
        var match: Match
        var length: Int
    }

    static let perCharacter = 16
    static let wordStart = 10
    static let run = 8
    static let firstCharacter = 6
    static let gapStart = 3
    static let gap = 1

    /// A name made ready to match: its characters (the first 128) and each folded (case and
    /// diacritics ignored; ASCII without Foundation), done once however many queries follow.
    struct Candidate: Sendable {
        let characters: [Character]
        let folded: [Character]

        init(_ name: String) {
            characters = Array(name.prefix(128))
            folded = characters.map { c in
                c.isASCII ? Character(c.lowercased()) : Format.searchKey(String(c)).first ?? c
            }
        }
    }

    /// The match of `query` in `name`, or nil when some character of it is not there in order.
    static func match(_ query: String, in name: String) -> Match? { match(query, in: Candidate(name)) }

    /// The match of `query` in `candidate`. The best-scoring way to place the query's characters
    /// is the one taken (fzf's second algorithm): "ac" in "Ava Cruz" is the two initials, not the
    /// "a" next to the "C".
    static func match(_ query: String, in candidate: Candidate) -> Match? {
        let wanted = Array(Format.searchKey(query).filter { $0 != " " }.prefix(32))
        let characters = candidate.characters, folded = candidate.folded
        let n = wanted.count, m = folded.count
        guard n > 0, n <= m else { return nil }
        let none = Int.min
        // best[i][j]: the best score of the query's first i + 1 characters, the last at j.
        var best = Array(repeating: Array(repeating: none, count: m), count: n)
        var previous = Array(repeating: Array(repeating: -1, count: m), count: n)
        for j in 0..<m where folded[j] == wanted[0] {
            best[0][j] = perCharacter + bonus(j, in: characters) + (j == 0 ? firstCharacter : 0)
        }
        for i in 1..<n {
            // The best of the previous row before a gap, as `best + gap * k`: a gap's cost grows
            // by `gap` a character, so one running best serves every j (n × m, not n × m²).
            var gapped = none, gappedAt = -1
            for j in i..<m {
                if j >= 2, best[i - 1][j - 2] != none, best[i - 1][j - 2] + gap * (j - 2) > gapped {
                    gapped = best[i - 1][j - 2] + gap * (j - 2)
                    gappedAt = j - 2
                }
                guard folded[j] == wanted[i] else { continue }
                let here = perCharacter + bonus(j, in: characters)
                if gappedAt >= 0 {
                    best[i][j] = gapped - gap * (j - 2) - gapStart + here
                    previous[i][j] = gappedAt
                }
                if best[i - 1][j - 1] != none, best[i - 1][j - 1] + run + here > best[i][j] {
                    best[i][j] = best[i - 1][j - 1] + run + here
                    previous[i][j] = j - 1
                }
            }
        }
        guard let end = (0..<m).filter({ best[n - 1][$0] != none }).max(by: { best[n - 1][$0] < best[n - 1][$1] })
        else { return nil }
        var positions = [end]
        for i in stride(from: n - 1, to: 0, by: -1) { positions.insert(previous[i][positions[0]], at: 0) }
        return Match(score: best[n - 1][end], positions: positions)
    }

    private static func bonus(_ i: Int, in characters: [Character]) -> Int {
        isWordStart(i, in: characters) ? wordStart : 0
    }

    /// The first character, one after a space or a mark, or an upper-case one after lower case.
    private static func isWordStart(_ i: Int, in characters: [Character]) -> Bool {
        guard i > 0 else { return true }
        let before = characters[i - 1], here = characters[i]
        return !(before.isLetter || before.isNumber) || (before.isLowercase && here.isUppercase)
    }

    /// The `candidates` that match `query`, best first (then shorter, then in their order), by index.
    static func ranked(_ candidates: [Candidate], by query: String) -> [(index: Int, match: Match)] {
        var found: [Found] = []
        for (order, candidate) in candidates.enumerated() {
            guard let match = match(query, in: candidate) else { continue }
            found.append(Found(order: order, match: match, length: candidate.characters.count))
        }
        found.sort { a, b in
            if a.match.score != b.match.score { return a.match.score > b.match.score }
            return a.length != b.length ? a.length < b.length : a.order < b.order
        }
        return found.map { ($0.order, $0.match) }
    }
}
