import FakeNFTServer
import Foundation
import Hummingbird
import Testing
import FakeNFTTesting
@testable import FakeNFTCore

/// Answers too big to read fail fast with a clear error instead of filling memory.
@Suite struct ResponseLimitTests {
    @Test func endlessHugeAndAnnouncedBodiesAreRefused() async throws {
        let router = Router()
        let chunk = ByteBuffer(repeating: UInt8(ascii: " "), count: 64 * 1024)
        router.get("api/v1/nft") { _, _ in   // chunked, never ends
            Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "["))
                while true { try await writer.write(chunk) }
            })
        }
        router.get("api/v1/collections") { _, _ in   // 5 MB with a Content-Length
            Response(status: .ok, headers: [.contentType: "application/json"],
                     body: .init(byteBuffer: ByteBuffer(string: "[" + String(repeating: "{\"id\":\"1\"},", count: 500_000) + "{\"id\":\"1\"}]")))
        }
        router.get("api/v1/currencies") { _, _ in   // just under the limit: read
            Response(status: .ok, headers: [.contentType: "application/json"],
                     body: .init(byteBuffer: ByteBuffer(string: "[" + String(repeating: " ", count: APIClient.maxResponseBytes - 2) + "]")))
        }
        try await withRouter(router) { url in
            let api = APIClient(APIConfiguration(baseURL: url, timeout: 20))
            await #expect(throws: APIError.tooLarge(limitBytes: APIClient.maxResponseBytes)) { try await api.nfts(page: 0, size: 10) }
            await #expect(throws: APIError.tooLarge(limitBytes: APIClient.maxResponseBytes)) { try await api.collections() }
            let currencies = try await api.currencies()
            #expect(currencies.isEmpty)
            #expect(APIError.tooLarge(limitBytes: APIClient.maxResponseBytes).userMessage.contains("4 MB"))
        }
    }
}

/// A list of more ids than the app fetches: the first ``CatalogService/maxListedNFTs`` only.
@Suite struct ListedNFTLimitTests {
    @Test func aLongListFetchesItsFirstThousand() async throws {
        try await TestServer.with(seed: .large(users: 100, nfts: 1_200)) { server async throws in
            let ids = (1...1_200).map(String.init)
            let nfts = try await CatalogService(api: server.client()).nfts(ids: ids)
            #expect(nfts.map(\.id) == Array(ids.prefix(CatalogService.maxListedNFTs)))
        }
    }
}
