import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// The server's live updates (`GET /api/v1/events`, an extension `fakenft serve` offers): the
/// caller's profile and order as they change, and users' NFT counts. The text is hostile until
/// parsed: lines and events are bounded, and what does not decode is skipped.
public struct ServerEvents: Sendable {
    public enum Event: Sendable {
        case profile(Versioned<Profile>)
        case order(Versioned<Order>)
        case user(id: String, nfts: Int)
        /// Some events were dropped: read everything again.
        case resync
    }

    /// The longest line read; a longer one ends the connection.
    static let maxLine = 1 << 20
    /// A connection silent this long (the server writes every 15 s) is dead.
    static let idle: Duration = .seconds(45)
    /// One long-lived connection of its own, so that it never takes one of the API's.
    static let transport = HTTPTransport(redirects: 0)

    let configuration: APIConfiguration
    let logger: Logger
    private let exchange: any APIExchange
    /// What the silence of a dead connection is measured by.
    let clock: AppClock

    public init(
        _ configuration: APIConfiguration,
        logger: Logger = Logger(label: "fakenft.events") { _ in SwiftLogNoOpLogHandler() },
        clock: AppClock = .continuous
    ) {
        self.init(configuration, exchange: Self.transport, logger: logger, clock: clock)
    }

    /// Events read through `exchange` (the API client's, when it is not HTTP).
    package init(_ configuration: APIConfiguration, exchange: any APIExchange, logger: Logger, clock: AppClock) {
        self.configuration = configuration
        self.exchange = exchange
        self.logger = logger
        self.clock = clock
    }

    /// Reads events into `handle` until the connection ends (returns) or fails (throws
    /// ``APIError``; ``APIError/notFound`` from a server without events).
    public func listen(isolation: isolated (any Actor)? = #isolation, _ handle: (Event) async -> Void) async throws {
        var headers = configuration.identityHeaders()
        headers.add(name: "Accept", value: "text/event-stream")
        // The body's pieces cross from the transport's task to this one; a reader that falls
        // this far behind ends the connection (the caller reconnects and reads everything).
        let (pieces, sink) = AsyncStream.makeStream(of: ByteBuffer.self, bufferingPolicy: .bufferingOldest(1_024))
        let url = configuration.baseURL.appendingPathComponent("api/v1/events")
        let reading = Task {
            defer { sink.finish() }
            try await exchange.stream(
                url, headers: headers, idle: Self.idle, clock: clock,
                status: { status in
                    switch status {
                    case 200: return
                    case 401, 403: throw APIError.unauthorized
                    case 404, 405: throw APIError.notFound
                    default: throw APIError.server(status: status, message: nil)
                    }
                },
                chunk: { piece in
                    if case .dropped = sink.yield(piece) { throw TransportError.tooLarge(limit: 1_024) }
                })
        }
        var parser = Parser()
        do {
            try await withTaskCancellationHandler {
                for await piece in pieces {
                    for event in try parser.feed(piece) { await handle(event) }
                }
                try await reading.value
            } onCancel: {
                reading.cancel()
            }
        } catch let error as APIError {
            throw error
        } catch let error as TransportError {
            reading.cancel()
            logger.info("events: \(error)")
            throw APIClient.map(error, host: configuration.baseURL.absoluteString)
        } catch {
            reading.cancel()  // a line too long: the stream is not what it should be
            logger.info("events: \(error)")
            throw APIError.undecodable(String(describing: error))
        }
    }

    /// text/event-stream, as far as the server's events need it: `event:` and `data:` lines,
    /// a blank line ends an event, comments (`:`) are skipped.
    struct Parser {
        private var pending: [UInt8] = []
        private var name = ""
        private var data: [UInt8] = []

        struct LineTooLong: Error {}

        mutating func feed(_ buffer: ByteBuffer) throws -> [Event] {
            var events: [Event] = []
            for byte in buffer.readableBytesView {
                guard byte == UInt8(ascii: "\n") else {
                    pending.append(byte)
                    if pending.count > ServerEvents.maxLine { throw LineTooLong() }
                    continue
                }
                if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
                if let event = line(pending) { events.append(event) }
                pending.removeAll(keepingCapacity: true)
            }
            return events
        }

        private mutating func line(_ line: [UInt8]) -> Event? {
            if line.isEmpty {
                defer {
                    name = ""
                    data = []
                }
                return Self.event(name, Data(data))
            }
            if line.first == UInt8(ascii: ":") { return nil }
            let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
            let field = String(decoding: line[..<colon], as: UTF8.self)
            var value = colon < line.endIndex ? Array(line[(colon + 1)...]) : []
            if value.first == UInt8(ascii: " ") { value.removeFirst() }
            switch field {
            case "event": name = String(decoding: value.prefix(64), as: UTF8.self)
            case "data":  // at most maxLine bytes an event (more does not decode: the event is skipped)
                if !data.isEmpty { data.append(UInt8(ascii: "\n")) }
                data += value.prefix(max(0, ServerEvents.maxLine - data.count))
            default: break
            }
            return nil
        }

        private struct Wrapped<Value: Decodable>: Decodable {
            var version: Int
            var value: Value
            enum CodingKeys: String, CodingKey { case version, profile, order }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                version = try container.decode(Int.self, forKey: .version)
                value =
                    try container.decodeIfPresent(Value.self, forKey: .profile)
                    ?? container.decode(Value.self, forKey: .order)
            }
        }

        private struct UserCount: Decodable {
            var id: String
            var nfts: Int
        }

        private static func event(_ name: String, _ data: Data) -> Event? {
            let decoder = JSONDecoder()
            switch name {
            case "profile":
                return (try? decoder.decode(Wrapped<Profile>.self, from: data)).map {
                    .profile(Versioned(value: $0.value, version: "\"\($0.version)\""))
                }
            case "order":
                return (try? decoder.decode(Wrapped<Order>.self, from: data)).map {
                    .order(Versioned(value: $0.value, version: "\"\($0.version)\""))
                }
            case "user":
                return (try? decoder.decode(UserCount.self, from: data)).map { .user(id: $0.id, nfts: $0.nfts) }
            case "resync": return .resync
            default: return nil
            }
        }
    }
}
