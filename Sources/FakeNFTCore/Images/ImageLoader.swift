import Foundation
import NIOHTTP1

/// Pictures by link: from memory, from the disk cache, or fetched (a few at a time) and decoded
/// off the caller's actor. A caller that gives up (its picture scrolled away) cancels its fetch.
public actor ImageLoader {
    /// Fetches at once at most; more wait their turn, first come first served.
    public static let maxInFlight = 6
    /// Up to three redirects; no compression (pictures are compressed already).
    private static let sharedTransport = HTTPTransport(redirects: 3, connectionsPerHost: maxInFlight)
    /// Decoded pictures kept in memory (at most 256 KiB each).
    public static let memoryCapacity = 100

    private let disk: ImageDiskCache?
    private let transport: HTTPTransport
    private let timeout: Duration
    private var memory: [String: DecodedImage] = [:]
    private var recent: [String] = []
    private var inFlight = 0
    private var queue: [CheckedContinuation<Void, Never>] = []
    /// Fetches made (not answered from a cache), for tests.
    public private(set) var fetches = 0

    /// - Parameter disk: where fetched pictures are kept between runs; nil keeps nothing.
    public init(disk: ImageDiskCache?, timeout: Duration = .seconds(15)) {
        self.disk = disk
        self.transport = Self.sharedTransport
        self.timeout = timeout
    }

    /// The picture at `link` (an http or https URL).
    public func image(for link: String) async throws(ImageError) -> DecodedImage {
        if let kept = memory[link] { return kept }
        if let data = disk?.read(link) {
            if let image = try? await Self.decode(data) { return keep(image, for: link) }
            disk?.remove(link)  // a broken file: fetch it again
        }
        let data = try await fetch(link)
        let image = try await Self.decode(data)
        disk?.write(data, for: link)
        return keep(image, for: link)
    }

    private func fetch(_ link: String) async throws(ImageError) -> Data {
        guard let url = URL(string: link), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            url.host?.isEmpty == false
        else {
            throw ImageError("not an http(s) link")
        }
        await turn()
        defer { done() }
        guard !Task.isCancelled else { throw ImageError("cancelled") }
        fetches += 1
        do {
            let answer = try await transport.fetch(
                .GET, url, headers: ["Accept": "image/png, image/jpeg"], limit: ImageDecoder.maxBytes, timeout: timeout)
            guard (200..<300).contains(answer.status) else { throw ImageError("the server answered \(answer.status)") }
            return answer.body
        } catch let error as ImageError {
            throw error
        } catch {
            throw ImageError(Self.reason(error))
        }
    }

    private static func reason(_ error: any Error) -> String {
        switch error as? TransportError {
        case .tooLarge: return "the image is larger than \(ImageDecoder.maxBytes / (1024 * 1024)) MB"
        case .timedOut: return "the image did not arrive in time"
        case .cancelled: return "cancelled"
        case .malformed(let reason), .unreachable(let reason): return reason
        case nil: return String(describing: error)
        }
    }

    /// Decodes off this actor, so other pictures keep coming meanwhile.
    private static func decode(_ data: Data) async throws(ImageError) -> DecodedImage {
        let result = await Task.detached(priority: .utility) { () -> Result<DecodedImage, ImageError> in
            Result { () throws(ImageError) -> DecodedImage in try ImageDecoder.decode(data) }
        }.value
        return try result.get()
    }

    private func keep(_ image: DecodedImage, for link: String) -> DecodedImage {
        if memory.updateValue(image, forKey: link) == nil { recent.append(link) }
        if recent.count > Self.memoryCapacity {
            let dropped = recent.prefix(recent.count - Self.memoryCapacity)
            dropped.forEach { memory[$0] = nil }
            recent.removeFirst(dropped.count)
        }
        return image
    }

    private func turn() async {
        if inFlight < Self.maxInFlight {
            inFlight += 1
            return
        }
        await withCheckedContinuation { queue.append($0) }
    }

    private func done() {
        if queue.isEmpty { inFlight -= 1 } else { queue.removeFirst().resume() }
    }
}
