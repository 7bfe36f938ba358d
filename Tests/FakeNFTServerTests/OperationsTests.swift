import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing
import FakeNFTTesting
@testable import FakeNFTServer

/// `/health` and `/metrics`, for those who run the server.
@Suite struct OperationsTests {
    @Test func healthSaysTheDatabaseAnswers() async throws {
        try await TestServer.with(token: "class-token") { server async throws in
            let (status, body) = try await server.request("GET", "/health", headers: ["X-Practicum-Mobile-Token": ""])
            #expect(status == 200, "no token needed")
            let health = try JSONDecoder().decode([String: String].self, from: body)
            #expect(health == ["status": "ok", "database": "ok"])
            let ready = try await server.request("GET", "/health/ready", headers: ["X-Practicum-Mobile-Token": ""])
            #expect(ready.status == 200 && ready.body == body, "ready: /health's answer")
            let live = try await server.request("GET", "/health/live", headers: ["X-Practicum-Mobile-Token": ""])
            #expect(live.status == 200 && String(decoding: live.body, as: UTF8.self) == #"{"status":"ok"}"#)
        }
    }

    /// `/metrics` is no public page: on the API's port only loopback clients get it (a client a
    /// trusted proxy names is not one); `--metrics-address` moves it to a listener of its own.
    @Test func metricsAreForLoopbackOrTheirOwnListener() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(UUID())")
        var configuration = ServerConfiguration(
            port: 0, dataDirectory: directory, postgresURL: TestStore.isPostgres ? try TestStore.newDatabase() : nil)
        configuration.trustedProxies = [IPAddressRange("127.0.0.1")!]
        let onAPIPort = try await FakeNFTServer.start(configuration)
        func get(_ url: URL, forwardedFor: String? = nil) async throws -> Int {
            var request = URLRequest(url: url)
            if let forwardedFor { request.setValue(forwardedFor, forHTTPHeaderField: "X-Forwarded-For") }
            return (try await URLSession.shared.data(for: request).1 as! HTTPURLResponse).statusCode
        }
        let metrics = onAPIPort.baseURL.appendingPathComponent("metrics")
        #expect(try await get(metrics) == 200)
        #expect(try await get(metrics, forwardedFor: "203.0.113.9") == 404, "a client behind the proxy")
        await onAPIPort.stop()
        let port = try freeLoopbackPort()
        configuration.metrics = .listener(host: "127.0.0.1", port: port)
        let ownListener = try await FakeNFTServer.start(configuration)
        #expect(try await get(ownListener.baseURL.appendingPathComponent("metrics")) == 404, "not on the API's port")
        #expect(try await get(URL(string: "http://127.0.0.1:\(port)/metrics")!) == 200)
        await ownListener.stop()
        configuration.metrics = .off
        let off = try await FakeNFTServer.start(configuration)
        #expect(try await get(off.baseURL.appendingPathComponent("metrics")) == 404)
        await off.stop()
    }

    @Test func metricsCountRequestsByRouteAndStatusWithTheirLatency() async throws {
        try await TestServer.with { server async throws in
            for id in ["1", "2", "3"] { #expect(try await server.request("GET", "/api/v1/nft/\(id)").status == 200) }
            #expect(try await server.request("GET", "/api/v1/nft/no-such").status == 404)
            #expect(try await server.request("GET", "/api/v1/nope").status == 404)
            #expect(try await server.request("DELETE", "/api/v1/profile/1").status == 405)
            let (status, body, headers) = try await server.exchange("GET", "/metrics")
            #expect(status == 200 && headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
            let lines = String(decoding: body, as: UTF8.self).split(separator: "\n").map(String.init)
            func value(_ metric: String, _ labels: [String]) -> Double? {
                lines.first { $0.hasPrefix(metric + "{") && labels.allSatisfy($0.contains) }.flatMap {
                    Double($0.split(separator: " ").last ?? "")
                }
            }
            let route = "route=\"/api/v1/nft/{id}\""
            #expect(
                value("fakenft_http_requests_total", [route, "method=\"GET\"", "status=\"200\""]) == 3,
                "\(lines.filter { $0.contains("requests_total") })")
            #expect(value("fakenft_http_requests_total", [route, "status=\"404\""]) == 1)
            #expect(value("fakenft_http_requests_total", ["route=\"unmatched\"", "status=\"404\""]) == 1)
            #expect(value("fakenft_http_requests_total", ["method=\"DELETE\"", "status=\"405\""]) == 1)
            #expect(value("fakenft_http_request_duration_seconds_count", [route, "method=\"GET\""]) == 4)
            #expect(value("fakenft_http_request_duration_seconds_bucket", [route, "le=\"+Inf\""]) == 4)
            #expect(lines.contains { $0.hasPrefix("fakenft_http_requests_in_flight") }, "the requests in flight")
            // The background jobs by name: a pool's loop on PostgreSQL (this server's, and those of other
            // tests' servers in this process), none on SQLite unless another test runs one.
            for job in BackgroundJobs.Name.allCases {
                #expect(value("fakenft_background_jobs", ["job=\"\(job.rawValue)\""]) != nil, "\(job.rawValue)")
            }
            if TestStore.isPostgres { #expect((value("fakenft_background_jobs", ["job=\"postgres-pool\""]) ?? 0) >= 1) }
            // The connection pool's use, on PostgreSQL only (20 connections at most).
            let pool = lines.filter { $0.hasPrefix("fakenft_db_connections_") }.sorted()
            if TestStore.isPostgres {
                #expect(
                    pool.count == 2 && pool[1] == "fakenft_db_connections_max 20.0"
                        && pool[0].hasPrefix("fakenft_db_connections_in_use "), "\(pool)")
            } else {
                #expect(pool.isEmpty)
            }
        }
    }
}
