import FakeNFTCore
import Localization
import Observation
import TerminalUI

/// This window's actions on the likes and the cart (``OutboxAction``), newest last, each with
/// where it stands against the server. What every screen shows is the server's lists with the
/// pending actions applied on top, so a live update or a reload is a new base they are rebased
/// onto. Each list sends one request at a time with all its pending actions (another client's
/// change in between is a conflict: the list is read again and sent again); a server that cannot
/// be reached keeps them, written down (``KeptChanges``), until it answers; a refusal takes back
/// the refused action alone and says why. `u` takes back the newest whole action: one not sent
/// yet is dropped, one sent is reversed by an action of its own.
@MainActor @Observable
final class Outbox {
    /// How the outbox reaches the server.
    struct Server: Sendable {
        /// Sends a whole list made on the server's list at a version; answers the list it now holds.
        var send: @Sendable (OutboxAction.List, Versioned<[String]>) async throws -> Versioned<[String]>
        /// The list the server holds now (after a conflict).
        var reload: @Sendable (OutboxAction.List) async throws -> Versioned<[String]>
    }

    /// An action in the log, by a number of its own.
    struct Entry {
        let number: Int
        var action: OutboxAction
    }

    /// The likes shown, in the profile's order.
    private(set) var likes: [String] = []
    /// ``likes``, to look up.
    private(set) var liked: Set<String> = []
    /// The cart shown; nil until the server's (or the saved copy's) is known, or a change is made.
    private(set) var cart: [String]?
    /// The actions pending, and the last ``undoSteps`` the server has.
    private(set) var log: [Entry] = []

    /// How many of the user's actions `u` can take back once the server has them.
    static let undoSteps = 20
    /// Conflicts in a row after which a list's actions are refused.
    static let maxConflicts = 20

    @ObservationIgnored private let server: Server
    @ObservationIgnored private let file: KeptChanges?
    @ObservationIgnored private let effects: Effects
    /// What the pause after a conflict waits by.
    @ObservationIgnored private let clock: AppClock
    /// Hears that the server could not be reached, and why.
    @ObservationIgnored var unreachable: @MainActor (APIError) -> Void = { _ in }
    /// The lists as the server last said, with their versions.
    @ObservationIgnored private var held: [OutboxAction.List: Versioned<[String]>] = [:]
    /// Each list's sending, while it runs.
    @ObservationIgnored private var sending: [OutboxAction.List: Task<Void, Never>] = [:]
    /// True while the pending actions are written down (from the first kept until none pends).
    @ObservationIgnored private var writingDown = false
    @ObservationIgnored private var nextNumber = 0
    /// Why the server could not be reached, the last time it could not.
    @ObservationIgnored private var lastUnreachable: APIError?
    @ObservationIgnored private let carts = Broadcast<[String]>()

    init(server: Server, file: KeptChanges?, effects: Effects, clock: AppClock) {
        self.server = server
        self.file = file
        self.effects = effects
        self.clock = clock
    }

    /// The cart shown as it changes, starting with the latest.
    func cartUpdates() -> AsyncStream<[String]> { carts.subscribe() }

    /// How many changes wait for the server to be reachable.
    var waiting: Int { log.reduce(0) { $0 + ($1.action.state == .kept ? $1.action.changes.count : 0) } }

    /// Takes back what an earlier run (or a window that ended) kept for the server: shown now,
    /// sent by ``sendKept()``.
    func restore() {
        guard let kept = file?.load(), !kept.isEmpty else { return }
        writingDown = true
        for action in kept { append(action) }
        OutboxAction.List.allCases.forEach(reshow)
    }

    /// Takes `fresh` as what the server holds (a load, a live update, an answer), unless it is
    /// older than what was taken: the pending actions are shown on top of it.
    func take(_ list: OutboxAction.List, _ fresh: Versioned<[String]>) {
        if let known = held[list], fresh.isOlder(than: known.version) { return }
        held[list] = fresh
        reshow(list)
    }

