import HashTreeCollections
import FakeNFTModels
import FakeNFTRequests
import Foundation
import Hummingbird
import NIOCore

/// One endpoint of the API: the single source for its registration, its 405 `Allow` answers and
/// whether it changes state (and so is refused to other sites' pages).
struct Route: Sendable {
    typealias Handler = @Sendable (Request, ServerContext) async throws -> Response

    var method: HTTPRequest.Method
    /// Under `/api/v1`; `:name` is a parameter.
    var path: String
    var changesState: Bool
    /// What its answer is made from, when nothing else goes into it and it has no side effect a
    /// repeat may skip (a sign-in's use, written down at most daily, is the first answer's): a
    /// request repeated while that is unchanged may get the same bytes (``RepeatedAnswers``).
    /// Nil: never repeated.
    var repeats: RepeatedAnswers.Source?
    /// What it says of itself in `GET /openapi.json`.
    var doc: APIDoc
    var handler: Handler

    /// Whether `segments` (of a request path) name this route's path.
    func matches(_ segments: [Substring]) -> Bool {
        let pattern = ("api/v1/" + path).split(separator: "/")
        return pattern.count == segments.count && zip(pattern, segments).allSatisfy { $0.hasPrefix(":") || $0 == $1 }
    }
}

/// The FakeNFT API v1.1.0 under `/api/v1`, served from a ``Store``.
struct Routes: Sendable {
    let store: Store
    /// Where image fields point, and the server's own address for requests without a usable Host.
    let links: ImageLinks
    let serverHost: String
    /// Sign-in attempts, per address and per client; sign-ups per client.
    let limits: AccountLimits
    /// What each client last saw of each list, when changes without `If-Match` are merged.
    let listBases: ListBases?
    /// Whether every request must carry a token (`--token`): a catalog answer then depends on
    /// the token's sign-in too.
    let tokenRequired: Bool
    /// The SSH sessions' secrets that move their key to the account signed in to, with an SSH front.
    let sshPasses: SSHVisitorPasses?
    /// The apps' usage events.
    let usage: UsageRoutes
    /// List pages as answered, by table revision, query and link base.
    let pages = PageCache()
    static let maxBodySize = 64 * 1024

