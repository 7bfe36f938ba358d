import FakeNFTModels
import Foundation

/// Everything the server serves, as seeded into a fresh database.
public struct Dataset: Sendable {
    public var collections: [NFTCollection]
    public var nfts: [NFT]
    public var users: [User]
    public var currencies: [Currency]
    public var profile: Profile
    public var order: Order
    /// Payment outcome per currency id.
    public var paymentSucceeds: [String: Bool]
}

extension Dataset {
    /// A small deterministic random generator (SplitMix64), so seeded data is the same on every machine.
    struct SeededGenerator: RandomNumberGenerator {
        private var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}

extension Dataset {
    /// Where the data set's user avatars are, each `N.jpg` (1-1000).
    private static let avatarFolder =
        "https://cloudflare-ipfs.com/ipfs/Qmd3W5DuhgHirLHGVixi6V76LhCkZUz6pnFt5AJBiyvHye/avatar/"

    /// The first-generation data set: 9 colour collections with their 95 NFTs, 100 users,
    /// 8 currencies, the profile and the order, with the real image URLs. Random fields follow
    /// the generator's rules with a fixed seed.
    public static func gen1() throws -> Dataset {
        let source = try Gen1Source.load()
        var random = SeededGenerator(seed: 2023)
        let createdAt = "2023-04-20T02:22:27Z"
        var nfts: [NFT] = []
        var collections: [NFTCollection] = []
        for (index, collection) in source.collections.enumerated() {
            let collectionID = index + 1
            let author = String(collectionID * 3 + 3)
            var ids: [String] = []
            for name in collection.nft_names {
                let id = nfts.count + 1
                let base = "https://code.s3.yandex.net/Mobile/iOS/NFT/\(collection.name)/\(name)"
                nfts.append(
                    NFT(
                        id: String(id), name: name, images: (1...3).map { "\(base)/\($0).png" },
                        rating: Int.random(in: 1...5, using: &random),
                        description: source.nft_descriptions_first20[id % source.nft_descriptions_first20.count],
                        price: (Double.random(in: 0.01...10.0, using: &random) * 100).rounded() / 100,
                        author: author, createdAt: createdAt))
                ids.append(String(id))
            }
            collections.append(
                NFTCollection(
                    id: String(collectionID), name: collection.name,
                    cover: "https://code.s3.yandex.net/Mobile/iOS/NFT/Обложки_коллекций/\(collection.name).png",
                    nfts: ids,
                    description: source.collection_descriptions[collectionID % source.collection_descriptions.count],
                    author: author, createdAt: createdAt))
        }
        let users = (1...100).map { id in
            User(
                id: String(id),
                name: source.userName(using: &random),
                avatar: Self.avatarFolder + "\(Int.random(in: 1...1000, using: &random)).jpg",
                description: source.user_descriptions_first10[id % source.user_descriptions_first10.count],
                website: source.user_websites_first12[id % source.user_websites_first12.count],
                nfts: (source.user_nfts[String(id)] ?? []).map(String.init),
                rating: String((177 - id) % 100 + 1))
        }
        return Dataset(
            collections: collections, nfts: nfts, users: users, currencies: source.currencies,
            profile: source.profile, order: source.order,
            paymentSucceeds: Dictionary(uniqueKeysWithValues: source.payments.map { ($0.id, $0.success) }))
    }

