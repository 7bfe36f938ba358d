import FakeNFTTesting
import Foundation
import Testing

@testable import FakeNFTServer

/// `GET /openapi.json` against the router it describes: every operation it lists is answered with
/// one of its documented statuses and a body of its documented schema; every other method on a
/// documented path is refused; an account's routes are walked signed in too.
@Suite struct OpenAPITests {
    @Test func theDocumentDescribesWhatTheRouterAnswers() async throws {
        try await TestServer.with { server async throws in
            let served = try await server.answer("GET", "/openapi.json", body: nil, contentType: nil, headers: [:])
            #expect(served.status == 200)
            let document = try #require(try JSONSerialization.jsonObject(with: served.body) as? [String: Any])
            #expect(document["openapi"] as? String == "3.1.0")
            let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            for path in Self.required { #expect(paths[path] != nil, "\(path) is not described") }
            let signUp = try await server.answer(
                "POST", "/api/v1/auth/register", body: "name=Ada&email=ada@example.org&password=correct-horse-9",
                contentType: "application/x-www-form-urlencoded", headers: [:])
            let token = try #require(
                (try JSONSerialization.jsonObject(with: signUp.body) as? [String: Any])?["token"] as? String)
            var walked = 0
            for (path, operations) in paths.sorted(by: { $0.key < $1.key }) {
                for (method, operation) in operations {
                    guard let operation = operation as? [String: Any] else { continue }
                    if path == "/api/v1/events" && method == "get" { continue }  // it streams until the server stops
                    for headers in [[:], ["X-Practicum-Mobile-Token": token]] {
                        let answer = try await server.answer(
                            method.uppercased(), Self.example(path), body: nil, contentType: nil, headers: headers)
                        let responses = try #require(operation["responses"] as? [String: Any])
                        let documented = responses[String(answer.status)] as? [String: Any]
                        let said = String(decoding: answer.body.prefix(200), as: UTF8.self)
                        #expect(documented != nil, "\(method) \(path) answered \(answer.status), undocumented: \(said)")
                        if let schema =
                            ((documented?["content"] as? [String: Any])?["application/json"]
                            as? [String: Any])?["schema"] as? [String: Any], method != "head"
                        {
                            let body = try JSONSerialization.jsonObject(with: answer.body, options: .fragmentsAllowed)
                            let problems = Self.problems(body, schema, schemas, at: "")
                            #expect(problems.isEmpty, "\(method) \(path) \(answer.status): \(problems.prefix(5))")
                        }
                        walked += 1
                    }
                }
                guard path.hasPrefix("/api/v1/") else { continue }
                for method in ["GET", "PUT", "POST", "DELETE", "PATCH"] where operations[method.lowercased()] == nil {
                    let refused = try await server.answer(
                        method, Self.example(path), body: nil, contentType: nil, headers: [:])
                    #expect([404, 405].contains(refused.status), "\(method) \(path) answered \(refused.status)")
                }
            }
            #expect(walked > 60)
        }
    }

    /// What the document must describe, whatever else it does: the API, its extensions, the pictures,
    /// health and itself.
    static let required = [
        "/api/v1/nft", "/api/v1/nft/{id}", "/api/v1/collections", "/api/v1/collections/{id}", "/api/v1/users",
        "/api/v1/users/{id}", "/api/v1/profile/{id}", "/api/v1/orders/{id}", "/api/v1/currencies",
        "/api/v1/currencies/{id}", "/api/v1/orders/{id}/payment/{currency}", "/api/v1/auth/register",
        "/api/v1/auth/login", "/api/v1/auth/logout", "/api/v1/auth/logout-all", "/api/v1/auth/session",
        "/api/v1/auth/orders", "/api/v1/auth/orders/{id}", "/api/v1/events", "/api/v1/usage", "/images/{path}",
        "/health", "/health/live", "/health/ready", "/metrics", "/openapi.json",
    ]

    /// `path` with its parameters given: ids of the seed data, a picture that is there.
    static func example(_ path: String) -> String {
        path.replacingOccurrences(of: "{path}", with: "Mobile/iOS/NFT/Beige/April/1.png")
            .replacingOccurrences(of: "{id}", with: "1").replacingOccurrences(of: "{currency}", with: "1")
    }

    /// How `value` breaks `schema` (the subset of JSON Schema the document uses), at `place`.
    static func problems(_ value: Any, _ schema: [String: Any], _ all: [String: Any], at place: String) -> [String] {
        if let reference = schema["$ref"] as? String {
            guard let named = all[String(reference.split(separator: "/").last ?? "")] as? [String: Any] else {
                return ["\(place): no schema \(reference)"]
            }
            return problems(value, named, all, at: place)
        }
        let types = (schema["type"] as? [String]) ?? [(schema["type"] as? String) ?? ""]
        let type: String =
            switch value {
            case is NSNull: "null"
            case let number as NSNumber:
                switch String(cString: number.objCType) {
                case "c", "B": "boolean"
                case "d", "f": "number"
                default: "integer"
                }
            case is String: "string"
            case is [Any]: "array"
            case is [String: Any]: "object"
            default: "unknown"
            }
        guard types.contains(type) || (type == "integer" && types.contains("number")) else {
            return ["\(place): \(type), not \(types)"]
        }
        if let items = value as? [Any], let itemSchema = schema["items"] as? [String: Any] {
            return items.enumerated().flatMap { problems($1, itemSchema, all, at: "\(place)[\($0)]") }
        }
        guard let object = value as? [String: Any] else { return [] }
        let properties = schema["properties"] as? [String: [String: Any]] ?? [:]
        let missing = (schema["required"] as? [String] ?? []).filter { object[$0] == nil }.map {
            "\(place).\($0) missing"
        }
        return missing
            + object.flatMap { key, field in
                properties[key].map { problems(field, $0, all, at: "\(place).\(key)") } ?? []
            }
    }
}
