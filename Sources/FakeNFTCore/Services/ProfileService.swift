import Foundation

/// The one owner of the profile as the server holds it: loading, live updates, the likes sent
/// (by the app's outbox) and edits. What it publishes is the server's, with its version.
public actor ProfileService {
    private let api: APIClient
    /// The profile as loaded from the server (nil until it is).
    private var profile: Profile?
    /// The profile the last run saw, shown until the server answers.
    private var remembered: Profile?
    /// The profile's version on the server (its ETag), sent with likes as If-Match.
    private var version: String?
    private let broadcast = Broadcast<Versioned<Profile>>()

    public init(api: APIClient) { self.api = api }

    /// The profile as it changes, with its version, starting with the latest.
    public nonisolated func updates() -> AsyncStream<Versioned<Profile>> { broadcast.subscribe() }
    public nonisolated var current: Profile? { broadcast.latest?.value }

    /// Shows the profile the last run saw (``LastSeen``) until it is loaded (without a version:
    /// nothing is sent on its basis).
    public func remember(_ saved: Profile) {
        guard profile == nil else { return }
        remembered = saved
        broadcast.publish(Versioned(value: saved, version: nil))
    }

    /// Fetches the profile from the server; answers it with its version.
    @discardableResult
    public func load() async throws -> Versioned<Profile> {
        let fresh = try await api.versionedProfile()
        // A load answered after a newer change (its version is older) must not undo that change.
        if let profile, fresh.isOlder(than: version) { return Versioned(value: profile, version: version) }
        publish(fresh)
        return fresh
    }

    /// The profile as another client changed it (a live update): taken unless it is older than
    /// what this client has.
    public func received(_ fresh: Versioned<Profile>) {
        guard profile == nil || (!fresh.isOlder(than: version) && fresh.version != version) else { return }
        publish(fresh)
    }

    /// The profile as last loaded, or loaded now when it never was.
    /// While the server cannot be reached, the profile the last run saw (``LastSeen``).
    public func currentOrLoaded() async throws -> Profile {
        if let profile { return profile }
        do { return try await load().value } catch let error as APIError where error.isUnreachable {
            guard let remembered else { throw error }
            return remembered
        }
    }

    /// Replaces the likes, only if the profile is still at `version`, the one they were made on
    /// (``APIError/versionConflict`` when it changed, or was never loaded: load it and send again;
    /// nil from a server without versions sends unconditionally).
    public func sendLikes(_ likes: [String], ifVersion base: String?) async throws -> Versioned<Profile> {
        guard profile != nil, base != nil || version == nil else { throw APIError.versionConflict }
        let fresh = try await api.updateLikes(likes, ifVersion: base)
        publish(fresh)
        return fresh
    }

    /// Sends only the fields set in `update`; the profile is updated with the server's answer.
    @discardableResult
    public func update(_ update: ProfileUpdate) async throws -> Profile {
        guard !update.isEmpty else {
            if let profile { return profile }
            return try await load().value
        }
        let fresh = try await api.updateVersionedProfile(update)
        publish(fresh)
        return fresh.value
    }

    private func publish(_ fresh: Versioned<Profile>) {
        profile = fresh.value
        version = fresh.version
        broadcast.publish(fresh)
    }
}