    /// Every endpoint.
    var table: [Route] {
        [
            catalog("nft", .nfts, Self.listDoc("The NFTs.", "NFT", "NFT")) { request, _ in try list(.nfts, request) },
            catalog("nft/:id", .nfts, Self.itemDoc("An NFT.", "NFT", "NFT")) { request, context in
                try item(.nfts, "NFT", request, context)
            },
            catalog("collections", .collections, Self.listDoc("The collections.", "Collections", "Collection")) {
                request, _ in try list(.collections, request)
            },
            catalog("collections/:id", .collections, Self.itemDoc("A collection.", "Collections", "Collection")) {
                request, context in try item(.collections, "collection", request, context)
            },
            catalog("users", .users, Self.listDoc("The users.", "Users", "User")) { request, _ in
                try list(.users, request)
            },
            catalog("users/:id", .users, Self.itemDoc("A user.", "Users", "User")) { request, context in
                try item(.users, "user", request, context)
            },
            catalog(
                "currencies", .currencies,
                APIDoc(
                    summary: "The currencies.", tag: "Currencies", answer: .json(status: 200, .array(.ref("Currency"))))
            ) { request, _ in
                json(store.latest.currencies.list(ListQuery()), request)
            },
            catalog("currencies/:id", .currencies, Self.itemDoc("A currency.", "Currencies", "Currency")) {
                request, context in try item(.currencies, "currency", request, context)
            },
            own(
                "profile/:id",
                APIDoc(
                    summary: "The caller's profile (an account's, by its token; else the shared one). The id is 1.",
                    tag: "Profile", answer: .json(status: 200, .ref("Profile")), errors: [401, 404])
            ) { request, context in
                try requireFixedID(context)
                let (owner, profile) = try await mine(\.profiles, request, context)
                remember(.likes, of: profile, owner: owner, request, context)
                return json(profile, request)
            },
            Route(
                method: .put, path: "profile/:id", changesState: true,
                doc: APIDoc(
                    summary: "Changes the fields sent of the caller's profile (If-Match: only at that version).",
                    tag: "Profile",
                    body: .form(
                        ["name", "description", "website", "avatar"].map { .init(name: $0, schema: .string) }
                            + [.init(name: "likes", schema: .string, about: "ids, comma-separated; null: none")]),
                    answer: .json(status: 200, .ref("Profile")), errors: [400, 401, 403, 404, 412, 503])
            ) { request, context in
                try requireFixedID(context)
                let fields = try await Self.body(request, context)
                let update = ProfileUpdate(
                    name: fields.string("name"), description: fields.string("description"),
                    website: fields.string("website"), avatar: fields.string("avatar"),
                    likes: fields.list("likes"))
                if let (field, problem) = ProfileRules.problem(in: update) {
                    throw RequestError.badField(field, Self.reason(problem))
                }
                let owner = try await owner(request, context)
                let profile = try await store.updateProfile(
                    update, owner: owner, ifVersion: ETag.acceptedVersions(request),
                    likesBase: update.likes.flatMap { base(.likes, request, owner: owner, sent: $0, context) })
                if let likes = update.likes {  // what the client holds now: what it sent, or the answer it adopts
                    remember(likes, .likes, owner: owner, request, context)
                    remember(.likes, of: profile, owner: owner, request, context)
                }
                return json(profile, request)
            },
            own(
                "orders/:id",
                APIDoc(
                    summary: "The caller's order (its cart). The id is 1.", tag: "Orders",
                    answer: .json(status: 200, .ref("Order")), errors: [401, 404])
            ) { request, context in
                try requireFixedID(context)
                let (owner, order) = try await mine(\.orders, request, context)
                remember(.cart, of: order, owner: owner, request, context)
                return Responses.json(order)
            },
            Route(
                method: .put, path: "orders/:id", changesState: true,
                doc: APIDoc(
                    summary: "Replaces the caller's order's NFTs (If-Match: only at that version).", tag: "Orders",
                    body: .form([.init(name: "nfts", schema: .string, about: "ids, comma-separated; null: none")]),
                    answer: .json(status: 200, .ref("Order")), errors: [400, 401, 403, 404, 409, 412, 503])
            ) { request, context in
                try requireFixedID(context)
                let versions = ETag.acceptedVersions(request)
                let owner: String, order: ReadModel.Versioned
                if let nfts = try await Self.body(request, context).list("nfts") {
                    owner = try await self.owner(request, context)
                    order = try await store.updateOrder(
                        nfts: nfts, owner: owner, ifVersion: versions,
                        base: base(.cart, request, owner: owner, sent: nfts, context))
                    // what the client holds now: what it sent, or the answer it adopts
                    remember(nfts, .cart, owner: owner, request, context)
                    remember(.cart, of: order, owner: owner, request, context)
                } else {
                    (owner, order) = try await mine(\.orders, request, context)  // nothing sent: unchanged
                    remember(.cart, of: order, owner: owner, request, context)
                }
                return Responses.json(order)
            },
            Route(
                method: .post, path: "orders/:id", changesState: true,
                doc: APIDoc(
                    summary: "Moves the order's NFTs (or those sent) into the caller's profile and empties the order.",
                    tag: "Orders",
                    body: .form([.init(name: "nfts", schema: .string, about: "ids, comma-separated; default: all")]),
                    answer: .json(status: 200, .ref("Order")), errors: [400, 401, 403, 404, 409, 412, 503])
            ) { request, context in
                try requireFixedID(context)
                let order = try await store.executeOrder(
                    nfts: try await Self.body(request, context).list("nfts"), owner: try await owner(request, context),
                    ifVersion: ETag.acceptedVersions(request))
                return Responses.json(order)
            },
            // A GET that pays: kept a GET for the apps, guarded like every other change.
            Route(
                method: .get, path: "orders/:id/payment/:currency", changesState: true,
                doc: APIDoc(
                    summary: "Pays for the caller's order in a currency: the order is emptied when it succeeds.",
                    tag: "Orders", answer: .json(status: 200, .ref("PaymentResult")),
                    errors: [400, 401, 403, 404, 409, 503])
            ) { request, context in
                try requireFixedID(context)
                let result = try await store.pay(
                    currencyID: try context.parameters.require("currency"), owner: try await owner(request, context))
                return Responses.json(try JSONBody.encode(result))
            },
            // The accounts extension: the caller's paid orders (an account's, or the shared
            // profile's), the latest first, in pages of at most 100; and one of them.
            Route(
                method: .get, path: "auth/orders", changesState: false,
                doc: APIDoc(
                    summary: "The caller's paid orders, the latest first.", tag: "Orders", query: APISchemas.listQuery,
                    answer: .json(status: 200, .array(.ref("PaidOrder"))), errors: [400, 401])
            ) { request, context in
                let query = try ListQuery(parameters: QueryString.parse(Substring(request.uri.query ?? "")))
                let orders = try await store.paidOrders(of: try await owner(request, context), query)
                return Responses.json(try JSONBody.encode(orders))
            },
            Route(
                method: .get, path: "auth/orders/:id", changesState: false,
                doc: APIDoc(
                    summary: "One of the caller's paid orders.", tag: "Orders",
                    answer: .json(status: 200, .ref("PaidOrder")), errors: [401, 404])
            ) { request, context in
                let id = try id(context)
                guard let order = try await store.paidOrders(of: try await owner(request, context), id: id).first else {
                    throw ServerError.notFound("paid order '\(id)'")
                }
                return Responses.json(try JSONBody.encode(order))
            },
        ] + AuthRoutes(store: store, limits: limits, sshPasses: sshPasses).table
            + AccessRoutes(store: store, owner: owner).table
            + EventRoutes(store: store, owner: owner) { [links, serverHost] json, request in
                links.rewrite(json, for: request.head, serverHost: serverHost)
            }.table + usage.table
    }

