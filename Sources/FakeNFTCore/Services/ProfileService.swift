import Foundation
/// The one owner of the profile: loading, likes (optimistic, serialized) and edits.
public actor ProfileService {
    private let api: APIClient
    /// The profile as loaded from the server (nil until it is).
    private var profile: Profile?
    /// The profile the last run saw, shown until the server answers (likes made meanwhile are kept).
    private var remembered: Profile?
    /// Where likes made while the server cannot be reached are written down.
    private let keptLikes: KeptChanges?
    /// The profile's version on the server (its ETag), sent with likes as If-Match.
    private var version: String?
    private let broadcast = Broadcast<Profile>()
    /// A live update that came while this client's likes were on their way: taken once they
    /// are answered, if it is still newer.
    private var held: Versioned<Profile>?
    private lazy var likes = OptimisticList(
        [], send: { [weak self] likes in try await self?.sendLikes(likes) ?? likes },
        reload: { [weak self] in try await self?.reloadLikes() ?? [] },
        changed: { [weak self] likes in await self?.showLikes(likes) },
        kept: { [weak self] delta in await self?.keep(delta) })

    /// - Parameter kept: the file likes made offline are kept in until the server has them.
    public init(api: APIClient, kept: KeptChanges? = nil) {
        self.api = api
        keptLikes = kept
    }

    /// The profile as it changes, starting with the latest.
    public nonisolated func updates() -> AsyncStream<Profile> { broadcast.subscribe() }
    public nonisolated var current: Profile? { broadcast.latest }

    /// Shows the profile the last run saw (``LastSeen``) until it is loaded. Nothing is sent on
    /// its basis: a like loads the profile first, and one made while it cannot be loaded is kept.
    public func remember(_ saved: Profile) async {
        guard profile == nil else { return }
        remembered = saved
        await likes.reset(saved.likes)
        broadcast.publish(saved)
    }

    /// Takes back the likes an earlier run kept for the server (shown at once).
    public func restoreKept() async {
        if let keptLikes { await likes.restore(keptLikes.load()) }
    }

    /// Sends the likes kept while the server could not be reached.
    public func sendKept() async throws {
        guard await likes.waiting > 0 else { return }
        if profile == nil { try await load() }
        try await likes.sendKept()
    }

    /// How many likes and unlikes wait for the server.
    public var waiting: Int { get async { await likes.waiting } }

    /// Fetches the profile from the server.
    @discardableResult
    public func load() async throws -> Profile {
        let fresh = try await api.versionedProfile()
        // A load answered after a newer change (its version is older) must not undo that change.
        if let profile, Self.isOlder(fresh.version, than: version) { return profile }
        return await take(fresh)
    }

    /// Takes `fresh` as what the server holds, shown with the likes kept for it on top.
    @discardableResult
    private func take(_ fresh: Versioned<Profile>) async -> Profile {
        version = fresh.version
        await likes.reset(fresh.value.likes)
        var shown = fresh.value
        shown.likes = await likes.wanted
        publish(shown)
        return shown
    }

    /// The profile as another client changed it (a live update): taken unless it is older than
    /// what this client has.
    public func received(_ fresh: Versioned<Profile>) async {
        guard profile == nil || (!Self.isOlder(fresh.version, than: version) && fresh.version != version) else {
            return
        }
        if await likes.isSending { return held = fresh }
        await take(fresh)
    }

    /// Whether version tag `a` (`"7"`) is older than `b`; false when either is not a number.
    static func isOlder(_ a: String?, than b: String?) -> Bool {
        func number(_ tag: String?) -> Int? {
            tag.flatMap { Int($0.trimmingCharacters(in: CharacterSet(charactersIn: "\""))) }
        }
        guard let a = number(a), let b = number(b) else { return false }
        return a < b
    }

    /// The profile as last loaded, or loaded now when it never was.
    /// While the server cannot be reached, the profile the last run saw (``LastSeen``).
    public func currentOrLoaded() async throws -> Profile {
        if let profile { return profile }
        do { return try await load() } catch let error as APIError where error.isUnreachable {
            guard let remembered else { throw error }
            return remembered
        }
    }

    /// Likes or unlikes an NFT. Shows at once; rolls back and throws if the server refuses; when
    /// it cannot be reached, keeps the change and throws ``ChangeKept``.
    public func toggleLike(_ nftID: String) async throws {
        if profile == nil {
            do { try await load() } catch let error as APIError where error.isUnreachable && remembered != nil {
                // kept on top of what the last run saw: the list sends nothing before a load
            }
        }
        do { try await likes.toggle(nftID) } catch {
            await takeHeld()
            throw error
        }
        await takeHeld()
    }

    /// Takes a held live update once no like of this client's is on its way.
    private func takeHeld() async {
        guard let fresh = held, await !likes.isSending else { return }
        held = nil
        await received(fresh)
    }

    /// Sends only the fields set in `update`; the profile is updated with the server's answer.
    @discardableResult
    public func update(_ update: ProfileUpdate) async throws -> Profile {
        guard !update.isEmpty else {
            if let profile { return profile }
            return try await load()
        }
        let fresh = try await api.updateVersionedProfile(update)
        version = fresh.version
        if update.likes != nil { await likes.reset(fresh.value.likes) }
        var shown = fresh.value
        shown.likes = await likes.wanted  // likes on their way or kept for the server stay shown
        publish(shown)
        return shown
    }

    private func sendLikes(_ list: [String]) async throws -> [String] {
        guard profile != nil else { throw APIError.versionConflict }  // never loaded: load, rebase, send
        let fresh = try await api.updateLikes(list, ifVersion: version)
        version = fresh.version
        return fresh.value.likes
    }

    /// After a conflict: the server's profile now, shown with this client's pending changes on top.
    private func reloadLikes() async throws -> [String] {
        let fresh = try await api.versionedProfile()
        version = fresh.version
        publish(fresh.value)
        return fresh.value.likes
    }

    private func showLikes(_ list: [String]) {
        if var updated = profile {
            updated.likes = list
            publish(updated)
        } else if var shown = remembered {
            shown.likes = list
            broadcast.publish(shown)
        }
    }

    private func keep(_ delta: IDDelta) {
        try? keptLikes?.save(delta)
    }

    private func publish(_ value: Profile) {
        profile = value
        broadcast.publish(value)
    }
}