    /// Shows `action` and sends it (after the request on its way, if one is); while the list's
    /// earlier actions wait for the server to be reachable, it waits with them.
    func record(_ action: OutboxAction) {
        var action = action
        action.state = .shown
        let keeping = isKeeping(action.list)
        if keeping { action.state = .kept }
        append(action)
        changed(action.list)
        if !keeping { send(action.list) }
    }

    /// Takes back the newest of the user's actions; nil when there is none. Not sent yet: it is
    /// dropped; sent: an action that reverses it is sent.
    func undo() -> OutboxAction? {
        guard let index = log.lastIndex(where: { !$0.action.isUndoing }) else { return nil }
        let action = log.remove(at: index).action
        switch action.state {
        case .shown, .kept, .refused:
            changed(action.list)
        case .sending, .confirmed:
            record(OutboxAction(list: action.list, changes: action.changes.reversed().map(\.reversed), isUndoing: true))
        }
        return action
    }

    /// Sends what was kept while the server could not be reached.
    func sendKept() {
        for list in OutboxAction.List.allCases where isKeeping(list) { send(list) }
    }

    /// Sends the cart's pending actions and waits for the server to have them (a payment pays for
    /// the cart shown); throws why it could not be reached when they are kept.
    func sendCart() async throws {
        guard log.contains(where: { $0.action.list == .cart && $0.action.state.isPending }) else { return }
        send(.cart)
        await sending[.cart]?.value
        if isKeeping(.cart) { throw lastUnreachable ?? APIError.offline("") }
    }

    /// Whether actions of `list` wait for the server to be reachable.
    private func isKeeping(_ list: OutboxAction.List) -> Bool {
        log.contains { $0.action.list == list && $0.action.state == .kept }
    }

    /// Waits for the requests on their way (at quit, so the last change is not lost).
    func settle() async {
        for task in Array(sending.values) { await task.value }
    }

    private func append(_ action: OutboxAction) {
        log.append(Entry(number: nextNumber, action: action))
        nextNumber += 1
    }

    /// Starts sending `list`'s pending actions unless a sending of it runs (it takes them).
    private func send(_ list: OutboxAction.List) {
        guard sending[list] == nil else { return }
        sending[list] = Task { await self.sendPending(list) }
    }

    private func sendPending(_ list: OutboxAction.List) async {
        var conflicts = 0
        while true {
            let batch = log.filter { $0.action.list == list && ($0.action.state == .shown || $0.action.state == .kept) }
            guard !batch.isEmpty else { break }
            let numbers = Set(batch.map(\.number))
            let base = held[list] ?? Versioned(value: [], version: nil)
            set(numbers, .sending)
            do {
                take(list, try await server.send(list, base.map { OutboxAction.applying(batch.map(\.action), to: $0) }))
                set(numbers, .confirmed)
                conflicts = 0
            } catch APIError.versionConflict where conflicts < Self.maxConflicts {
                conflicts += 1
                set(numbers, .shown)
                // A random pause, growing with each conflict, so two clients in step fall out of it.
                try? await clock.sleep(for: .milliseconds(Int.random(in: 0...min(200, 2 << min(conflicts, 7)))))
                do { take(list, try await server.reload(list)) } catch let error as APIError where error.isUnreachable {
                    return keep(list, error)
                } catch {
                    refuse(numbers, error)
                }
            } catch let error as APIError where error.isUnreachable {
                return keep(list, error)
            } catch {
                if numbers.count == 1 {
                    refuse(numbers, error)
                } else if let unreachable = await sendEachAlone(batch.map(\.number)) {
                    return keep(list, unreachable)
                }
            }
            changed(list)
        }
        sending[list] = nil
        changed(list)
    }

    /// After a refusal of several actions at once: each is sent alone, so those the server takes
    /// are kept and those it refuses are named, instead of all of them taken back. Answers why
    /// the server could not be reached, when it stopped answering meanwhile.
    private func sendEachAlone(_ numbers: [Int]) async -> APIError? {
        var refused: [Int: any Error] = [:]
        for number in numbers {
            guard let action = log.first(where: { $0.number == number })?.action else { continue }
            set([number], .sending)
            do {
                take(action.list, try await sendAlone(action))
                set([number], .confirmed)
            } catch let error as APIError where error.isUnreachable {
                set([number], .shown)
                return error
            } catch {
                refused[number] = error
            }
        }
        for (number, error) in refused { refuse([number], error) }
        return nil
    }

