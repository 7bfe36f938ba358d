/// The currencies one can pay with, fetched once.
public actor CurrencyService {
    private let api: APIClient
    private var cached: [Currency]?

    public init(api: APIClient) { self.api = api }

    public func currencies() async throws -> [Currency] {
        if let cached { return cached }
        let fresh = try await api.currencies()
        cached = fresh
        return fresh
    }
}

/// Other users, fetched page by page in the order the server sorts them.
public actor UserService {
    /// How users are sorted.
    public enum Sorting: String, Sendable, Hashable, Codable, CaseIterable {
        case rating, name
        /// The server's `sortBy` value.
        var sortBy: String { self == .rating ? "rating,desc" : "name,asc" }
    }

    public static let pageSize = 50
    private let api: APIClient
    private var pages: [Sorting: [Int: [User]]] = [:]

    public init(api: APIClient) { self.api = api }

    /// Page `page` (0-based) of users sorted by `sorting`, cached for the life of the service;
    /// while the server cannot be reached, the first page the last run saw.
    public func page(_ page: Int, sorting: Sorting) async throws -> [User] {
        if let cached = pages[sorting]?[page] { return cached }
        do {
            let users = try await api.users(page: page, size: Self.pageSize, sortBy: sorting.sortBy)
            pages[sorting, default: [:]][page] = users
            return users
        } catch let error as APIError where error.isUnreachable {
            guard page == 0, let saved = rememberedFirstPages[sorting] else { throw error }
            return saved
        }
    }

    /// One user, read again each time; while the server cannot be reached, as last read.
    public func user(id: String) async throws -> User {
        do {
            let user = try await api.user(id: id)
            people[id] = user
            return user
        } catch let error as APIError where error.isUnreachable {
            guard let known = people[id] else { throw error }
            return known
        }
    }

    /// The most users read one by one that are kept for the next run.
    public static let maxPeople = 1_000
    /// Users read one by one, by id (the authors screens name).
    private var people: [String: User] = [:]
    /// The first pages the last run saw, for while the server cannot be reached.
    private var rememberedFirstPages: [Sorting: [User]] = [:]
    /// The places in the rating of the users the last run kept, and how many users there were.
    private var rememberedRanking: (places: [String: Int], count: Int?) = ([:], nil)

    /// Takes what the last run saw: the first pages, the users it named and their places.
    public func remember(_ seen: LastSeen) {
        for (raw, users) in seen.firstPages {
            if let sorting = Sorting(rawValue: raw) { rememberedFirstPages[sorting] = users }
        }
        for user in seen.people where people[user.id] == nil { people[user.id] = user }
        rememberedRanking = (seen.ratingPlaces ?? [:], seen.userCount)
    }

    /// What to keep for the next run: the first pages (read now, or remembered), the users
    /// named, those users' places in the rating and how many users there are, as far as known.
    public func seen() -> (firstPages: [String: [User]], people: [User], places: [String: Int], count: Int?) {
        var firstPages: [String: [User]] = [:]
        for sorting in Sorting.allCases {
            if let users = pages[sorting]?[0] ?? rememberedFirstPages[sorting] { firstPages[sorting.rawValue] = users }
        }
        let kept = Array(people.values.prefix(Self.maxPeople))
        let keptIDs = Set(firstPages.values.joined().map(\.id) + kept.map(\.id))
        let (places, count) = ranking()
        return (firstPages, kept, places.filter { keptIDs.contains($0.key) }, count)
    }

    /// Places in the rating (1 is the highest) as far as known without asking: every user's
    /// once the whole rating was read in this run, else the rating's first page's (read now, or
    /// remembered) and what the last run kept; and how many users there are, when known.
    public func ranking() -> (places: [String: Int], count: Int?) {
        var places = rememberedRanking.places
        let top = everyone[.rating] ?? pages[.rating]?[0] ?? rememberedFirstPages[.rating] ?? []
        for (index, user) in top.enumerated() { places[user.id] = index + 1 }
        let whole = everyone[.rating] != nil || (!top.isEmpty && top.count < Self.pageSize)
        return (places, whole ? top.count : rememberedRanking.count)
    }

    /// Every user known without the server: the first pages (read now, or remembered) and the
    /// users read one by one, each once, best rated first (what go-to finds offline).
    public func known() -> [User] {
        let (firstPages, people, _, _) = seen()
        var byID: [String: User] = [:]
        for user in Array(firstPages.values.joined()) + people { byID[user.id] = byID[user.id] ?? user }
        return byID.values.sorted { ($0.ratingValue, $1.name) > ($1.ratingValue, $0.name) }
    }

    private var changed: [String: User] = [:]
    private var revision = 0
    private let revisions = Broadcast<Int>()

    /// A user's row changed on the server (a live `user` event): it is read again and replaces
    /// the cached one, and the lists shown are told (``changes()``). A user that cannot be read
    /// now is left as it was.
    public func received(userID: String) async {
        guard let user = try? await api.user(id: userID) else { return }
        changed[user.id] = user
        if people[user.id] != nil { people[user.id] = user }
        for (sorting, byPage) in pages {
            for (page, users) in byPage {
                if let index = users.firstIndex(where: { $0.id == user.id }) { pages[sorting]?[page]?[index] = user }
            }
        }
        for (sorting, users) in everyone {
            if let index = users.firstIndex(where: { $0.id == user.id }) { everyone[sorting]?[index] = user }
        }
        revision += 1
        revisions.publish(revision)
    }

    /// A signal each time users changed (read them with ``changedUsers()``); signals may merge.
    public nonisolated func changes() -> AsyncStream<Int> { revisions.subscribe() }

    /// The users read again after live events, by id.
    public func changedUsers() -> [String: User] { changed }

    /// The users whose name contains `name` (case and diacritics ignored by `fakenft serve`), in
    /// `sorting`'s order, at most one bulk page. A server without the `name=` extension answers
    /// its first page unfiltered: the caller checks the names.
    public func search(name: String, sorting: Sorting) async throws -> [User] {
        try await api.users(page: 0, size: Self.bulkPageSize, sortBy: sorting.sortBy, name: name)
    }

    /// Users asked for per request when reading them all.
    public static let bulkPageSize = 1_000
    /// The most users read at once (100 bulk pages).
    public static let maxUsers = 100_000
    private var everyone: [Sorting: [User]] = [:]

    /// Every user in `sorting`'s order, read in bulk pages until one comes back short; cached.
    public func all(sorting: Sorting) async throws -> [User] {
        if let cached = everyone[sorting] { return cached }
        var users: [User] = []
        var page = 0
        while users.count < Self.maxUsers {
            let fresh = try await api.users(page: page, size: Self.bulkPageSize, sortBy: sorting.sortBy)
            users += fresh
            guard fresh.count == Self.bulkPageSize else { break }
            page += 1
        }
        everyone[sorting] = users
        return users
    }
}
