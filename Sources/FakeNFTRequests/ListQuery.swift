/// Paging and sorting of a list request: `page` (0-based), `size` or `limit`,
/// `sortBy=field[,asc|desc]` and `order=asc|desc`. Unknown parameters are ignored.
public struct ListQuery: Sendable, Hashable {
    /// The largest page the server sends; a bigger `size` is clamped to it.
    public static let maxSize = 10_000

    public var page: Int = 0
    /// Nil: the whole list.
    public var size: Int?
    public var sortField: String?
    public var descending = false
    /// `name=`: only entities whose name contains it, ignoring case and diacritics (an extension
    /// of the FakeNFT API; servers without it ignore the parameter).
    public var name: String?
    /// The longest `name=` kept.
    public static let maxNameLength = 100

    public init(page: Int = 0, size: Int? = nil, sortField: String? = nil, descending: Bool = false) {
        self.page = page
        self.size = size
        self.sortField = sortField
        self.descending = descending
    }

    /// Reads the query parameters; a number that is not one, or out of range, is a 400.
    public init(parameters: [String: String]) throws(RequestError) {
        if let p = parameters["page"] {
            guard let n = Int(p.trimmingSpaces), n >= 0 else { throw .badField("page", "must be a whole number ≥ 0") }
            page = n
        }
        if let s = parameters["size"] ?? parameters["limit"] {
            guard let n = Int(s.trimmingSpaces), n > 0 else { throw .badField("size", "must be a whole number > 0") }
            size = min(n, Self.maxSize)
        }
        if let sortBy = parameters["sortBy"] {
            let parts = sortBy.split(separator: ",").map { String($0).trimmingSpaces }
            sortField = parts.first.flatMap { $0.isEmpty ? nil : $0 }
            if parts.count > 1 { descending = parts[1].lowercased() == "desc" }
        }
        if let order = parameters["order"] { descending = order.lowercased() == "desc" }
        if let text = parameters["name"]?.trimmingSpaces, !text.isEmpty {
            name = String(text.prefix(Self.maxNameLength))
        }
    }

    /// The positions of this page in a list of `count` items; empty past the end. Never traps:
    /// `page × size` beyond `Int.max` is past the end of any list.
    public func window(count: Int) -> Range<Int> {
        let count = max(0, count)
        guard let size else { return 0..<count }
        let (start, overflow) = page.multipliedReportingOverflow(by: size)
        guard !overflow, start < count else { return count..<count }
        return start..<(start + min(size, count - start))
    }
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while scalars.first == " " { scalars.removeFirst() }
        while scalars.last == " " { scalars.removeLast() }
        return String(scalars)
    }
}
