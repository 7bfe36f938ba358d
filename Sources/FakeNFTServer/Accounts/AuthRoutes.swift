import FakeNFTModels
import FakeNFTRequests
import Foundation
import HTTPTypes
import Hummingbird

/// Accounts, an extension of the FakeNFT API (docs/server.md): sign up, sign in, sign out, and
/// who a token is. Tokens are answered once and kept only as hashes; passwords only as bcrypt
/// hashes. A failed sign-in says the same whether or not the address has an account; sign-in
/// attempts are limited per address and per client, sign-ups per client (429 with `Retry-After`).
struct AuthRoutes: Sendable {
    let store: Store
    let limits: AccountLimits
    /// With an SSH front: a sign-in or sign-up from a key's session (its secret in
    /// `FakeNFT-SSH-Session`) moves the session's key to the account.
    let sshPasses: SSHVisitorPasses?

    /// Paths that need no token even when the server has one: signing in to an account that
    /// exists. (Signing up on such a server takes its token: it decides who may make accounts.)
    static func isOpen(_ path: String) -> Bool { path == "/api/v1/auth/login" }

    static let signUpPath = "/api/v1/auth/register"

    /// Where a request carries its token: the server's (`--token`), the apps' fixed one, or an
    /// account's.
    static let tokenHeader = HTTPField.Name("X-Practicum-Mobile-Token")!

    /// The token a request carries, if any.
    static func token(_ request: Request) -> String? {
        request.headers[tokenHeader].flatMap { $0.isEmpty ? nil : $0 }
    }

