/// A block of rows that moved up or down between two frames, as a list scrolled by a row or a
/// few leaves them: the terminal moves them itself in a scroll region, and only what is new is
/// written.
struct RowShift: Equatable {
    /// The rows scrolled (the region, in screen rows).
    var region: Range<Int>
    /// How far: positive moves the text up (the row `region.lowerBound + distance` comes to the
    /// top), negative down.
    var distance: Int
    /// The rows of the new frame the scroll alone puts right: nothing is written on them.
    var kept: Set<Int>

    /// The farthest scroll looked for: the wheel moves three rows; a page is written anew.
    static let farthest = 5

    /// The shift that spares writing the most of the `changed` rows, less the unchanged rows it
    /// would disturb, if it spares at least two; `same(y, before)` says whether row `y` of the
    /// new frame is row `before` of the shown one. Rows between that do not move with it (a
    /// selection that moved too) are written as they would be anyway.
    static func find(changed: [Bool], same: (Int, Int) -> Bool) -> RowShift? {
        let height = changed.count
        guard let top = changed.firstIndex(of: true), let bottom = changed.lastIndex(of: true), bottom - top >= 2
        else { return nil }
        var best: RowShift?, bestScore = 1
        for distance in (1...farthest).flatMap({ [$0, -$0] }) {
            var kept = Set<Int>()
            for y in top...bottom where changed[y] && (0..<height).contains(y + distance) && same(y, y + distance) {
                kept.insert(y)
            }
            guard kept.count > bestScore, let first = kept.min(), let last = kept.max() else { continue }
            let region = distance > 0 ? first..<(last + 1 + distance) : (first + distance)..<(last + 1)
            var score = kept.count
            for y in region where !changed[y] && !kept.contains(y) {
                if region.contains(y + distance), same(y, y + distance) { kept.insert(y) } else { score -= 1 }
            }
            if score > bestScore {
                (best, bestScore) = (RowShift(region: region, distance: distance, kept: kept), score)
            }
        }
        return best
    }

    /// Where row `y`'s cells were before the scroll: nil for a row it uncovers.
    func rowBefore(_ y: Int) -> Int? { region.contains(y + distance) ? y + distance : nil }
}
