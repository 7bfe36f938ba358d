import FakeNFTServer
import Foundation
import Hummingbird
import Testing
import FakeNFTTesting
@testable import FakeNFTCore

/// Pictures from untrusted bytes: every PNG and JPEG kind decodes to the same picture (left half
/// red, right half blue); broken, huge or unknown files are errors, never crashes.
@Suite struct ImageDecodingTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../Fixtures/images"
    ).standardized

    func fixture(_ name: String) throws -> Data { try Data(contentsOf: Self.fixtures.appendingPathComponent(name)) }

    /// Red on the left, blue on the right (allowing for JPEG's losses and grey's lack of hue).
    func expectLeftRedRightBlue(_ image: DecodedImage, grey: Bool = false, _ name: String) {
        #expect(image.width == 64 && image.height == 48, "\(name)")
        func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            let i = (y * image.width + x) * 4
            return (Int(image.rgba[i]), Int(image.rgba[i + 1]), Int(image.rgba[i + 2]))
        }
        let left = pixel(10, 24), right = pixel(54, 24)
        if grey {
            #expect(left.0 > right.0 + 20, "\(name): red is lighter than blue in grey")
        } else {
            #expect(left.0 > 200 && left.2 < 60 && right.2 > 200 && right.0 < 60, "\(name): \(left) \(right)")
        }
    }

    @Test(arguments: [
        "left-red-right-blue.png", "palette.png", "interlaced.png", "deep16.png", "baseline.jpg", "progressive.jpg",
    ])
    func everyKindDecodes(name: String) throws {
        expectLeftRedRightBlue(try ImageDecoder.decode(try fixture(name)), name)
    }

    @Test func greyDecodes() throws {
        expectLeftRedRightBlue(try ImageDecoder.decode(try fixture("grey.png")), grey: true, "grey.png")
    }

    @Test func cmykIsRefusedCleanly() throws {
        #expect(throws: ImageError("CMYK JPEGs are not shown")) { try ImageDecoder.decode(try fixture("cmyk.jpg")) }
    }

    /// Every prefix of a file, and garbage, fail without crashing.
    @Test func truncatedAndMalformedFilesAreErrors() throws {
        for name in ["left-red-right-blue.png", "baseline.jpg", "progressive.jpg"] {
            let data = try fixture(name)
            for length in stride(from: 0, to: data.count - 1, by: 7) {
                // an error or (for a JPEG missing its end) a grey tail
                _ = try? ImageDecoder.decode(data.prefix(length))
            }
        }
        #expect(throws: ImageError.self) {
            try ImageDecoder.decode(Data("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8))
        }
        #expect(throws: ImageError.self) {
            try ImageDecoder.decode(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]))
        }
    }

    /// A header claiming 100000×100000 pixels is refused before anything is allocated.
    @Test func hugeDimensionsAreRefusedBeforeAllocating() throws {
        var png = try [UInt8](fixture("left-red-right-blue.png"))
        // IHDR width and height (bytes 16-23), then a correct CRC so only the size is wrong.
        let huge: [UInt8] = [0x00, 0x01, 0x86, 0xA0]
        png.replaceSubrange(16..<20, with: huge)
        png.replaceSubrange(20..<24, with: huge)
        let crc = Self.crc32(Array(png[12..<29]))
        png.replaceSubrange(
            29..<33, with: [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)])
        #expect(throws: ImageError("the image is too large")) { try ImageDecoder.decode(Data(png)) }
        #expect(throws: ImageError.self) { try ImageDecoder.decode(Data(count: ImageDecoder.maxBytes + 1)) }
    }

    /// A 94 KB progressive 4000×4000 JPEG once took the app past 200 MB: libjpeg keeps a whole
    /// progressive image's coefficients whatever the scale. It is refused at a bounded cost; a
    /// baseline one of the same size decodes at 1/8 and is kept at ``ImageDecoder/keptSide``.
    @Test func aHugeJPEGCostsBoundedMemory() throws {
        #expect(throws: ImageError("the image needs too much memory to decode")) {
            try ImageDecoder.decode(try fixture("huge-progressive.jpg"))
        }
        let baseline = try ImageDecoder.decode(try fixture("huge-baseline.jpg"))
        #expect(baseline.width == ImageDecoder.keptSide && baseline.height == ImageDecoder.keptSide)
        #expect(ImageDecoder.maxPixels * 4 <= 16 * 1024 * 1024, "a PNG's pixels are decoded whole: at most 16 MB")
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFFFFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB88320 : crc >> 1 }
        }
        return ~crc
    }

    @Test func pictures_areShrunkToTheKeptSize() throws {
        let big = DecodedImage(width: 1024, height: 512, rgba: [UInt8](repeating: 200, count: 1024 * 512 * 4))
        let kept = big.shrunk(toFit: ImageDecoder.keptSide)
        #expect(kept.width == 256 && kept.height == 128 && kept.rgba.allSatisfy { $0 == 200 })
    }
}

