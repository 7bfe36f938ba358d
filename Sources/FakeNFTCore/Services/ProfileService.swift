/// The one owner of the profile: loading, likes (optimistic, serialized) and edits.
public actor ProfileService {
    private let api: APIClient
    private var profile: Profile?
    private let broadcast = Broadcast<Profile>()
    private lazy var likes = OptimisticList([], send: { [api] likes in try await api.updateProfile(ProfileUpdate(likes: likes)).likes },
                                            changed: { [weak self] likes in await self?.showLikes(likes) })

    public init(api: APIClient) { self.api = api }

    /// The profile as it changes, starting with the latest.
    public nonisolated func updates() -> AsyncStream<Profile> { broadcast.subscribe() }
    public nonisolated var current: Profile? { broadcast.latest }

    /// Fetches the profile from the server.
    @discardableResult
    public func load() async throws -> Profile {
        let fresh = try await api.profile()
        await likes.reset(fresh.likes)
        publish(fresh)
        return fresh
    }

    /// Likes or unlikes an NFT. Shows at once; rolls back and throws if the server refuses.
    public func toggleLike(_ nftID: String) async throws {
        if profile == nil { try await load() }
        try await likes.toggle(nftID)
    }

    /// Sends only the fields set in `update`; the profile is updated with the server's answer.
    @discardableResult
    public func update(_ update: ProfileUpdate) async throws -> Profile {
        guard !update.isEmpty else {
            if let profile { return profile }
            return try await load()
        }
        let fresh = try await api.updateProfile(update)
        if update.likes != nil { await likes.reset(fresh.likes) }
        publish(fresh)
        return fresh
    }

    private func showLikes(_ list: [String]) {
        guard var updated = profile else { return }
        updated.likes = list
        publish(updated)
    }

    private func publish(_ value: Profile) {
        profile = value
        broadcast.publish(value)
    }
}