    var table: [Route] {
        [
            Route(
                method: .post, path: "auth/register", changesState: true,
                doc: APIDoc(
                    summary: "Makes an account and signs it in: the answer's token opens it.", tag: "Accounts",
                    body: .form(
                        [
                            .init(name: "name", schema: .string), .init(name: "email", schema: .string),
                            .init(name: "password", schema: .string),
                        ]),
                    answer: .json(status: 201, .ref("SignedIn")), errors: [400, 403, 409, 429, 503])
            ) { request, context in
                let fields = try await Routes.body(request, context)
                let name = fields.string("name") ?? "",
                    email = (fields.string("email") ?? "").trimmingCharacters(in: .whitespaces)
                let password = fields.string("password") ?? ""
                if let problem = Credentials.problem(name: name, email: email, password: password) {
                    throw RequestError(problem)
                }
                // probing for addresses too; per network, so that rotated addresses are one client
                _ = try Self.allowed(limits.signUp(from: context.clientNetworkKey))
                let token = Tokens.make(), trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
                let userID = try await store.register(
                    name: trimmed, email: email,
                    passwordHash: try await Passwords.hash(password), tokenHash: Tokens.hash(token))
                try await linkKey(of: request, to: userID)
                return try signedIn(token: token, userID: userID, name: trimmed, email: email, status: .created)
            },
            Route(
                method: .post, path: "auth/login", changesState: true,
                doc: APIDoc(
                    summary: "Signs in with an e-mail address and password: the answer's token opens the account.",
                    tag: "Accounts",
                    body: .form([.init(name: "email", schema: .string), .init(name: "password", schema: .string)]),
                    answer: .json(status: 200, .ref("SignedIn")), errors: [400, 401, 403, 429, 503])
            ) { request, context in
                let fields = try await Routes.body(request, context)
                let email = (fields.string("email") ?? "").trimmingCharacters(in: .whitespaces),
                    password = fields.string("password") ?? ""
                let address = "email:" + AccountRules.emailKey(email)
                let keys = limits.signInKeys(address: address, client: context.clientKey)
                // counted before the check, so guesses sent at once are limited as if one by one
                let attempt = try Self.allowed(limits.signIns.attempt(keys))
                let account = try await store.account(email: email)
                // No password that could ever be set holds a control character (bcrypt would stop at
                // a NUL) or is over 72 bytes (bcrypt would read its first 72 only: anything appended
                // to the right one would match).
                let possible =
                    AccountRules.passwordProblem(password) != .passwordHasControls && !password.isEmpty
                    && password.utf8.count <= AccountRules.maxPasswordBytes
                let matches =
                    try await Passwords.verify(password, hash: account?.passwordHash ?? Passwords.decoy) && possible
                // only a person's account opens with its address (a key's or a guest's is the server's own)
                guard let account, account.isPersons, matches else {
                    throw ServerError(.unauthorized, "wrong e-mail or password")
                }
                if let attempt { limits.signIns.succeeded(attempt, forgetting: address) }
                limits.signedIn(address: address, client: context.clientKey)
                let token = Tokens.make()
                try await store.startSession(userID: account.userID, tokenHash: Tokens.hash(token))
                try await linkKey(of: request, to: account.userID)
                return try signedIn(
                    token: token, userID: account.userID, name: account.name, email: account.email, status: .ok)
            },
            // A guest of the shop over SSH logs out into a fresh guest visit: its account is cleared and
            // its sign-in, which is its session's, lasts as long as the session does.
            Route(
                method: .post, path: "auth/logout", changesState: true,
                doc: APIDoc(
                    summary: "Ends this token's sign-in.", tag: "Accounts", answer: .noContent,
                    errors: [401, 403, 503])
            ) { request, _ in
                guard let token = Self.token(request) else { throw ServerError(.unauthorized, "not signed in") }
                let tokenHash = Tokens.hash(token)
                if let userID = try await store.signedIn(tokenHash: tokenHash),
                    try await store.account(userID: userID)?.isGuests == true
                {
                    try await store.clearGuest(owner: userID)
                    return Response(status: .noContent)
                }
                guard try await store.endSession(tokenHash: tokenHash) else {
                    throw ServerError(.unauthorized, "not signed in")
                }
                return Response(status: .noContent)
            },
            // Signs the account out everywhere: every token of it ends, this one too.
            Route(
                method: .post, path: "auth/logout-all", changesState: true,
                doc: APIDoc(
                    summary: "Ends every sign-in of the token's account, this one too.", tag: "Accounts",
                    answer: .noContent, errors: [401, 403, 503])
            ) { request, _ in
                guard let token = Self.token(request),
                    let userID = try await store.signedIn(tokenHash: Tokens.hash(token))
                else { throw ServerError(.unauthorized, "not signed in") }
                _ = try await store.endSessions(userID: userID)
                return Response(status: .noContent)
            },
            Route(
                method: .get, path: "auth/session", changesState: false,
                doc: APIDoc(
                    summary: "The account the token signs in to.", tag: "Accounts",
                    answer: .json(status: 200, .ref("Session")), errors: [401])
            ) { request, _ in
                guard let token = Self.token(request),
                    let userID = try await store.signedIn(tokenHash: Tokens.hash(token)),
                    let account = try await store.account(userID: userID)
                else {
                    throw ServerError(.unauthorized, "not signed in")
                }
                return Responses.json(
                    try JSONBody.encode(["userId": userID, "name": account.name, "email": account.email]))
            },
        ]
    }

    /// Moves the SSH key of the session whose secret `request` carries to `userID`'s account.
    private func linkKey(of request: Request, to userID: String) async throws {
        guard let secret = request.headers[.sshSession], let key = sshPasses?.holder(of: secret)?.fingerprint
        else { return }
        try await store.link(key: key, to: userID)
    }

    /// The attempt a limiter counted, or a 429 when it refused (nil: no limiter).
    private static func allowed(_ outcome: Result<LoginLimiter.Attempt, Limited>?) throws -> LoginLimiter.Attempt? {
        switch outcome {
        case .success(let attempt): return attempt
        case .failure(let limited):
            throw ServerError(
                .tooManyRequests, "too many attempts: try again in \(limited.seconds) s",
                headers: [.retryAfter: String(limited.seconds)])
        case nil: return nil
        }
    }

    private func signedIn(token: String, userID: String, name: String, email: String, status: HTTPResponse.Status)
        throws -> Response
    {
        Responses.json(
            try JSONBody.encode(["token": token, "userId": userID, "name": name, "email": email]), status: status)
    }
}