/// The loader: fetched once, then from the disk cache (also by a second loader: a restart);
/// the cache stays within its bound; a broken cache file is fetched again.
@Suite struct ImageLoaderTests {
    @Test func fetchedOnceThenCachedOnDiskWithinItsBound() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("images-\(UUID().uuidString)")
        try await TestServer.with { server async throws in
            let links = try await server.client().nft(id: "1").images
            let first = ImageLoader(disk: ImageDiskCache(directory: directory))
            for link in links { _ = try await first.image(for: link) }
            #expect(await first.fetches == 3)
            _ = try await first.image(for: links[0])
            #expect(await first.fetches == 3, "from memory")
            let restarted = ImageLoader(disk: ImageDiskCache(directory: directory))
            for link in links { _ = try await restarted.image(for: link) }
            #expect(await restarted.fetches == 0, "a second start makes no image requests")
            // A broken cache file is thrown away and fetched again.
            let cache = ImageDiskCache(directory: directory)
            try Data("not a picture".utf8).write(to: cache.file(for: links[1]))
            let third = ImageLoader(disk: cache)
            _ = try await third.image(for: links[1])
            #expect(await third.fetches == 1)
            // A small bound keeps only the most recent files.
            let small = ImageDiskCache(directory: directory, limit: 50_000)
            small.trim()
            let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
                $0.hasSuffix(".img")
            }
            #expect(left.count <= 1, "\(left)")
        }
    }

    /// A picture that never ends, or one that is not a picture at all, is an error with a reason.
    @Test func endlessAndFakePicturesAreRefused() async throws {
        let router = Router()
        let chunk = ByteBuffer(repeating: 0x42, count: 64 * 1024)
        router.get("endless.png") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "image/png"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
                    while true { try await writer.write(chunk) }
                })
        }
        router.get("page.png") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "image/png"],
                body: .init(byteBuffer: ByteBuffer(string: "<html>not a picture</html>")))
        }
        try await withRouter(router) { url in
            // A limit that only ends a hang: 8 MB took over 15 s once, beside the whole suite starting.
            let loader = ImageLoader(disk: nil, timeout: .seconds(120))
            await #expect(throws: ImageError("the image is larger than 8 MB")) {
                try await loader.image(for: url.absoluteString + "/endless.png")
            }
            await #expect(throws: ImageError("not a PNG or a JPEG")) {
                try await loader.image(for: url.absoluteString + "/page.png")
            }
        }
    }

    @Test func badLinksAndAnswersAreErrors() async throws {
        let loader = ImageLoader(disk: nil)
        await #expect(throws: ImageError("not an http(s) link")) { try await loader.image(for: "file:///etc/passwd") }
        try await TestServer.with { server async throws in
            await #expect(throws: ImageError.self) {
                try await loader.image(for: server.baseURL.absoluteString + "/images/nothing.png")
            }
            await #expect(throws: ImageError.self) {
                try await loader.image(for: server.baseURL.absoluteString + "/api/v1/nft/1")
            }
        }
    }
}

@Suite struct ProfileVersionTests {
    @Test func olderVersionsAreRecognised() {
        func version(_ tag: String?) -> Versioned<Int> { Versioned(value: 0, version: tag) }
        #expect(version("\"3\"").isOlder(than: "\"7\""))
        #expect(!version("\"7\"").isOlder(than: "\"7\"") && !version("\"9\"").isOlder(than: "\"7\""))
        #expect(!version(nil).isOlder(than: "\"7\"") && !version("W/x").isOlder(than: "\"7\""))
    }
}
