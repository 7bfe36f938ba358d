import Foundation

/// Paging and sorting of a list request: `page` (0-based), `size` or `limit`,
/// `sortBy=field[,asc|desc]` and `order=asc|desc`. Unknown parameters are ignored.
struct ListQuery: Sendable, Hashable {
    var page: Int = 0
    var size: Int?
    var sortField: String?
    var descending = false

    init(page: Int = 0, size: Int? = nil, sortField: String? = nil, descending: Bool = false) {
        self.page = page; self.size = size; self.sortField = sortField; self.descending = descending
    }

    /// Reads the query parameters; bad numbers are a 400.
    init(parameters: [String: String]) throws {
        if let p = parameters["page"] {
            guard let n = Int(p), n >= 0 else { throw ServerError.badField("page", "must be a number ≥ 0") }
            page = n
        }
        if let s = parameters["size"] ?? parameters["limit"] {
            guard let n = Int(s), n > 0 else { throw ServerError.badField("size", "must be a number > 0") }
            size = min(n, 10_000)
        }
        if let sortBy = parameters["sortBy"] {
            let parts = sortBy.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            sortField = parts.first.flatMap { $0.isEmpty ? nil : $0 }
            if parts.count > 1 { descending = parts[1].lowercased() == "desc" }
        }
        if let order = parameters["order"] { descending = order.lowercased() == "desc" }
    }

    /// The ORDER BY / LIMIT clause; `columns` maps accepted sort fields to SQL expressions.
    func sql(_ columns: [String: String]) -> String {
        var clause = ""
        if let sortField, let column = columns[sortField] {
            clause += " ORDER BY \(column) \(descending ? "DESC" : "ASC"), seq ASC"
        } else {
            clause += " ORDER BY seq \(descending && sortField == nil ? "DESC" : "ASC")"
        }
        if size != nil { clause += " LIMIT ? OFFSET ?" }
        return clause
    }

    var arguments: [Int] {
        guard let size else { return [] }
        return [size, page * size]
    }
}
