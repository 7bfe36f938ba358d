import FakeNFTCore
import FakeNFTServer
import Foundation

enum ServerBenchmarks {
    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("fakenft-bench-\(UUID().uuidString)")
    }

    /// Opening a 100-NFT collection from the client against a server that waits 50 ms per answer.
    static func collectionWithLatency() async throws {
        let server = try await FakeNFTServer.start(
            ServerConfiguration(
                port: 0, dataDirectory: temporaryDirectory(),
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
        report(
            "open a 100-NFT collection, --latency 50 (median of 5)",
            "\(format(samples.median, 0)) ms (one at a time: ~\(100 * 50) ms)")
    }

    /// A like sent by one client until another client of the same profile has it through
    /// `/api/v1/events` (the target: within 100 ms), 200 likes.
    static func liveUpdate() async throws {
        let server = try await FakeNFTServer.start(ServerConfiguration(port: 0, dataDirectory: temporaryDirectory()))
        let configuration = APIConfiguration(baseURL: server.baseURL)
        let sender = ProfileService(api: APIClient(configuration)),
            receiver = ProfileService(api: APIClient(configuration))
        try await sender.load()
        try await receiver.load()
        let listening = Task {
            try await ServerEvents(configuration).listen { event in
                if case .profile(let profile) = event { await receiver.received(profile) }
            }
        }
        try await Task.sleep(for: .milliseconds(200))  // subscribed
        var samples = Samples()
        let updates = receiver.updates()
        var iterator = updates.makeAsyncIterator()
        _ = await iterator.next()  // the latest, at once
        for i in 0..<200 {
            let nft = String(i % 90 + 1)
            let liked = receiver.current?.likes.contains(nft) ?? false
            let start = ContinuousClock.now
            try await sender.toggleLike(nft)
            while let profile = await iterator.next(), profile.likes.contains(nft) == liked {}
            samples.add(milliseconds(ContinuousClock.now - start))
        }
        listening.cancel()
        report(
            "a like in one client shown in another, median / p99",
            "\(format(samples.median, 2)) / \(format(samples.percentile(0.99), 2)) ms (target < 100 ms)")
        await server.stop()
    }

    /// From nothing to the first answer: a fresh data folder (seeding included) and an existing one.
    static func coldStart() async throws {
        for (label, directory) in [
            ("fresh data folder", temporaryDirectory()), ("existing data folder", temporaryDirectory()),
        ] {
            if label.hasPrefix("existing") {
                let seed = try await FakeNFTServer.start(ServerConfiguration(port: 0, dataDirectory: directory))
                await seed.stop()
            }
            let start = ContinuousClock.now
            let server = try await FakeNFTServer.start(ServerConfiguration(port: 0, dataDirectory: directory))
            _ = try await APIClient(APIConfiguration(baseURL: server.baseURL)).profile()
            report(
                "embedded server cold start to first answer (\(label))",
                "\(format(milliseconds(ContinuousClock.now - start), 1)) ms")
            await server.stop()
        }
    }
}
