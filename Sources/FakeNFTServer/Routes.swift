import FakeNFTCore
import Foundation
import Hummingbird

/// The FakeNFT API v1.1.0 under `/api/v1`, served from a ``Store``.
struct Routes: Sendable {
    let store: Store
    static let maxBodySize = 64 * 1024

    func register(on router: Router<BasicRequestContext>) {
        let api = router.group("api/v1")
        api.get("nft") { request, _ in try json(store.nfts(query(request))) }
        api.get("nft/:id") { _, context in try json(store.nft(id: id(context)) ?? notFound("NFT", context)) }
        api.get("collections") { request, _ in try json(store.collections(query(request))) }
        api.get("collections/:id") { _, context in try json(store.collection(id: id(context)) ?? notFound("collection", context)) }
        api.get("users") { request, _ in try json(store.users(query(request))) }
        api.get("users/:id") { _, context in try json(store.user(id: id(context)) ?? notFound("user", context)) }
        api.get("currencies") { _, _ in try json(store.currencies()) }
        api.get("currencies/:id") { _, context in try json(store.currency(id: id(context)) ?? notFound("currency", context)) }
        api.get("profile/:id") { _, context in
            try requireFixedID(context)
            return try json(store.profile())
        }
        api.put("profile/:id") { request, context in
            try requireFixedID(context)
            let fields = try await body(request)
            if let name = fields.string("name"), name.trimmingCharacters(in: .whitespaces).isEmpty {
                throw ServerError.badField("name", "must not be empty")
            }
            let update = ProfileUpdate(name: fields.string("name"), description: fields.string("description"),
                                       website: fields.string("website"), avatar: fields.string("avatar"),
                                       likes: fields.list("likes"))
            return try json(store.updateProfile(update))
        }
        api.get("orders/:id") { _, context in
            try requireFixedID(context)
            return try json(store.order())
        }
        api.put("orders/:id") { request, context in
            try requireFixedID(context)
            let fields = try await body(request)
            guard let nfts = fields.list("nfts") else { return try json(store.order()) }   // nothing sent: unchanged
            return try json(store.updateOrder(nfts: nfts))
        }
        api.post("orders/:id") { request, context in
            try requireFixedID(context)
            return try json(store.executeOrder(nfts: try await body(request).list("nfts")))
        }
        api.get("orders/:id/payment/:currency") { _, context in
            try requireFixedID(context)
            let currency = try context.parameters.require("currency")
            return try json(store.pay(currencyID: currency))
        }
    }

    private func id(_ context: BasicRequestContext) throws -> String { try context.parameters.require("id") }

    private func notFound<T>(_ what: String, _ context: BasicRequestContext) throws -> T {
        throw ServerError.notFound("\(what) '\((try? id(context)) ?? "")'")
    }

    /// The profile and the order exist once, as `/profile/1` and `/orders/1`.
    private func requireFixedID(_ context: BasicRequestContext) throws {
        guard try id(context) == "1" else { throw ServerError.notFound("'\(try id(context))' (only id 1 exists)") }
    }

    private func query(_ request: Request) throws -> ListQuery {
        var parameters: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { parameters[String(key)] = String(value).removingPercentEncoding ?? String(value) }
        return try ListQuery(parameters: parameters)
    }

    private func body(_ request: Request) async throws -> RequestFields {
        let buffer: ByteBuffer
        do { buffer = try await request.body.collect(upTo: Self.maxBodySize) } catch {
            throw ServerError(.contentTooLarge, "body larger than \(Self.maxBodySize / 1024) KiB")
        }
        return try RequestFields(body: Data(buffer.readableBytesView), contentType: request.headers[.contentType])
    }
}

private let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
    return encoder
}()

/// A JSON response.
func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
    let data = try encoder.encode(value)
    return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
}