    /// What a broken profile rule is called in a 400 answer.
    static func reason(_ problem: ProfileRules.Problem) -> String {
        switch problem {
        case .nameEmpty: "must not be empty"
        case .tooLong(let limit): "must be at most \(limit) characters"
        case .hasControls: "must not contain control characters"
        case .linkInvalid: "must be an http(s) address"
        }
    }

    /// Whose profile and order a request reads and writes: a signed-in account's, by its token,
    /// else the shared one (no token, or any other token: the gen-1 apps send a fixed one). An
    /// account token that is not signed in (any more) is refused. A command over SSH acts for its
    /// key's account.
    private func owner(_ request: Request, _ context: ServerContext) async throws -> String {
        if let owner = context.actingOwner { return owner }
        guard let token = AuthRoutes.token(request), Tokens.isAccountToken(token) else { return Owner.shared }
        if let owner = try await store.signedIn(tokenHash: Tokens.hash(token)) { return owner }
        throw ServerError(.unauthorized, "this sign-in has ended: sign in again")
    }

    /// The caller's profile or order, and whose it is.
    private func mine(
        _ table: KeyPath<ReadModel, TreeDictionary<String, ReadModel.Versioned>>, _ request: Request,
        _ context: ServerContext
    ) async throws
        -> (owner: String, resource: ReadModel.Versioned)
    {
        let owner = try await owner(request, context)
        // read after the sign-in: a token just found in the database came with the rows of its time
        guard let resource = store.latest[keyPath: table][owner] else {
            throw ServerError.notFound("the account's data")
        }
        return (owner, resource)
    }

    /// Notes the list `resource` (a profile's likes, an order's NFTs) as the client read it, when
    /// changes without `If-Match` are merged.
    private func remember(
        _ field: ListBases.Field, of resource: ReadModel.Versioned, owner: String, _ request: Request,
        _ context: ServerContext
    ) {
        guard listBases != nil else { return }
        let data = Data(resource.json.readableBytesView)
        let list =
            switch field {
            case .likes: try? JSONDecoder().decode(Profile.self, from: data).likes
            case .cart: try? JSONDecoder().decode(Order.self, from: data).nfts
            }
        if let list { remember(list, field, owner: owner, request, context) }
    }

    private func remember(
        _ list: [String], _ field: ListBases.Field, owner: String, _ request: Request, _ context: ServerContext
    ) {
        listBases?.remember(list, field, owner: owner, client: Self.listClient(request, context))
    }

