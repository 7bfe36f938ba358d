// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "FakeNFT",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "fakenft", targets: ["fakenft"]),
        .executable(name: "fakenft-fuzz", targets: ["fakenft-fuzz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/LebJe/TOMLKit.git", from: "0.6.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-async-algorithms.git", from: "1.1.4"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio-ssh.git", from: "0.15.1"),
    ],
    targets: [
        .systemLibrary(name: "CNCursesW", providers: [.apt(["libncurses-dev"])]),
        .systemLibrary(name: "CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev", "libglib2.0-dev"])]),
        // Every string the interface shows, in English and Russian, with plural rules.
        .target(name: "Localization"),
        // An alternate signal stack for every thread, so a crash handler runs after a stack overflow.
        .target(name: "CSignalStacks"),
        .target(name: "TerminalUI", dependencies: ["CNCursesW", "CChafa", "ImageEncoding", "CSignalStacks"]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // The Sendable models and their wire formats (lenient JSON, form encoding, id lists): what the
        // server and the client core share, and all the server knows of the client's side.
        .target(name: "FakeNFTModels"),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The offline image set: pictures drawn by code from an image URL's path, as PNG.
        .target(name: "ImageEncoding", dependencies: ["CZlib"]),
        .target(name: "FakeNFTArt", dependencies: ["ImageEncoding"]),
        // PNG and JPEG decoding (libpng's simplified API, libjpeg-turbo) with size caps, for pictures.
        .target(name: "CImageDecode", linkerSettings: [.linkedLibrary("png"), .linkedLibrary("jpeg")]),
        // AES-GCM on libcrypto with a key schedule made once: the SSH front's packets.
        .target(name: "CPacketCipher", linkerSettings: [.linkedLibrary("crypto")]),
        .target(
            name: "FakeNFTCore",
            dependencies: [
                "FakeNFTModels", "ShopCommands", "CLibXML2", "CImageDecode",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ]),
        // What a request says (query, form and JSON bodies, id lists), parsed without any of the
        // server's machinery, so that libFuzzer can build it alone (`make fuzz`).
        .target(
            name: "LineLog",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]),
        .target(name: "FakeNFTRequests", dependencies: ["FakeNFTModels"]),
        // The shop's commands (`fakenft nft 42`, `ssh host cart add 7`): one table, run through the API.
        .target(name: "ShopCommands", dependencies: ["FakeNFTModels"]),
        // What a child process started with posix_spawn inherits: no descriptors, no signal state.
        .target(name: "ChildProcesses"),
        .target(
            name: "FakeNFTServer",
            dependencies: [
                "FakeNFTModels", "FakeNFTRequests", "FakeNFTArt", "LineLog", "ChildProcesses", "ShopCommands",
                "CPacketCipher",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HashTreeCollections", package: "swift-collections"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOSSH", package: "swift-nio-ssh"),
            ], resources: [.copy("Resources/gen1")]),
        .target(
            name: "FakeNFTApp",
            dependencies: [
                "TerminalUI", "FakeNFTCore", "Localization", "FakeNFTArt", "ChildProcesses", "ShopCommands",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ]),
        .executableTarget(
            name: "fakenft",
            dependencies: [
                "FakeNFTApp", "FakeNFTServer", "FakeNFTCore", "TerminalUI", "Localization", "LineLog", "ShopCommands",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // libFuzzer target for the request parsers (`make fuzz`); a plain build replays inputs.
        .executableTarget(name: "fakenft-fuzz", dependencies: ["FakeNFTRequests", "FakeNFTModels"]),
        .executableTarget(
            name: "fakenft-bench",
            dependencies: [
                "FakeNFTApp", "FakeNFTServer", "FakeNFTCore", "TerminalUI", "FakeNFTTesting",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            resources: [.copy("Resources/picture-512.png"), .copy("Resources/picture-512.jpg")]),
        // Text snapshots for the tests (Swift Testing, which the benchmark's static build cannot link).
        .target(name: "FakeNFTSnapshots"),
        // Test servers, raw HTTP, tmux-free spawning: for the tests and the benchmark.
        .target(
            name: "FakeNFTTesting",
            dependencies: [
                "FakeNFTServer", "FakeNFTCore", "TerminalUI", "CNCursesW", "ChildProcesses",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOSSH", package: "swift-nio-ssh"), .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(
            name: "TerminalUITests",
            dependencies: ["TerminalUI", "FakeNFTTesting", "FakeNFTSnapshots", "FakeNFTCore", "Localization", "CZlib"],
            exclude: ["__Snapshots__"]),
        .testTarget(
            name: "FakeNFTCoreTests",
            dependencies: [
                "FakeNFTCore", "FakeNFTModels", "FakeNFTServer", "FakeNFTTesting", "ShopCommands",
                .product(name: "Hummingbird", package: "hummingbird"),
            ]),
        .testTarget(
            name: "FakeNFTServerTests",
            dependencies: [
                "FakeNFTServer", "FakeNFTCore", "FakeNFTRequests", "FakeNFTTesting", "LineLog",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HashTreeCollections", package: "swift-collections"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOSSH", package: "swift-nio-ssh"), .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(
            name: "FakeNFTAppTests",
            dependencies: [
                "FakeNFTApp", "TerminalUI", "FakeNFTCore", "FakeNFTServer", "FakeNFTTesting", "FakeNFTSnapshots",
                "Localization",
                .product(name: "Logging", package: "swift-log"), .product(name: "Hummingbird", package: "hummingbird"),
            ], exclude: ["__Snapshots__"]),
        .testTarget(
            name: "EndToEndTests", dependencies: ["FakeNFTTesting", "FakeNFTCore", "TerminalUI", "ImageEncoding"]),
        .testTarget(name: "LocalizationTests", dependencies: ["Localization"]),
        .testTarget(
            name: "FakeNFTCommandTests",
            dependencies: [
                "fakenft", "FakeNFTCore", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
    ]
)
