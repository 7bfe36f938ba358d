import Foundation
import FakeNFTModels

/// A request of the FakeNFT API as a command makes it: a method and a path under `/api/v1`
/// (its query included), a form body for a change, and the version a change expects.
public struct ShopRequest: Sendable, Equatable {
    public var method: String
    /// Under `/api/v1/`, without a leading slash (`nft/42`, `users?sortBy=rating`).
    public var path: String
    /// The fields of an `application/x-www-form-urlencoded` body.
    public var form: [Field]?
    /// `If-Match`: the resource's version the change was made against.
    public var ifMatch: String?

    /// One field of a form body.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    /// Its headers beside the caller's own: the body's type, and the version a change expects.
    public var headers: [(name: String, value: String)] {
        (form == nil ? [] : [("Content-Type", "application/x-www-form-urlencoded")])
            + (ifMatch.map { [("If-Match", $0)] } ?? [])
    }

    /// The body as the API reads it.
    public var body: Data? {
        form.map { fields in Data(FormEncoding.encode(fields.map { ($0.name, $0.value) }).utf8) }
    }

    init(_ method: String, _ path: String, form: [(String, String)]? = nil, ifMatch: String? = nil) {
        self.method = method
        self.path = path
        self.form = form?.map { Field(name: $0.0, value: $0.1) }
        self.ifMatch = ifMatch
    }
}

/// The API's answer to a ``ShopRequest``.
public struct ShopAnswer: Sendable {
    public var status: Int
    public var body: Data
    /// Its `ETag`: the version of what it holds.
    public var entityTag: String?

    public init(status: Int, body: Data, entityTag: String?) {
        self.status = status
        self.body = body
        self.entityTag = entityTag
    }
}

/// Where commands reach the shop: the API over HTTP (the local command line), or the server's
/// own routes in its process (commands over SSH). Throws ``CommandFailure`` when no answer came.
public protocol ShopAPI: Sendable {
    func send(_ request: ShopRequest) async throws(CommandFailure) -> ShopAnswer
}
