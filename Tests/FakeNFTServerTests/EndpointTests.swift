import FakeNFTCore
import Foundation
import Testing
import FakeNFTTesting
@testable import FakeNFTServer

/// Every endpoint over real HTTP on loopback.
@Suite struct EndpointTests {
    @Test func listsServeTheGen1DataSet() async throws {
        try await TestServer.with { server async throws in
            let collections: [NFTCollection] = try await server.get("/api/v1/collections")
            #expect(
                collections.map(\.name) == [
                    "Beige", "Blue", "Gray", "Green", "Peach", "Pink", "White", "Yellow", "Brown",
                ])
            #expect(collections.map(\.nfts.count) == [21, 5, 19, 3, 11, 14, 7, 8, 7])
            #expect(collections[0].author == "6" && collections[0].cover.hasSuffix("Обложки_коллекций/Beige.png"))
            let nfts: [NFT] = try await server.get("/api/v1/nft")
            #expect(nfts.count == 95)
            #expect(
                nfts.allSatisfy {
                    (1...5).contains($0.rating) && $0.price >= 0.01 && $0.price <= 10 && $0.images.count == 3
                })
            let users: [User] = try await server.get("/api/v1/users")
            #expect(users.count == 100)
            #expect(users[0].rating == "77" && users[0].nfts == ["1", "4", "6", "8"])
            let currencies: [Currency] = try await server.get("/api/v1/currencies")
            #expect(currencies.map(\.name) == ["BTC", "DOGE", "USDT", "APE", "SOL", "ETH", "ADA", "SHIB"])
            let profile: Profile = try await server.get("/api/v1/profile/1")
            #expect(profile.name == "Студентус Практикумус" && profile.nfts.count == 13 && profile.likes.count == 12)
            let order: Order = try await server.get("/api/v1/orders/1")
            #expect(order.nfts == ["93", "94", "95"])
        }
    }

    @Test func byIDEndpointsAndShapes() async throws {
        try await TestServer.with { server async throws in
            let nft: NFT = try await server.get("/api/v1/nft/1")
            #expect(
                nft.name == "April"
                    && nft.images[0] == server.baseURL.absoluteString + "/images/Mobile/iOS/NFT/Beige/April/1.png")
            let collection: NFTCollection = try await server.get("/api/v1/collections/5")
            #expect(collection.name == "Peach" && collection.nfts.count == 11)
            let currency: Currency = try await server.get("/api/v1/currencies/2")
            #expect(currency.title == "Dogecoin")
            // Users' rating is a string and ids are strings in the raw JSON.
            let (_, raw) = try await server.request("GET", "/api/v1/users/1")
            let object = try #require(try JSONSerialization.jsonObject(with: raw) as? [String: Any])
            #expect(object["rating"] is String && object["id"] is String)
            // The same data twice: seeding is deterministic.
            try await TestServer.with { other async throws in
                var again: NFT = try await other.get("/api/v1/nft/1")
                again.images = again.images.map {
                    $0.replacingOccurrences(of: other.baseURL.absoluteString, with: server.baseURL.absoluteString)
                }
                #expect(again == nft)
            }
        }
    }

    @Test func pagingAndSorting() async throws {
        try await TestServer.with { server async throws in
            let page1: [User] = try await server.get("/api/v1/users?page=1&size=10")
            #expect(page1.map(\.id) == (11...20).map(String.init))
            let byRating: [User] = try await server.get("/api/v1/users?page=0&size=3&sortBy=rating,desc")
            #expect(byRating.map(\.rating) == ["100", "99", "98"])
            let mockapi: [User] = try await server.get("/api/v1/users?sortBy=rating&order=desc&limit=2&foo=bar")
            #expect(mockapi.map(\.rating) == ["100", "99"])
            let byName: [User] = try await server.get("/api/v1/users?sortBy=name,asc")
            #expect(byName.map(\.name) == byName.map(\.name).sorted())
            let byCount: [NFTCollection] = try await server.get("/api/v1/collections?sortBy=nfts,desc")
            #expect(byCount.first?.name == "Beige" && byCount.last?.name == "Green")
            let nftPage: [NFT] = try await server.get("/api/v1/nft?page=1&size=10")
            #expect(nftPage.map(\.id) == (11...20).map(String.init))
            let encodedSort: [User] = try await server.get("/api/v1/users?sortBy=rating%2Cdesc&size=1")
            #expect(encodedSort.first?.rating == "100")
        }
    }

    /// `name=` (an extension): the entities whose name contains it, case and diacritics
    /// ignored, in the order asked, paged after filtering.
    @Test func nameFiltersListsIgnoringCaseAndDiacritics() async throws {
        try await TestServer.with { server async throws in
            func fold(_ s: String) -> String {
                s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            }
            let everyone: [User] = try await server.get("/api/v1/users")
            let expected = everyone.filter { fold($0.name).contains("li") }
            #expect(!expected.isEmpty && expected.count < everyone.count)
            let found: [User] = try await server.get("/api/v1/users?name=L%C3%8E")  // "LÎ"
            #expect(found.map(\.id) == expected.map(\.id))
            let byRating: [User] = try await server.get("/api/v1/users?name=li&sortBy=rating,desc")
            #expect(byRating.map(\.ratingValue) == expected.map(\.ratingValue).sorted(by: >))
            let second: [User] = try await server.get("/api/v1/users?name=li&page=1&size=2")
            #expect(second.map(\.id) == Array(expected.map(\.id).dropFirst(2).prefix(2)))
            let collections: [NFTCollection] = try await server.get("/api/v1/collections?name=BLUE")
            #expect(collections.map(\.name) == ["Blue"])
            let nfts: [NFT] = try await server.get("/api/v1/nft?name=zzzz")
            #expect(nfts.isEmpty)
            let blank: [User] = try await server.get("/api/v1/users?name=%20")
            #expect(blank.count == everyone.count, "a blank name filters nothing")
            let long: [User] = try await server.get("/api/v1/users?name=" + String(repeating: "a", count: 5_000))
            #expect(long.isEmpty, "a long name is cut, not an error")
        }
    }

    @Test func errorsAreJSONWithProperStatus() async throws {
        try await TestServer.with { server async throws in
            let cases: [(String, String, String?, Int)] = [
                ("GET", "/api/v1/nft/999", nil, 404),
                ("GET", "/api/v1/users/nope", nil, 404),
                ("GET", "/api/v1/collections/0", nil, 404),
                ("GET", "/api/v1/currencies/42", nil, 404),
                ("GET", "/api/v1/orders/1/payment/42", nil, 404),
                ("GET", "/api/v1/profile/2", nil, 404),
                ("GET", "/api/v1/unknown", nil, 404),
                ("DELETE", "/api/v1/profile/1", nil, 405),
                ("POST", "/api/v1/nft", nil, 405),
                ("GET", "/api/v1/users?page=-1", nil, 400),
                ("GET", "/api/v1/users?size=abc", nil, 400),
                ("PUT", "/api/v1/profile/1", "likes=1,999", 400),
                ("PUT", "/api/v1/orders/1", "nfts=abc", 400),
                ("PUT", "/api/v1/profile/1", "name=", 400),
                ("PUT", "/api/v1/profile/1", "{\"likes\": [", 400),
                ("PUT", "/api/v1/profile/1", "{\"likes\": {\"a\": 1}}", 400),
            ]
            for (method, path, body, status) in cases {
                let (got, data) = try await server.request(
                    method, path, body: body,
                    contentType: body?.hasPrefix("{") == true ? "application/json" : "application/x-www-form-urlencoded"
                )
                #expect(got == status, "\(method) \(path) \(body ?? "")")
                #expect(
                    TestServer.errorMessage(data)?.isEmpty == false,
                    "\(method) \(path): \(String(decoding: data, as: UTF8.self))")
            }
            let big = "name=" + String(repeating: "x", count: 70_000)
            #expect(try await server.request("PUT", "/api/v1/profile/1", body: big).status == 413)
            let profile: Profile = try await server.get("/api/v1/profile/1")
            #expect(profile.likes.count == 12, "failed requests changed nothing")
        }
    }

    /// What the app's form refuses, the server refuses too: nothing oversized or carrying an
    /// escape sequence reaches the profile, nor /users for an account.
    @Test func profileFieldsFollowTheRules() async throws {
        try await TestServer.with { server async throws in
            let refused: [(String, String, String)] = [
                ("name", String(repeating: "N", count: 5_000), "at most 100"),
                ("name", "Eve\u{1B}[2J", "control characters"),
                ("name", "Eve\u{202E}", "control characters"),
                ("description", String(repeating: "d", count: 501), "at most 500"),
                ("description", "x\u{1B}]52;c;AAAA\u{07}", "control characters"),
                ("website", "https://a.example/" + String(repeating: "w", count: 2_048), "at most 2048"),
                ("website", "javascript:alert(1)", "http(s)"), ("avatar", "https://a.example/x y.png", "control"),
            ]
            for (field, value, reason) in refused {
                let (status, body) = try await server.request(
                    "PUT", "/api/v1/profile/1", body: FormEncoding.encode([(field, value)]),
                    contentType: "application/x-www-form-urlencoded")
                let message = TestServer.errorMessage(body) ?? ""
                #expect(status == 400 && message.contains(field) && message.contains(reason), "\(field): \(message)")
            }
            let kept: Profile = try await server.get("/api/v1/profile/1")
            #expect(
                kept.name == "Студентус Практикумус" && kept.website == "https://practicum.yandex.ru/ios-developer/")
            let fine = [
                ("name", String(repeating: "Я", count: 100)), ("description", "two\nlines"),
                ("website", ""), ("avatar", "https://a.example/" + String(repeating: "a", count: 2_000)),
            ]
            let (status, _) = try await server.request(
                "PUT", "/api/v1/profile/1", body: FormEncoding.encode(fine),
                contentType: "application/x-www-form-urlencoded")
            #expect(status == 200)
            let changed: Profile = try await server.get("/api/v1/profile/1")
            #expect(changed.name.count == 100 && changed.description == "two\nlines" && changed.website.isEmpty)
        }
    }

    /// An NFT is bought once: an order holding one the buyer owns is refused with a reason, on
    /// every way into the order, and nothing changes (neither the order nor what was spent).
    @Test func anOwnedNFTCannotBeOrderedOrPaidAgain() async throws {
        try await TestServer.with { server async throws in
            let profile: Profile = try await server.get("/api/v1/profile/1")
            let owned = try #require(profile.nfts.first)
            for (method, path, body) in [
                ("PUT", "/api/v1/orders/1", "nfts=93,\(owned)"), ("POST", "/api/v1/orders/1", "nfts=\(owned)"),
            ] {
                let (status, data) = try await server.request(method, path, body: body)
                #expect(status == 409, "\(method) \(body)")
                #expect(
                    TestServer.errorMessage(data)?.contains("'\(owned)' is already owned") == true,
                    "\(String(decoding: data, as: UTF8.self))")
            }
            let order: Order = try await server.get("/api/v1/orders/1")
            #expect(order.nfts == ["93", "94", "95"], "refused orders changed nothing")
            // What is not owned is still bought, once.
            #expect(try await server.request("PUT", "/api/v1/orders/1", body: "nfts=1").status == 200)
            #expect(try await server.request("GET", "/api/v1/orders/1/payment/1").status == 200)
            #expect(try await server.request("PUT", "/api/v1/orders/1", body: "nfts=1").status == 409)
            let after: Profile = try await server.get("/api/v1/profile/1")
            #expect(after.nfts == profile.nfts + ["1"])
        }
    }

    @Test func tokenIsCheckedWhenConfigured() async throws {
        try await TestServer.with(token: "secret") { server async throws in
            #expect(try await server.request("GET", "/api/v1/nft/1").status == 200)
            let (missing, body) = try await server.request(
                "GET", "/api/v1/nft/1", headers: ["X-Practicum-Mobile-Token": ""])
            #expect(missing == 401 && TestServer.errorMessage(body) != nil)
            #expect(
                try await server.request("GET", "/api/v1/nft/1", headers: ["X-Practicum-Mobile-Token": "wrong"]).status
                    == 401)
        }
    }
}
