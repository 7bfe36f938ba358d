import Foundation
import Glibc
import Logging
import Synchronization

/// What the SSH front does for a visitor signed in with a key: lets the session in (its limits),
/// signs the key in to its account (made on the key's first visit, as fast as
/// ``SSHNewVisitors`` allows) and starts the app for it; and when the session ends, signs it out,
/// counts and logs it, and lets the next one in. When the server stops, each running app is asked
/// to end (``closeAll()``), so that it gives its visitor's terminal back first.
final class SSHShop: Sendable {
    let configuration: SSHConfiguration
    let admission: SSHAdmission
    let metrics: SSHMetrics
    private let newVisitors: SSHNewVisitors
    private let store: Store
    private let visitorsFolder: URL
    private let api: APIAddress
    private let links: SSHLinks
    let logger: Logger
    /// Sessions whose apps have exited, closed one after another by ``closeEndedSessions()``.
    private let endedSessions: AsyncStream<Ended>
    private let endedSession: AsyncStream<Ended>.Continuation
    /// What ends each running session's app when the server stops, by the app's process id.
    private let running = Mutex<[pid_t: @Sendable () -> Void]>([:])
    /// Set once the server stops: a session that starts now is ended at once.
    private let stopping = Atomic(false)

    /// A visitor: the key they signed in with and the SSH user name they gave.
    struct Visitor: Sendable {
        var fingerprint: String
        var user: String
        var address: String
    }

    /// A running session: its app, its sign-in, its place among the limits, and what the log
    /// says of it.
    struct Session: Sendable {
        let app: AppOnTerminal
        let tokenHash: String
        let ticket: SSHAdmission.Ticket
        /// The secret that lets its app move the key to another account (``SSHLinks``).
        let link: String
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

    /// A session that cannot start now, in the words the visitor reads.
    struct Refusal: Error {
        let message: String
    }

    init(
        configuration: SSHConfiguration, store: Store, dataDirectory: URL, api: APIAddress, links: SSHLinks,
        metrics: ServerMetrics, logger: Logger
    ) {
        self.configuration = configuration
        admission = SSHAdmission(
            maxSessions: configuration.maxSessions, maxPerVisitor: configuration.maxSessionsPerVisitor)
        self.metrics = SSHMetrics(metrics)
        newVisitors = SSHNewVisitors(perHour: configuration.newKeysPerHour)
        self.store = store
        visitorsFolder = dataDirectory.appendingPathComponent("ssh-visitors")
        self.api = api
        self.links = links
        self.logger = logger
        (endedSessions, endedSession) = AsyncStream.makeStream(of: Ended.self)
    }

    /// Lets `visitor`'s session in and starts the app for it, signed in to the key's account.
    func open(for visitor: Visitor, _ request: SSHSessionRequest) async throws -> Session {
        guard let size = request.size else { throw refusal(.noTerminal, SSHFront.needsTerminal) }
        guard let server = api.url, !stopping.load(ordering: .relaxed) else {
            throw refusal(.unavailable, "The shop is closed for now: try again in a moment.")
        }
        let ticket: SSHAdmission.Ticket
        switch admission.admit(key: visitor.fingerprint, address: visitor.address) {
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
        do {
            let token = Tokens.make()
            try await signIn(visitor, tokenHash: Tokens.hash(token))
            let home = try folder(of: visitor.fingerprint)
            let link = links.open(for: visitor.fingerprint)
            let environment = request.environment(
                home: home, server: server, token: token, keyFingerprint: visitor.fingerprint, link: link)
            do {
                let app = try AppOnTerminal(
                    arguments: [configuration.appExecutable, "app"], environment: environment, size: size)
                logger.info("SSH session of \(visitor.fingerprint) from \(visitor.address): app \(app.pid)")
                metrics.started(open: admission.running)
                return Session(
                    app: app, tokenHash: Tokens.hash(token), ticket: ticket, link: link, visitor: visitor,
                    request: request, started: .now)
            } catch {
                links.close(link)
                throw error
            }
        } catch {
            admission.release(ticket)
            throw error
        }
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

    /// The session has ended (its app has exited with `status`): it is closed by ``closeEndedSessions()``.
    func ended(_ session: Session, status: Int32, _ ending: SSHMetrics.Ending) {
        running.withLock { $0[session.app.pid] = nil }
        endedSession.yield(Ended(session: session, status: status, ending: ending))
    }

    /// Closes each ended session (``close(_:)``) until the front stops: once none is running,
    /// or after `bound`, the last are closed and it returns. The SSH front's own work.
    func closeEndedSessions(stopping: @escaping @Sendable () async -> Void, within bound: Duration) async {
        await withDiscardingTaskGroup { group in
            group.addTask { [endedSessions] in
                for await ended in endedSessions { await self.close(ended) }
            }
            await stopping()
            let deadline = ContinuousClock.now + bound
            while admission.running > 0, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(20))
            }
            endedSession.finish()
        }
    }