    /// The first-generation data plus `users` generated users and `nfts` generated NFTs in
    /// collections of 100, for paging tests and benchmarks.
    public static func large(users userCount: Int, nfts nftCount: Int) throws -> Dataset {
        var data = try gen1()
        let source = try Gen1Source.load()
        var random = SeededGenerator(seed: 42)
        let names = source.collections.flatMap(\.nft_names)
        let extra = max(0, nftCount - data.nfts.count)
        for i in 0..<extra {
            let id = data.nfts.count + 1
            let name = names[i % names.count]
            data.nfts.append(
                NFT(
                    id: String(id), name: "\(name) #\(i / names.count + 2)",
                    images: (1...3).map { "https://code.s3.yandex.net/Mobile/iOS/NFT/Beige/\(name)/\($0).png" },
                    rating: Int.random(in: 1...5, using: &random),
                    description: source.nft_descriptions_first20[id % source.nft_descriptions_first20.count],
                    price: (Double.random(in: 0.01...10.0, using: &random) * 100).rounded() / 100,
                    author: "1", createdAt: "2023-04-20T02:22:27Z"))
        }
        let extraIDs = data.nfts.dropFirst(95).map(\.id)
        for (n, start) in stride(from: 0, to: extraIDs.count, by: 100).enumerated() {
            let id = data.collections.count + 1
            data.collections.append(
                NFTCollection(
                    id: String(id), name: "Generated \(n + 1)",
                    cover: "https://code.s3.yandex.net/Mobile/iOS/NFT/Обложки_коллекций/Beige.png",
                    nfts: Array(extraIDs[start..<min(start + 100, extraIDs.count)]),
                    description: source.collection_descriptions[id % source.collection_descriptions.count],
                    author: "1", createdAt: "2023-04-20T02:22:27Z"))
        }
        let allIDs = data.nfts.map(\.id)
        for i in data.users.count..<max(data.users.count, userCount) {
            let id = i + 1
            data.users.append(
                User(
                    id: String(id),
                    name: source.userName(using: &random),
                    avatar: Self.avatarFolder + "\(id % 1000 + 1).jpg",
                    description: id % 7 == 0
                        ? nil : source.user_descriptions_first10[id % source.user_descriptions_first10.count],
                    website: source.user_websites_first12[id % source.user_websites_first12.count],
                    nfts: (0..<Int.random(in: 0...12, using: &random)).map { _ in allIDs.randomElement(using: &random)!
                    },
                    rating: String(id)))
        }
        return data
    }
}

extension Dataset {
    /// The first-generation files bundled with the server (copies of the shared spec's `gen1-*` fixtures).
    private struct Gen1Source: Decodable {
        struct Collection: Decodable {
            var name: String
            var nft_names: [String]
        }
        struct Payment: Decodable {
            var id: String
            var success: Bool
        }

        var collections: [Collection]
        var collection_descriptions: [String]
        var nft_descriptions_first20: [String]
        var user_descriptions_first10: [String]
        var user_websites_first12: [String]
        var user_first_names: [String]
        var user_surnames: [String]
        var user_nfts: [String: [Int]]
        var currencies: [Currency] = []
        var payments: [Payment] = []
        var profile = Profile(id: "1", name: "", avatar: "", description: "", website: "", nfts: [], likes: [])
        var order = Order(nfts: [])

        /// A first name and a surname of the data set's, at random.
        func userName(using random: inout SeededGenerator) -> String {
            "\(user_first_names.randomElement(using: &random)!) \(user_surnames.randomElement(using: &random)!)"
        }

        enum CodingKeys: String, CodingKey {
            case collections, collection_descriptions, nft_descriptions_first20, user_descriptions_first10,
                user_websites_first12, user_first_names, user_surnames, user_nfts
        }

        static func load() throws -> Gen1Source {
            func file(_ name: String) throws -> Data {
                guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "gen1") else {
                    throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "gen1/\(name).json"])
                }
                return try Data(contentsOf: url)
            }
            let decoder = JSONDecoder()
            var source = try decoder.decode(Gen1Source.self, from: file("gen1-generator-dataset.derived"))
            source.currencies = try decoder.decode([Currency].self, from: file("gen1-generator-currencies"))
            source.payments = try decoder.decode([Payment].self, from: file("gen1-generator-payment-results"))
            source.profile = try decoder.decode([Profile].self, from: file("gen1-generator-profile"))[0]
            source.order = try decoder.decode([Order].self, from: file("gen1-generator-orders"))[0]
            return source
        }
    }
}
