import Foundation
import Glibc
import Logging
import ShopCommands
import Synchronization

/// What the SSH front does for a visitor: lets the session in (its limits), signs a key in to its
/// account (made on the key's first visit, as fast as ``SSHNewVisitors`` allows; a guest, who came
/// with a password, gets no account and counts in the same budget) and starts the app for it; and
/// when the session ends, signs it out (a guest's folder is removed), counts and logs it, and lets
/// the next one in. When the server stops, each running app is asked
/// to end (``closeAll()``), so that it gives its visitor's terminal back first.
final class SSHShop: Sendable {
    let configuration: SSHConfiguration
    /// The limits as they are now (they may change while the server runs).
    let settings: LiveSettings
    let admission: SSHAdmission
    let metrics: SSHMetrics
    /// Commands (`ssh host cart`), answered without an app.
    private let commands: SSHCommands
    private let newVisitors: SSHNewVisitors
    private let guests: SSHGuestAccounts
    /// The running sessions, in the data folder (outliving a crash).
    private let ledger: SSHSessionLedger
    private let store: Store
    /// The shop's host key fingerprint (``SSHSessionVariables/shop``).
    private let shop: String
    private let visitorsFolder: URL
    private let api: APIAddress
    private let passes: SSHVisitorPasses
    let logger: Logger
    /// What the front's own work (``closeEndedSessions(stopping:within:)``) takes in turn:
    /// sessions whose apps have exited, places given back, and the stop.
    private let events: AsyncStream<Event>
    private let event: AsyncStream<Event>.Continuation
    /// What ends each running session's app when the server stops, by the app's process id.
    private let running = Mutex<[pid_t: @Sendable () -> Void]>([:])
    /// Set once the server stops: a session that starts now is ended at once.
    private let stopping = Atomic(false)

    /// A visitor: the key they signed in with (none for a guest) and the SSH user name they gave.
    struct Visitor: Sendable {
        /// The key's fingerprint; nil for a guest (who signed in with a password: any is taken).
        var fingerprint: String?
        var user: String
        var address: String
        /// How it reaches the shop (``SSHSessionVariables/door``).
        var door: String

        /// What the limits of sessions count it under: its key, or its address for a guest.
        var limitKey: String { fingerprint ?? "guest@" + address }
        /// Its name in the log.
        var name: String { fingerprint ?? "a guest" }
    }

    /// A session's sign-in: its token, its secret (``SSHVisitorPasses``) and a guest's account.
    struct SignedIn: Sendable {
        let tokenHash: String
        let pass: String
        /// A guest's: its account is lent for the session, its folder removed at the end.
        var isGuest: Bool
    }

    /// A running session: its app, its sign-in, its place among the limits, and what the log
    /// says of it.
    struct Session: Sendable {
        let app: AppOnTerminal
        let signedIn: SignedIn
        /// The app's folder: a key's own, kept; a guest's, removed when the session ends.
        let home: String
        let ticket: SSHAdmission.Ticket
        let visitor: Visitor
        let request: SSHSessionRequest
        let started: ContinuousClock.Instant
    }

    /// A session whose app has exited, with its status and how it ended.
    private struct Ended: Sendable {
        let session: Session
        let status: Int32
        let ending: SSHMetrics.Ending
    }

    /// What ``closeEndedSessions(stopping:within:)`` is told.
    private enum Event: Sendable {
        /// A session to close.
        case ended(Ended)
        /// A session that never started gave its place back.
        case released
        /// The listener has closed: once no session runs, the front's work is done.
        case stopped
    }

    /// A session that cannot start now, in the words the visitor reads.
    struct Refusal: Error {
        let message: String
    }

    init(
        configuration: SSHConfiguration, settings: LiveSettings, store: Store, shop: String, dataDirectory: URL,
        api: APIAddress, passes: SSHVisitorPasses, router: RouterCall, metrics: ServerMetrics, logger: Logger
    ) {
        self.shop = shop
        self.configuration = configuration
        self.settings = settings
        admission = SSHAdmission { settings.ssh }
        self.metrics = SSHMetrics(metrics)
        commands = SSHCommands(
            router: router, api: api, settings: settings, metrics: SSHMetrics(metrics), logger: logger)
        newVisitors = SSHNewVisitors { settings.ssh.newKeysPerHour }
        self.store = store
        visitorsFolder = dataDirectory.appendingPathComponent("ssh-visitors")
        ledger = SSHSessionLedger(folder: visitorsFolder)
        guests = SSHGuestAccounts(store: store)
        self.api = api
        self.passes = passes
        self.logger = logger
        (events, event) = AsyncStream.makeStream(of: Event.self)
    }

