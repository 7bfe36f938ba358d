import FakeNFTCore

/// Follows the server's live updates while the tabs are open: what another client of the same
/// profile changes (likes, cart, fields, purchases) goes through the services, so every screen
/// shows it. Each connection starts with the whole profile and order, so a reconnection reads
/// everything again; it reconnects with backoff (0.5 s doubling to 30 s); a server without
/// events (404) is left alone, as is one that refuses the token. `reachable` hears whether the
/// server could be reached: true with each connection's first event, false when one fails.
enum LiveUpdates {
    static let firstDelay: Duration = .milliseconds(500)
    static let longestDelay: Duration = .seconds(30)

    static func follow(_ services: Services, reachable: @MainActor (Bool) -> Void = { _ in }) async {
        var delay = firstDelay
        while !Task.isCancelled {
            var heard = false
            do {
                try await services.events.listen { event in
                    if !heard { await reachable(true) }
                    heard = true
                    await apply(event, services)
                }
            } catch APIError.notFound {
                return
            } catch APIError.unauthorized {
                return
            } catch APIError.offline, APIError.timeout {
                await reachable(false)
            } catch {}
            if heard { delay = firstDelay }
            try? await services.clock.sleep(for: delay)
            delay = min(delay * 2, longestDelay)
        }
    }

    static func apply(_ event: ServerEvents.Event, _ services: Services) async {
        switch event {
        case .profile(let profile): await services.profile.received(profile)
        case .order(let order): await services.order.received(order)
        case .resync:
            _ = try? await services.profile.load()
            _ = try? await services.order.load()
        case .user(let id, _): await services.users.received(userID: id)
        }
    }
}
