import FakeNFTCore
import Foundation
import Testing
import FakeNFTTesting
@testable import FakeNFTServer

/// Every body form real clients send is understood the same way.
@Suite struct TolerantBodyTests {
    static let likeForms: [(String, String?, [String])] = [
        ("likes=1,2", nil, ["1", "2"]),
        ("likes=1, 2", nil, ["1", "2"]),
        ("likes=1%2C2", nil, ["1", "2"]),
        ("likes=1%2C%202", nil, ["1", "2"]),
        ("likes[]=1&likes[]=2", nil, ["1", "2"]),
        ("likes%5B%5D=1&likes%5B%5D=2", nil, ["1", "2"]),
        ("likes=1&likes=2", nil, ["1", "2"]),
        ("{\"likes\": [\"1\", \"2\"]}", "application/json", ["1", "2"]),
        ("{\"likes\": [1, 2]}", "application/json", ["1", "2"]),
        ("{\"likes\": \"1,2\"}", "application/json", ["1", "2"]),
        // the starter's wrong content type
        ("{\"likes\": [\"1\", \"2\"]}", "application/x-www-form-urlencoded", ["1", "2"]),
        ("likes=null", nil, []),
        ("likes=", nil, []),
        ("{\"likes\": null}", "application/json", []),
        ("{\"likes\": []}", "application/json", []),
        ("likes=2,1,2", nil, ["2", "1"]),
    ]

    @Test(arguments: likeForms)
    func likesForms(body: String, contentType: String?, expected: [String]) async throws {
        try await TestServer.with { server async throws in
            let (status, data) = try await server.request(
                "PUT", "/api/v1/profile/1", body: body,
                contentType: contentType ?? "application/x-www-form-urlencoded")
            #expect(status == 200, "\(String(decoding: data, as: UTF8.self))")
            let profile = try JSONDecoder().decode(Profile.self, from: data)
            #expect(profile.likes == expected)
            #expect(profile.name == "Студентус Практикумус", "other fields unchanged")
        }
    }

    @Test func missingKeyMeansUnchangedAndUTF8Survives() async throws {
        try await TestServer.with { server async throws in
            let (status, data) = try await server.request(
                "PUT", "/api/v1/profile/1",
                body: "name=%D0%98%D0%B2%D0%B0%D0%BD+%D0%9F&website=https://example.com/a?b=c")
            #expect(status == 200)
            let profile = try JSONDecoder().decode(Profile.self, from: data)
            #expect(profile.name == "Иван П" && profile.website == "https://example.com/a?b=c")
            #expect(profile.likes.count == 12 && profile.nfts.count == 13)
            let (emptyStatus, emptyData) = try await server.request("PUT", "/api/v1/orders/1", body: "")
            #expect(emptyStatus == 200)
            #expect(try JSONDecoder().decode(Order.self, from: emptyData).nfts == ["93", "94", "95"])
        }
    }

    /// Every request of the two Postman collections, with their gen2 UUIDs mapped onto ids of
    /// the gen1 data set (the UUIDs exist only on the real server).
    @Test(arguments: [
        "yandex-practicum-cloud.postman_collection.json", "dmitrybeton-2025-fakenft-api.postman_collection.json",
    ])
    func postmanRequestsAreAccepted(file: String) async throws {
        try await TestServer.with(token: "postman-token") { server async throws in
            let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../Fixtures").standardized
            let collection = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: fixtures.appendingPathComponent(file)))
                    as? [String: Any])
            let requests = Self.flatten(collection["item"] as? [[String: Any]] ?? [])
            #expect(requests.count >= 13)
            let uuid = try Regex("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
            for request in requests {
                let method = request["method"] as! String
                let url = (request["url"] as? [String: Any])?["raw"] as? String ?? request["url"] as! String
                let path = String(url.replacing("https://{{host}}", with: "")).replacing(uuid, with: "1")
                var headers: [String: String] = [:]
                for header in request["header"] as? [[String: Any]] ?? [] {
                    headers[header["key"] as! String] = (header["value"] as! String).replacing(
                        "{{token}}", with: "postman-token")
                }
                var body: String?
                if let fields = (request["body"] as? [String: Any])?["urlencoded"] as? [[String: Any]] {
                    body = FormEncoding.encode(
                        fields.map { ($0["key"] as! String, ($0["value"] as! String).replacing(uuid, with: "1")) })
                }
                let (status, data) = try await server.request(method, path, body: body, headers: headers)
                #expect(status == 200, "\(method) \(path): \(String(decoding: data, as: UTF8.self))")
            }
        }
    }

    static func flatten(_ items: [[String: Any]]) -> [[String: Any]] {
        items.flatMap { item -> [[String: Any]] in
            if let children = item["item"] as? [[String: Any]] { return flatten(children) }
            return [item["request"] as! [String: Any]]
        }
    }
}