    /// Lets `visitor`'s session in and starts the app for it, signed in to the key's account (a
    /// guest's with none), on the screen `opening` names (`ssh -t host nft 42`) when given.
    func open(for visitor: Visitor, _ request: SSHSessionRequest, opening: ScreenLink? = nil) async throws -> Session {
        guard let size = request.size else { throw refusal(.noTerminal, SSHFront.needsTerminal) }
        guard let server = api.url, !stopping.load(ordering: .relaxed) else {
            throw refusal(.unavailable, "The shop is closed for now: try again in a moment.")
        }
        let ticket: SSHAdmission.Ticket
        switch admission.admit(key: visitor.limitKey, address: visitor.address) {
        case .success(let admitted): ticket = admitted
        case .failure(let refused):
            let reason: SSHMetrics.Refusal =
                switch refused {
                case .full: .full
                case .key: .key
                case .address: .address
                }
            throw refusal(reason, refused.message)
        }
        // a guest's folder is removed whatever fails after it is made (a key's own is kept)
        var home: String?, guestHome: String?
        let token = Tokens.make()
        let pass = passes.open(for: .init(fingerprint: visitor.fingerprint, address: visitor.address))
        do {
            var signedInToKey = false
            if let fingerprint = visitor.fingerprint,
                try await signIn(visitor, key: fingerprint, tokenHash: Tokens.hash(token))
            {
                signedInToKey = true
                home = try folder(of: fingerprint)
                await restoreState(ofKey: fingerprint, into: home ?? "")
            } else {
                if visitor.fingerprint == nil { try admitNew(visitor, wantsAccount: false) }
                guestHome = try guestFolder()
                home = guestHome
                try await guests.borrow(tokenHash: Tokens.hash(token))
                metrics.guest()
            }
            let signedIn = SignedIn(tokenHash: Tokens.hash(token), pass: pass, isGuest: guestHome != nil)
            ledger.record(tokenHash: signedIn.tokenHash, guestFolder: guestHome)
            let identity = SSHSessionRequest.Identity(
                token: token, pass: pass, keyFingerprint: signedInToKey ? visitor.fingerprint : nil,
                keyWaitsForAccount: visitor.fingerprint != nil && !signedInToKey)
            let environment = request.environment(
                home: home ?? "", server: server, shop: shop, door: visitor.door, identity: identity)
            let app = try AppOnTerminal(
                arguments: [configuration.appExecutable, "app"] + (opening.map { ["--open", $0.text] } ?? []),
                environment: environment,
                secrets: SSHSessionRequest.secrets(of: identity), size: size)
            logger.info("SSH session of \(visitor.name) from \(visitor.address): app \(app.pid)")
            metrics.started(open: admission.running)
            return Session(
                app: app, signedIn: signedIn, home: home ?? "", ticket: ticket, visitor: visitor, request: request,
                started: .now)
        } catch {
            // a sign-in made is ended (a guest's account free again); the ledger keeps one that is not
            if (try? await store.endSession(tokenHash: Tokens.hash(token))) != nil {
                ledger.forget(tokenHash: Tokens.hash(token))
            }
            passes.close(pass)
            if let guestHome { try? FileManager.default.removeItem(atPath: guestHome) }
            admission.release(ticket)
            event.yield(.released)
            throw error
        }
    }

    /// Runs the command `line` for `visitor` (``SSHCommands``); `terminal` says whether its output
    /// goes to one.
    func runCommand(_ line: String, for visitor: Visitor, terminal: Bool) async -> CommandRunner.Outcome {
        await commands.run(line, for: visitor, terminal: terminal) { visitor in try await self.account(of: visitor) }
    }

    /// The account of `visitor`'s key, made now when it has none (as a session would make it, and
    /// as fast as ``SSHNewVisitors`` allows); nil for a guest, or a new key past this hour's
    /// accounts. A refusal of a new visitor is thrown.
    private func account(of visitor: Visitor) async throws -> String? {
        guard let fingerprint = visitor.fingerprint else { return nil }
        if let owner = try await store.owner(ofKey: fingerprint) { return owner }
        let tokenHash = Tokens.hash(Tokens.make())
        guard try await signIn(visitor, key: fingerprint, tokenHash: tokenHash) else { return nil }
        _ = try await store.endSession(tokenHash: tokenHash)  // a command keeps no sign-in
        return try await store.owner(ofKey: fingerprint)
    }