    /// What the client saw of the list it changed into `sent`, when its change carries no
    /// `If-Match` and such changes are merged; nil: the change replaces the list.
    private func base(
        _ field: ListBases.Field, _ request: Request, owner: String, sent: [String], _ context: ServerContext
    ) -> [String]? {
        guard request.headers[.ifMatch] == nil else { return nil }
        return listBases?.base(field, owner: owner, client: Self.listClient(request, context), sent: sent)
    }

    /// A client as merged lists tell clients apart: its address and what it says it is (an app
    /// sending `If-Match` and an iOS app behind one address are two clients).
    private static func listClient(_ request: Request, _ context: ServerContext) -> String {
        context.clientKey + "\u{0}" + (request.headers[.userAgent] ?? "").prefix(200)
    }

    /// A read of the caller's profile or order: repeatable unless the server notes what each
    /// client saw of its lists (``ListBases``), which a repeat would skip.
    private func own(_ path: String, _ doc: APIDoc, _ handler: @escaping Route.Handler) -> Route {
        Route(
            method: .get, path: path, changesState: false, repeats: listBases == nil ? .model : nil, doc: doc,
            handler: handler)
    }

    /// A read of `table`, of the catalog: no caller's own data, no side effect. Repeatable while
    /// the table is unchanged, whoever asks, unless tokens are required (a token signed out then
    /// changes its answer).
    private func catalog(
        _ path: String, _ table: ReadModel.Catalog, _ doc: APIDoc, _ handler: @escaping Route.Handler
    ) -> Route {
        Route(
            method: .get, path: path, changesState: false, repeats: tokenRequired ? .model : .catalog(table), doc: doc,
            handler: handler)
    }

    /// A list of the catalog's, in pages.
    private static func listDoc(_ summary: String, _ tag: String, _ schema: String) -> APIDoc {
        APIDoc(
            summary: summary, tag: tag, query: APISchemas.listQuery, answer: .json(status: 200, .array(.ref(schema))),
            errors: [400])
    }

    /// One item of the catalog's, by its id.
    private static func itemDoc(_ summary: String, _ tag: String, _ schema: String) -> APIDoc {
        APIDoc(summary: summary, tag: tag, answer: .json(status: 200, .ref(schema)), errors: [404])
    }

    /// A page of `table` of ``Store/latest`` (see ``ConsistencyMiddleware`` for what a reader
    /// may see of other servers' changes).
    private func list(_ table: ReadModel.Catalog, _ request: Request) throws -> Response {
        let table = store.latest[catalog: table], query = request.uri.query ?? ""
        let base = links.base(for: request.head, serverHost: serverHost)
        let page = try pages.page(PageCache.Key(table: table.revision, query: query, base: base ?? "")) {
            ImageLinks.rewrite(table.list(try ListQuery(parameters: QueryString.parse(Substring(query)))), base: base)
        }
        return Responses.json(page)
    }

    private func item(_ table: ReadModel.Catalog, _ what: String, _ request: Request, _ context: ServerContext) throws
        -> Response
    {
        let id = try id(context)
        guard let body = store.latest[catalog: table].item(id: id) else {
            throw ServerError.notFound("\(what) '\(id)'")
        }
        return json(body, request)
    }

    /// JSON that may name images, with their links pointed where ``links`` says.
    private func json(_ body: ByteBuffer, _ request: Request) -> Response {
        Responses.json(links.rewrite(body, for: request.head, serverHost: serverHost))
    }

    private func json(_ resource: ReadModel.Versioned, _ request: Request) -> Response {
        Responses.json(
            links.rewrite(resource.json, for: request.head, serverHost: serverHost), version: resource.version)
    }

    private func id(_ context: ServerContext) throws -> String { try context.parameters.require("id") }

    /// The profile and the order exist once, as `/profile/1` and `/orders/1`.
    private func requireFixedID(_ context: ServerContext) throws {
        let id = try id(context)
        guard id == "1" else { throw ServerError.notFound("'\(id)' (only id 1 exists)") }
    }

    /// The body's fields (read whole, within its deadline and size, by ``BodyDeadlineMiddleware``).
    static func body(_ request: Request, _ context: ServerContext) async throws -> RequestFields {
        let buffer = try await request.body.collect(upTo: Self.maxBodySize)
        return try RequestFields(body: Data(buffer.readableBytesView), contentType: request.headers[.contentType])
    }
}