    /// Sends `action` alone on top of what the server holds, reading it again once after a conflict.
    private func sendAlone(_ action: OutboxAction) async throws -> Versioned<[String]> {
        func made() -> Versioned<[String]> {
            (held[action.list] ?? Versioned(value: [], version: nil)).map { OutboxAction.applying([action], to: $0) }
        }
        do {
            return try await server.send(action.list, made())
        } catch APIError.versionConflict {
            take(action.list, try await server.reload(action.list))
            return try await server.send(action.list, made())
        }
    }

    /// The server could not be reached: the list's pending actions wait for it, written down.
    private func keep(_ list: OutboxAction.List, _ reason: APIError) {
        for index in log.indices where log[index].action.list == list && log[index].action.state.isPending {
            log[index].action.state = .kept
        }
        lastUnreachable = reason
        writingDown = true
        sending[list] = nil
        changed(list)
        unreachable(reason)
    }

    /// The server refused these actions: taken back (no longer shown), and said with the reason.
    private func refuse(_ numbers: Set<Int>, _ error: any Error) {
        let reason = APIError(thrown: error).message
        let refused = log.filter { numbers.contains($0.number) }.map(\.action)
        set(numbers, .refused(reason))
        guard let list = refused.first?.list else { return }
        let names = refused.flatMap(\.changes).map(\.name).joined(separator: ", ")
        effects.show(Toast(tr(list == .likes ? .likeFailed : .cartFailed, names, reason), kind: .error))
    }

    private func set(_ numbers: Set<Int>, _ state: OutboxAction.State) {
        for index in log.indices where numbers.contains(log[index].number) { log[index].action.state = state }
    }

    /// `list`'s actions changed: shown, written down while they are, the log trimmed.
    private func changed(_ list: OutboxAction.List) {
        reshow(list)
        trim()
        guard writingDown, let file else { return }
        let pending = log.map(\.action).filter(\.state.isPending)
        try? file.save(pending)
        if pending.isEmpty { writingDown = false }
    }

    /// Leaves the pending actions and the last ``undoSteps`` the server has.
    private func trim() {
        log.removeAll { entry in
            switch entry.action.state {
            case .refused: true
            case .confirmed: entry.action.isUndoing
            case .shown, .sending, .kept: false
            }
        }
        var done = log.count(where: { $0.action.state == .confirmed })
        guard done > Self.undoSteps else { return }
        log.removeAll { entry in
            guard entry.action.state == .confirmed, done > Self.undoSteps else { return false }
            done -= 1
            return true
        }
    }

    /// The list shown: the server's, with the pending actions on top.
    private func reshow(_ list: OutboxAction.List) {
        let pending = log.lazy.map(\.action).filter { $0.list == list && $0.state.isPending }
        let shown = OutboxAction.applying(pending, to: held[list]?.value ?? [])
        switch list {
        case .likes:
            guard shown != likes else { return }
            likes = shown
            liked = Set(shown)
        case .cart:
            guard held[.cart] != nil || !pending.isEmpty, shown != cart else { return }
            cart = shown
            carts.publish(shown)
        }
    }
}

extension Outbox.Server {
    /// Through the profile service (likes) and the order service (the cart).
    init(_ services: Services) {
        send = { list, ids in
            switch list {
            case .likes: try await services.profile.sendLikes(ids.value, ifVersion: ids.version).map(\.likes)
            case .cart: try await services.order.sendNFTs(ids.value, ifVersion: ids.version).map(\.nfts)
            }
        }
        reload = { list in
            switch list {
            case .likes: try await services.profile.load().map(\.likes)
            case .cart: try await services.order.load().map(\.nfts)
            }
        }
    }
}
