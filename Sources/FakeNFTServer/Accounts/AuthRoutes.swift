import FakeNFTModels
import FakeNFTRequests
import Foundation
import Hummingbird

/// Accounts, an extension of the FakeNFT API (docs/server.md): sign up, sign in, sign out, and
/// who a token is. Tokens are answered once and kept only as hashes; passwords only as bcrypt
/// hashes. A failed sign-in says the same whether or not the address has an account, and
/// failures are limited per address and per client (429 with `Retry-After`).
struct AuthRoutes: Sendable {
    let store: Store
    let limiter: LoginLimiter

    /// Paths that need no token even when the server has one (they hand tokens out).
    static func isOpen(_ path: String) -> Bool { path == "/api/v1/auth/register" || path == "/api/v1/auth/login" }

    /// The token a request carries, if any.
    static func token(_ request: Request) -> String? {
        request.headers.first(where: { $0.name.canonicalName == "x-practicum-mobile-token" }).map(\.value).flatMap {
            $0.isEmpty ? nil : $0
        }
    }

    var table: [Route] {
        [
            Route(method: .post, path: "auth/register", changesState: true) { request, context in
                let fields = try await Routes.body(request)
                let name = fields.string("name") ?? "",
                    email = (fields.string("email") ?? "").trimmingCharacters(in: .whitespaces)
                let password = fields.string("password") ?? ""
                if let problem = Credentials.problem(name: name, email: email, password: password) {
                    throw RequestError(problem)
                }
                try refuseWhileLimited([context.clientKey])
                let token = Tokens.make(), trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
                do {
                    let userID = try await store.register(
                        name: trimmed, email: email,
                        passwordHash: try await Passwords.hash(password), tokenHash: Tokens.hash(token))
                    return try signedIn(token: token, userID: userID, name: trimmed, email: email, status: .created)
                } catch StoreError.emailTaken {
                    limiter.fail([context.clientKey])  // probing for addresses counts as failing
                    throw StoreError.emailTaken
                }
            },
            Route(method: .post, path: "auth/login", changesState: true) { request, context in
                let fields = try await Routes.body(request)
                let email = (fields.string("email") ?? "").trimmingCharacters(in: .whitespaces),
                    password = fields.string("password") ?? ""
                let keys = ["email:" + AccountRules.emailKey(email), context.clientKey]
                try refuseWhileLimited(keys)
                let account = try await store.account(email: email)
                let matches = try await Passwords.verify(password, hash: account?.passwordHash ?? Passwords.decoy)
                guard let account, matches else {
                    limiter.fail(keys)
                    throw ServerError(.unauthorized, "wrong e-mail or password")
                }
                limiter.clear(keys[0])
                let token = Tokens.make()
                try await store.startSession(userID: account.userID, tokenHash: Tokens.hash(token))
                return try signedIn(
                    token: token, userID: account.userID, name: account.name, email: account.email, status: .ok)
            },
            Route(method: .post, path: "auth/logout", changesState: true) { request, _ in
                guard let token = Self.token(request), try await store.endSession(tokenHash: Tokens.hash(token)) else {
                    throw ServerError(.unauthorized, "not signed in")
                }
                return Response(status: .noContent)
            },
            Route(method: .get, path: "auth/session", changesState: false) { request, _ in
                guard let token = Self.token(request),
                    let userID = try await store.current().sessions[Tokens.hash(token)],
                    let account = try await store.account(userID: userID)
                else {
                    throw ServerError(.unauthorized, "not signed in")
                }
                return Responses.json(
                    try JSONBody.encode(["userId": userID, "name": account.name, "email": account.email]))
            },
        ]
    }

    private func refuseWhileLimited(_ keys: [String]) throws {
        if let seconds = limiter.retryAfter(keys) {
            throw ServerError(
                .tooManyRequests, "too many failed attempts: try again in \(seconds) s",
                headers: [.retryAfter: String(seconds)])
        }
    }

    private func signedIn(token: String, userID: String, name: String, email: String, status: HTTPResponse.Status)
        throws -> Response
    {
        Responses.json(
            try JSONBody.encode(["token": token, "userId": userID, "name": name, "email": email]), status: status)
    }
}