    /// Ends what a server on this data folder that is gone left running (its sessions' sign-ins,
    /// its guests' folders and accounts): a crash ends no session for good.
    func recover() async {
        let store = store
        let ended = await ledger.recover { tokenHash in _ = try await store.endSession(tokenHash: tokenHash) }
        if ended > 0 { logger.info("ended \(ended) SSH session sign-ins a server that is gone left") }
    }

    /// A refusal of `reason`, counted, saying `message`.
    private func refusal(_ reason: SSHMetrics.Refusal, _ message: String) -> Refusal {
        metrics.refused(reason)
        return Refusal(message: message)
    }

    /// `session` is running: `end` ends its app when the server stops (at once, when it is
    /// stopping already).
    func running(_ session: Session, endedBy end: @escaping @Sendable () -> Void) {
        running.withLock { $0[session.app.pid] = end }
        if stopping.load(ordering: .relaxed) { end() }
    }

    /// The server stops: each running session's app is asked to end, and no session starts.
    func closeAll() {
        stopping.store(true, ordering: .relaxed)
        for end in running.withLock({ Array($0.values) }) { end() }
    }

    /// The session has ended (its app has exited with `status`): it is closed by
    /// ``closeEndedSessions(stopping:within:)``.
    func ended(_ session: Session, status: Int32, _ ending: SSHMetrics.Ending) {
        running.withLock { $0[session.app.pid] = nil }
        event.yield(.ended(Ended(session: session, status: status, ending: ending)))
    }

    /// Closes each ended session (``close(_:)``) in turn until the front stops: once `stopping`
    /// has returned and no session holds a place, or `bound` after it, it returns. The SSH
    /// front's own work.
    func closeEndedSessions(stopping: @escaping @Sendable () async -> Void, within bound: Duration) async {
        await withDiscardingTaskGroup { group in
            group.addTask { [event] in
                await stopping()
                event.yield(.stopped)
                try? await Task.sleep(for: bound)
                event.finish()  // sessions still running past the bound are left to the connections' close
            }
            var stopped = false
            for await next in events {
                switch next {
                case .ended(let ended): await close(ended)
                case .released: break
                case .stopped: stopped = true
                }
                if stopped && admission.running == 0 { break }
            }
            group.cancelAll()
        }
    }

    /// The session has ended (its app has exited): its sign-in ends, its place is free, and one
    /// line says who it was, on what terminal, for how long and how it ended.
    private func close(_ ended: Ended) async {
        let session = ended.session
        session.app.close()
        passes.close(session.signedIn.pass)
        if session.signedIn.isGuest { try? FileManager.default.removeItem(atPath: session.home) }
        admission.release(session.ticket)
        let duration = ContinuousClock.now - session.started
        metrics.ended(ended.ending, after: duration, open: admission.running)
        let size = session.request.size.map { "\($0.columns)x\($0.rows)" } ?? "none"
        logger.info(
            "SSH session ended",
            metadata: [
                "key": "\(session.visitor.fingerprint ?? "guest")", "address": "\(session.visitor.address)",
                "term": "\(session.request.terminal ?? "none")", "size": "\(size)",
                "seconds": "\(duration.components.seconds)", "status": "\(ended.status)",
                "ending": "\(ended.ending.rawValue)",
            ])
        do {
            _ = try await store.endSession(tokenHash: session.signedIn.tokenHash)
            ledger.forget(tokenHash: session.signedIn.tokenHash)
        } catch {  // the ledger keeps it: the next start ends it
            logger.warning("an SSH session's sign-in could not be ended: \(error)")
        }
        guard !session.signedIn.isGuest, let fingerprint = session.visitor.fingerprint else { return }
        guard let state = SSHVisitorState.read(from: session.home) else { return }
        do { try await store.keep(visitorState: state, ofKey: fingerprint) } catch {
            logger.warning("what an SSH visitor's app kept could not be stored: \(error)")
        }
    }

