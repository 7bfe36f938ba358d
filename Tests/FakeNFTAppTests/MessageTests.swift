import FakeNFTCore
import Foundation
import Localization
import Logging
import Synchronization
import Testing
import FakeNFTTesting
@testable import FakeNFTApp

/// Failures are said in the interface's language; a server's own words go to the log only.
@Suite struct MessageTests {
    @Test func aServerErrorIsSaidInTheAppsWordsInBothLanguages() async {
        let error = APIError.server(status: 500, message: "\u{1B}[31mdisk full on db-7")
        await Language.with(.en) { #expect(error.message == "Server error 500.") }
        await Language.with(.ru) {
            #expect(error.message == "Ошибка сервера 500.")
            #expect(
                APIError.offline("http://h:1").message == "Сервер http://h:1 недоступен. Проверьте, что он запущен.")
            #expect(WebPageError.status(404).message == "Сайт ответил 404.")
            #expect(SafeLink.Refusal.notWeb(scheme: "javascript").message.contains("javascript:"))
        }
    }

    /// Collects log messages.
    final class Collected: Sendable {
        let lines = Mutex<[String]>([])
        struct Handler: LogHandler {
            let collected: Collected
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(event: LogEvent) { collected.lines.withLock { $0.append(event.message.description) } }
        }
    }

    @Test func whatTheServerSaidGoesToTheLog() async throws {
        let collected = Collected()
        try await TestServer.with { server async throws in
            let api = APIClient(
                APIConfiguration(baseURL: server.baseURL),
                logger: Logger(label: "test") { _ in Collected.Handler(collected: collected) })
            await #expect(throws: APIError.notFound) { try await api.nft(id: "no-such-nft") }
            let (_, body) = try await server.request("GET", "/api/v1/nft/no-such-nft")
            let said = try #require(TestServer.errorMessage(body))
            #expect(collected.lines.withLock { $0 }.contains { $0.contains("the server said \(said)") })
        }
    }
}
