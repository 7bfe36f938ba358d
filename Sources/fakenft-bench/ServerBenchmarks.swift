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
    /// `/api/v1/events` (the target: within 100 ms), 200 likes: both clients on one server, then
    /// on two servers sharing one data folder (two app windows, each with its embedded server).
    static func liveUpdate() async throws {
        let directory = temporaryDirectory()
        let first = try await FakeNFTServer.start(ServerConfiguration(port: 0, dataDirectory: directory))
        let second = try await FakeNFTServer.start(ServerConfiguration(port: 0, dataDirectory: directory))
        for (label, receiver) in [("in another", first.baseURL), ("in another window (data folder)", second.baseURL)] {
            let samples = try await likeDelays(sender: first.baseURL, receiver: receiver)
            report(
                "a like in one client shown \(label), median / p99",
                "\(format(samples.median, 2)) / \(format(samples.percentile(0.99), 2)) ms (target < 100 ms)")
        }
        await first.stop()
        await second.stop()
    }

    /// 200 likes sent through `sender`, each until the events of `receiver` bring it.
    private static func likeDelays(sender: URL, receiver: URL) async throws -> Samples {
        let sending = ProfileService(api: APIClient(APIConfiguration(baseURL: sender))),
            receiving = ProfileService(api: APIClient(APIConfiguration(baseURL: receiver)))
        var sent = try await sending.load().map(\.likes)
        try await receiving.load()
        let listening = Task {
            try await ServerEvents(APIConfiguration(baseURL: receiver)).listen { event in
                if case .profile(let profile) = event { await receiving.received(profile) }
            }
        }
        defer { listening.cancel() }
        try await Task.sleep(for: .milliseconds(200))  // subscribed
        var samples = Samples()
        var iterator = receiving.updates().makeAsyncIterator()
        _ = await iterator.next()  // the latest, at once
        for i in 0..<200 {
            let nft = String(i % 90 + 1)
            let liked = receiving.current?.likes.contains(nft) ?? false
            let likes = liked ? sent.value.filter { $0 != nft } : sent.value + [nft]
            let start = ContinuousClock.now
            sent = try await sending.sendLikes(likes, ifVersion: sent.version).map(\.likes)
            while let profile = await iterator.next(), profile.value.likes.contains(nft) == liked {}
            samples.add(milliseconds(ContinuousClock.now - start))
        }
        return samples
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
