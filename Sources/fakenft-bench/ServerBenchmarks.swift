import FakeNFTCore
import FakeNFTServer
import Foundation
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

enum ServerBenchmarks {
    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("fakenft-bench-\(UUID().uuidString)")
    }

    /// Requests per second and latency percentiles with `concurrency` clients over loopback.
    static func throughput(name: String, requests: Int, concurrency: Int, make: @escaping @Sendable (Int) -> URLRequest) async throws {
        let config = URLSessionConfiguration.ephemeral
        config.httpMaximumConnectionsPerHost = concurrency
        let session = URLSession(configuration: config)
        for i in 0..<50 { _ = try await session.data(for: make(i)) }   // warm up connections
        let clock = ContinuousClock()
        let start = clock.now
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var mine: [Double] = []
                    for i in stride(from: worker, to: requests, by: concurrency) {
                        let t = clock.now
                        let (_, response) = try await session.data(for: make(i))
                        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw SpawnError(description: "\(name): bad status") }
                        mine.append(milliseconds(clock.now - t))
                    }
                    return mine
                }
            }
            var all: [Double] = []
            for try await part in group { all += part }
            return all
        }
        let seconds = milliseconds(clock.now - start) / 1000
        var samples = Samples()
        latencies.forEach { samples.add($0) }
        report("\(name): throughput (\(concurrency) clients)", "\(Int(Double(requests) / seconds)) req/s")
        report("\(name): latency median / p99", "\(format(samples.median)) / \(format(samples.percentile(0.99))) ms")
    }

    static func serverThroughput() async throws {
        let server = try await FakeNFTServer.start(ServerConfiguration(port: 0, dataDirectory: temporaryDirectory()))
        defer { Task { await server.stop() } }
        let base = server.baseURL.absoluteString
        try await throughput(name: "GET /api/v1/nft/{id}", requests: 5_000, concurrency: 8) { i in
            URLRequest(url: URL(string: "\(base)/api/v1/nft/\(i % 95 + 1)")!)
        }
        try await throughput(name: "PUT /api/v1/profile/1", requests: 3_000, concurrency: 8) { i in
            var request = URLRequest(url: URL(string: "\(base)/api/v1/profile/1")!)
            request.httpMethod = "PUT"
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data("name=Bench%20\(i)&likes=\(i % 95 + 1),\((i + 7) % 95 + 1)".utf8)
            return request
        }
        await server.stop()
    }

    /// Opening a 100-NFT collection from the client against a server that waits 50 ms per answer.
    static func collectionWithLatency() async throws {
        let server = try await FakeNFTServer.start(ServerConfiguration(port: 0, dataDirectory: temporaryDirectory(),
                                                                      latencyMilliseconds: 50, seed: .large(users: 100, nfts: 195)))
        defer { Task { await server.stop() } }
        var samples = Samples()
        // The app opens a collection it already has from the catalog list: only the NFTs are fetched.
        let collection = try await APIClient(APIConfiguration(baseURL: server.baseURL)).collection(id: "10")
        for _ in 0..<5 {
            let catalog = CatalogService(api: APIClient(APIConfiguration(baseURL: server.baseURL)))
            let start = ContinuousClock.now
            let nfts = try await catalog.nfts(ids: collection.nfts)
            precondition(nfts.count == 100)
            samples.add(milliseconds(ContinuousClock.now - start))
        }
        report("open a 100-NFT collection, --latency 50 (median of 5)", "\(format(samples.median, 0)) ms (one at a time: ~\(100 * 50) ms)")
    }

    /// From nothing to the first answer: a fresh data folder (seeding included) and an existing one.
    static func coldStart() async throws {
        for (label, directory) in [("fresh data folder", temporaryDirectory()), ("existing data folder", temporaryDirectory())] {
            if label.hasPrefix("existing") {
                let seed = try await FakeNFTServer.start(ServerConfiguration(port: 0, dataDirectory: directory))
                await seed.stop()
            }
            let start = ContinuousClock.now
            let server = try await FakeNFTServer.start(ServerConfiguration(port: 0, dataDirectory: directory))
            _ = try await APIClient(APIConfiguration(baseURL: server.baseURL)).profile()
            report("embedded server cold start to first answer (\(label))", "\(format(milliseconds(ContinuousClock.now - start), 1)) ms")
            await server.stop()
        }
    }
}
