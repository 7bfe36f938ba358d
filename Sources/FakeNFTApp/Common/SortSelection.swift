import TerminalUI

extension ListState {
    /// Re-sorts rows with `sort` keeping the picked row picked: the id of the row selected in
    /// `rows()` before, found again after (the first row when it is gone).
    mutating func keepSelection<Row: Identifiable>(in rows: () -> [Row], across sort: () -> Void) {
        let before = rows()
        let picked = selected < before.count ? before[selected].id : nil
        sort()
        select(rows().firstIndex { $0.id == picked } ?? 0)
    }
}