    /// The session has ended (its app has exited): its sign-in ends, its place is free, and one
    /// line says who it was, on what terminal, for how long and how it ended.
    private func close(_ ended: Ended) async {
        let session = ended.session
        session.app.close()
        links.close(session.link)
        admission.release(session.ticket)
        let duration = ContinuousClock.now - session.started
        metrics.ended(ended.ending, after: duration, open: admission.running)
        let size = session.request.size.map { "\($0.columns)x\($0.rows)" } ?? "none"
        logger.info(
            "SSH session ended",
            metadata: [
                "key": "\(session.visitor.fingerprint)", "address": "\(session.visitor.address)",
                "term": "\(session.request.terminal ?? "none")", "size": "\(size)",
                "seconds": "\(duration.components.seconds)", "status": "\(ended.status)",
                "ending": "\(ended.ending.rawValue)",
            ])
        do { _ = try await store.endSession(tokenHash: session.tokenHash) } catch {
            logger.warning("an SSH session's sign-in could not be ended: \(error)")
        }
    }

    /// Signs the key in to its account with the token of `tokenHash`; a key seen for the first
    /// time gets an account of its own, named after the SSH user name, when ``SSHNewVisitors``
    /// allows. Its password is no bcrypt hash: nothing can sign in to it but the key.
    private func signIn(_ visitor: Visitor, tokenHash: String) async throws {
        if let owner = try await store.owner(ofKey: visitor.fingerprint) {
            return try await store.startSession(userID: owner, tokenHash: tokenHash)
        }
        if let refused = newVisitors.admit(address: visitor.address) {
            throw refusal(.newKeys, refused.message)
        }
        do {
            _ = try await store.register(
                name: store.unusedUserName(SSHVisitorName.from(user: visitor.user)),
                email: Self.address(of: visitor.fingerprint), passwordHash: Self.noPassword, tokenHash: tokenHash,
                key: visitor.fingerprint)
            metrics.newKey()
        } catch StoreError.emailTaken {  // the same new key in two sessions at once: the other made it
            guard let owner = try await store.owner(ofKey: visitor.fingerprint) else { throw StoreError.emailTaken }
            try await store.startSession(userID: owner, tokenHash: tokenHash)
        }
    }

    /// A key account's password hash: not a bcrypt hash, so no password matches it.
    static let noPassword = "!key-only"

    /// The e-mail address of a key's account: made of the key (its SHA-256 in hex, as a token's is
    /// kept), so that one key makes one account.
    static func address(of fingerprint: String) -> String {
        "key-\(Tokens.hash(fingerprint).prefix(24))@ssh.invalid"
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

    /// The API listens on `host:port`: sessions reach it over loopback when it listens on every
    /// address or on loopback, else at that address.
    func listening(host: String, port: Int) {
        let reachable = ["0.0.0.0", "::", "", "localhost"].contains(host) ? "127.0.0.1" : host
        let bracketed = reachable.contains(":") ? "[\(reachable)]" : reachable
        value.withLock { $0 = "http://\(bracketed):\(port)" }
    }
}