    /// Writes into the key's folder what its app kept at the end of its last visit, on any
    /// server of the database (``SSHVisitorState``); the folder as it is when there is nothing
    /// or the database cannot say.
    private func restoreState(ofKey fingerprint: String, into home: String) async {
        do {
            if let state = try await store.visitorState(ofKey: fingerprint) { SSHVisitorState.write(state, into: home) }
        } catch {
            logger.warning("what an SSH visitor's app kept could not be read: \(error)")
        }
    }

    /// Counts a new visitor (``SSHNewVisitors``); throws the refusal when they cannot come in
    /// now, and tells whether a new key comes in as a guest for this visit (false).
    @discardableResult
    private func admitNew(_ visitor: Visitor, wantsAccount: Bool) throws -> Bool {
        switch newVisitors.admit(address: visitor.address, wantsAccount: wantsAccount) {
        case .welcome: return true
        case .guestForNow:
            metrics.refused(.accountsForNow)
            return false
        case .refused(let refused): throw refusal(.newKeys, refused.message)
        }
    }

    /// Signs the key in to its account with the token of `tokenHash`; a key seen for the first
    /// time gets an account of its own, named after the SSH user name, when ``SSHNewVisitors``
    /// allows (false: it comes in as a guest for this visit). Its password is no bcrypt hash and
    /// the account is a key's: nothing can sign in to it but the key.
    private func signIn(_ visitor: Visitor, key fingerprint: String, tokenHash: String) async throws -> Bool {
        if let owner = try await store.owner(ofKey: fingerprint) {
            try await store.startSession(userID: owner, tokenHash: tokenHash)
            return true
        }
        guard try admitNew(visitor, wantsAccount: true) else { return false }
        for attempt in 0..<Self.addressAttempts {
            do {
                _ = try await store.register(
                    name: store.unusedUserName(SSHVisitorName.from(user: visitor.user)),
                    email: Self.address(of: fingerprint, attempt: attempt), passwordHash: Self.noPassword,
                    tokenHash: tokenHash, kind: .key, key: fingerprint, listed: false)
                metrics.newKey()
                return true
            } catch StoreError.emailTaken {
                // the same new key in two sessions at once: the other made it
                if let owner = try await store.owner(ofKey: fingerprint) {
                    try await store.startSession(userID: owner, tokenHash: tokenHash)
                    return true
                }
                // else another account holds the address (signed up in a look-alike spelling before
                // addresses were folded): the next one, so that no key is locked out by it
            }
        }
        throw StoreError.emailTaken
    }

    /// How many addresses a new key's account tries (``address(of:attempt:)``).
    static let addressAttempts = 4

    /// A key account's password hash: not a bcrypt hash, so no password matches it.
    static let noPassword = "!key-only"

    /// The e-mail address of a key's account: made of the key (its SHA-256 in hex, as a token's is
    /// kept), so that one key makes one account; a later `attempt` when another account holds it.
    static func address(of fingerprint: String, attempt: Int = 0) -> String {
        "key-\(Tokens.hash(fingerprint).prefix(24))\(attempt == 0 ? "" : "-\(attempt)")@ssh.invalid"
    }

    /// A guest's folder for one session (HOME and the XDG folders of its app), removed when it ends.
    private func guestFolder() throws -> String {
        let folder = visitorsFolder.appendingPathComponent("guests").appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder.path
    }

    /// The key's own folder (HOME and the XDG folders of its app: its saved copy, its onboarding).
    private func folder(of fingerprint: String) throws -> String {
        let folder = visitorsFolder.appendingPathComponent(String(Tokens.hash(fingerprint).prefix(32)))
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder.path
    }
}

/// Where the apps of SSH sessions reach the API: known once the HTTP listener listens.
final class APIAddress: Sendable {
    private let value = Mutex<String?>(nil)

    var url: String? { value.withLock { $0 } }
    /// Its `host:port`.
    var authority: String? { url.map { String($0.dropFirst("http://".count)) } }

    /// The API listens on `host:port`: sessions reach it over loopback when it listens on every
    /// address or on loopback, else at that address.
    func listening(host: String, port: Int) {
        let reachable = ["0.0.0.0", "::", "", "localhost"].contains(host) ? "127.0.0.1" : host
        let bracketed = reachable.contains(":") ? "[\(reachable)]" : reachable
        value.withLock { $0 = "http://\(bracketed):\(port)" }
    }
}
