import FakeNFTModels
import FakeNFTRequests
import Foundation
import Hummingbird
import NIOSSH

/// An account's ways in, managed by the account itself (an extension of the FakeNFT API): the
/// tokens it makes for its scripts and clients (`/auth/tokens`: kept as hashes, shown once) and
/// the SSH keys that open it (`/auth/keys`). Only a signed-in account (a token, or a command over
/// SSH as its key) reaches them.
struct AccessRoutes: Sendable {
    let store: Store
    /// Whose account the request acts for (``Routes``'s choice).
    let owner: @Sendable (Request, ServerContext) async throws -> String

    var table: [Route] {
        [
            Route(
                method: .get, path: "auth/tokens", changesState: false,
                doc: APIDoc(
                    summary: "The account's named tokens (never the tokens themselves).", tag: "Accounts",
                    answer: .json(status: 200, .array(.ref("Token"))), errors: [401])
            ) { request, context in
                let tokens = try await store.tokens(of: try await account(request, context))
                return Responses.json(try JSONBody.encode(tokens.map(Self.listed)))
            },
            Route(
                method: .post, path: "auth/tokens", changesState: true,
                doc: APIDoc(
                    summary: "Makes a named token that opens the account as a sign-in's does; shown this once.",
                    tag: "Accounts",
                    body: .form([
                        .init(name: "name", schema: .string, about: "at most 64 characters; default 'token'"),
                        .init(name: "expires", schema: .string, about: "a lifetime: 12h, 30d, 8w or 1y; default never"),
                    ]),
                    answer: .json(status: 201, .ref("NewToken")), errors: [400, 401, 403, 503])
            ) { request, context in
                let userID = try await account(request, context)
                let fields = try await Routes.body(request, context)
                let name = (fields.string("name") ?? "token").trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty, name.count <= 64,
                    !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
                else {
                    throw RequestError.badField("name", "must be 1 to 64 characters, no control characters")
                }
                let lifetime = try fields.string("expires").map(Self.lifetime)
                let (token, listed) = try await store.createToken(
                    userID: userID, name: name, expiresAt: lifetime.map { Date().addingTimeInterval($0) })
                var answer = Self.listed(listed)
                answer["token"] = token
                return Responses.json(try JSONBody.encode(answer), status: .created)
            },
            Route(
                method: .delete, path: "auth/tokens/:id", changesState: true,
                doc: APIDoc(
                    summary: "Ends one of the account's named tokens.", tag: "Accounts", answer: .noContent,
                    errors: [401, 403, 404, 503])
            ) { request, context in
                let id = try context.parameters.require("id")
                guard try await store.revokeToken(userID: try await account(request, context), id: id) else {
                    throw ServerError.notFound("token '\(id)'")
                }
                return Response(status: .noContent)
            },
            Route(
                method: .get, path: "auth/keys", changesState: false,
                doc: APIDoc(
                    summary: "The SSH keys that open the account.", tag: "Accounts",
                    answer: .json(status: 200, .array(.ref("Key"))), errors: [401])
            ) { request, context in
                let keys = try await store.keys(of: try await account(request, context))
                return Responses.json(try JSONBody.encode(keys.map(Self.listed)))
            },
            Route(
                method: .post, path: "auth/keys", changesState: true,
                doc: APIDoc(
                    summary: "Links another SSH key (an Ed25519 or ECDSA public key, as ssh-keygen writes it).",
                    tag: "Accounts",
                    body: .form([.init(name: "key", schema: .string, about: "ssh-ed25519 AAAA… comment")]),
                    answer: .json(status: 201, .ref("Key")), errors: [400, 401, 403, 409, 503])
            ) { request, context in
                let userID = try await account(request, context)
                let fingerprint = try Self.fingerprint(of: try await Routes.body(request, context).string("key") ?? "")
                do { try await store.addKey(fingerprint, to: userID) } catch let refused as Store.KeyRefused {
                    throw ServerError(.conflict, refused.reason)
                }
                guard let key = try await store.keys(of: userID).first(where: { $0.fingerprint == fingerprint }) else {
                    throw ServerError.notFound("key '\(fingerprint)'")  // unlinked again meanwhile
                }
                return Responses.json(try JSONBody.encode(Self.listed(key)), status: .created)
            },
            Route(
                method: .delete, path: "auth/keys", changesState: true,
                doc: APIDoc(
                    summary: "Unlinks an SSH key, never a key account's last one.", tag: "Accounts",
                    query: [.init(name: "fingerprint", schema: .string, about: "SHA256:…, as ssh-keygen -l prints it")],
                    answer: .noContent, errors: [400, 401, 403, 404, 409, 503])
            ) { request, context in
                let userID = try await account(request, context)
                guard let fingerprint = request.uri.queryParameters.get("fingerprint"), !fingerprint.isEmpty else {
                    throw RequestError.badField("fingerprint", "is required")
                }
                do {
                    guard try await store.removeKey(fingerprint, from: userID) else {
                        throw ServerError.notFound("key '\(fingerprint)'")
                    }
                } catch let refused as Store.KeyRefused {
                    throw ServerError(.conflict, refused.reason)
                }
                return Response(status: .noContent)
            },
        ]
    }

    /// The account the request acts for; the shared profile has no ways in of its own.
    private func account(_ request: Request, _ context: ServerContext) async throws -> String {
        let owner = try await owner(request, context)
        guard owner != Owner.shared else { throw ServerError(.unauthorized, "this needs an account's sign-in") }
        return owner
    }

    /// A lifetime as `12h`, `30d`, `8w` or `1y` (at most ten years), in seconds.
    static func lifetime(_ text: String) throws -> TimeInterval {
        let unit = text.last.flatMap { ["h": 3_600.0, "d": 86_400.0, "w": 604_800.0, "y": 31_536_000.0][$0] }
        guard let unit, let count = Int(text.dropLast()), count > 0, Double(count) * unit <= 10 * 31_536_000 else {
            throw RequestError.badField("expires", "must be a number and h, d, w or y (12h, 30d, 8w, 1y), at most 10y")
        }
        return Double(count) * unit
    }

    /// The fingerprint (`SHA256:…`) of an Ed25519 or ECDSA public key line.
    static func fingerprint(of line: String) throws -> String {
        let parts = line.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
        guard line.utf8.count <= 8_192, parts.count >= 2,
            let key = try? NIOSSHPublicKey(openSSHPublicKey: parts.prefix(2).joined(separator: " "))
        else {
            throw RequestError.badField("key", "must be an Ed25519 or ECDSA public key line (ssh-ed25519 AAAA…)")
        }
        return SSHHostKey.fingerprint(key)
    }

    private static func listed(_ token: Store.NamedToken) -> [String: String?] {
        [
            "id": token.id, "name": token.signedIn.name, "createdAt": token.signedIn.createdAt,
            "lastUsedAt": ISO8601DateFormatter().string(from: token.signedIn.lastUsed),
            "expiresAt": token.signedIn.expires.map { ISO8601DateFormatter().string(from: $0) },
        ]
    }

    private static func listed(_ key: SSHKeyRecord) -> AccountKey {
        AccountKey(fingerprint: key.fingerprint, createdAt: key.createdAt)
    }
}
