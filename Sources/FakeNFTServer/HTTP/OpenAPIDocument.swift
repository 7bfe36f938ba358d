import Foundation
import NIOCore
import Synchronization

/// An endpoint as the served OpenAPI document lists it: its method, its path from the root
/// (`/api/v1/nft/{id}`, from the router's `api/v1/nft/:id`) and what it says of itself.
struct DocumentedRoute: Sendable {
    let method: String
    let path: String
    let doc: APIDoc

    /// `method` at `routerPath` (the router's form: `:name` a parameter, `**` the rest).
    init(_ method: String, _ routerPath: String, _ doc: APIDoc) {
        self.method = method.lowercased()
        path =
            "/"
            + routerPath.split(separator: "/").map { segment in
                segment.hasPrefix(":") ? "{\(segment.dropFirst())}" : segment == "**" ? "{path}" : String(segment)
            }.joined(separator: "/")
        self.doc = doc
    }

    /// The names of its path's parameters.
    var parameters: [String] {
        path.split(separator: "/").compactMap { $0.hasPrefix("{") ? String($0.dropFirst().dropLast()) : nil }
    }
}

/// `GET /openapi.json`: every endpoint the server answers (``DocumentedRoute``), as OpenAPI 3.1.
enum OpenAPIDocument {
    /// The document of a router, made when first asked for (not at every start, the embedded
    /// server's included) and kept.
    final class Served: Sendable {
        private let routes: [DocumentedRoute]
        private let made = Mutex<ByteBuffer?>(nil)

        init(_ routes: [DocumentedRoute]) { self.routes = routes }

        var bytes: ByteBuffer {
            made.withLock { made in
                if let made { return made }
                let bytes = ByteBuffer(bytes: OpenAPIDocument.json(routes, version: "1.1.0"))
                made = bytes
                return bytes
            }
        }
    }

    /// The document's bytes (JSON, its keys sorted).
    static func json(_ routes: [DocumentedRoute], version: String) -> Data {
        var paths: [String: [String: any Sendable]] = [:]
        for route in routes { paths[route.path, default: [:]][route.method] = operation(route) }
        let document: [String: any Sendable] = [
            "openapi": "3.1.0",
            "info": [
                "title": "FakeNFT", "version": version,
                "description": """
                The FakeNFT API v1.1.0 under /api/v1, with this server's extensions: accounts (/api/v1/auth), \
                live updates (/api/v1/events), usage events, the pictures, health and metrics. A signed-in \
                client sends its token as X-Practicum-Mobile-Token.
                """,
            ],
            "paths": paths,
            "components": [
                "schemas": APISchemas.all.mapValues { $0.json },
                "securitySchemes": [
                    "token": ["type": "apiKey", "in": "header", "name": AuthRoutes.tokenHeader.rawName]
                ],
            ],
        ]
        return (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
    }

    private static func operation(_ route: DocumentedRoute) -> [String: any Sendable] {
        let doc = route.doc
        var parameters: [[String: any Sendable]] = route.parameters.map {
            ["name": $0, "in": "path", "required": true, "schema": APISchema.string.json]
        }
        parameters += doc.query.map {
            ["name": $0.name, "in": "query", "required": false, "schema": $0.schema.json, "description": $0.about]
        }
        var operation: [String: any Sendable] = [
            "summary": doc.summary, "tags": [doc.tag], "operationId": route.method + route.path,
            "responses": responses(doc, head: route.method == "head"),
        ]
        if !parameters.isEmpty { operation["parameters"] = parameters }
        if let body = doc.body { operation["requestBody"] = requestBody(body) }
        if route.path.hasPrefix("/api/v1/") { operation["security"] = [[:] as [String: [String]], ["token": []]] }
        return operation
    }

    private static func requestBody(_ body: APIDoc.Body) -> [String: any Sendable] {
        let (type, schema, required): (String, APISchema, Bool) =
            switch body {
            case .form(let fields):
                ("application/x-www-form-urlencoded", .object(fields.map { ($0.name, $0.schema) }), false)
            case .json(let schema): ("application/json", schema, true)
            }
        let media: [String: any Sendable] = ["schema": schema.json]
        let content: [String: any Sendable] = [type: media]
        return ["required": required, "content": content]
    }

    /// Its answers: the success (a HEAD's without its body) and each error.
    private static func responses(_ doc: APIDoc, head: Bool) -> [String: any Sendable] {
        func content(_ type: String, _ schema: [String: any Sendable]) -> [String: any Sendable] {
            head ? [:] : ["content": [type: ["schema": schema]]]
        }
        var responses: [String: any Sendable] = [:]
        switch doc.answer {
        case .json(let status, let schema):
            responses[String(status)] = ["description": describe(status)].merging(
                content("application/json", schema.json)
            ) { $1 }
        case .noContent: responses["204"] = ["description": "Done: nothing to send back."]
        case .events:
            responses["200"] = ["description": "Server-sent events, for as long as the server runs."]
                .merging(content("text/event-stream", APISchema.string.json)) { $1 }
        case .png:
            responses["200"] = ["description": "The picture."]
                .merging(content("image/png", ["type": "string", "contentMediaType": "image/png"])) { $1 }
        case .text:
            responses["200"] = ["description": "Prometheus text."].merging(content("text/plain", APISchema.string.json))
            { $1 }
        }
        for status in doc.errors {
            responses[String(status)] = ["description": describe(status)].merging(
                content("application/json", APISchema.error.json)
            ) { $1 }
        }
        return responses
    }

    private static func describe(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 400: "A field or parameter is wrong: the error says which."
        case 401: "No sign-in, or one that has ended (or a wrong token on a server that requires one)."
        case 403: "Refused: the server is read-only, or the request came from another site's page."
        case 404: "Not found."
        case 409: "Taken: the e-mail address has an account."
        case 412: "Changed since the version sent as If-Match: read it again."
        case 429: "Too many attempts: Retry-After says when to come back."
        case 503: "The database cannot answer or store now: Retry-After says when to try again."
        default: "Status \(status)."
        }
    }
}
