import HTTPTypes
import Logging
import NIOCore
import Synchronization

/// Read answers as they were written, so that a GET repeating one answered within the last
/// second, byte for byte the same request, with what it was made from unchanged (its
/// ``Source``), is answered on the connection's event loop with the same bytes
/// (``RepeatedAnswerHandler``), instead of through the router again.
///
/// Only routes marked ``Route/repeats`` are kept: their answer is a function of their source
/// and the request alone, with no side effect. A catalog answer is made from one table and
/// not from the token, so it is kept once for every token, and only a change to that table
/// ends its repeats; any other answer is kept per token, and any change ends its repeats. So a
/// repeat is never older than what a first answer at that moment would say; it carries the
/// generation the server has reached since (``ConsistencyMiddleware``), and the second bounds
/// what depends on the clock (the `Date` header; a sign-in expiring). The router marks such an
/// answer with ``marker`` (its source's revision, read before the answer was made, the source
/// and the route), which never leaves the server. Bounded: requests longer than
/// ``longestRequest``, answers over ``largestAnswer`` are not kept, and past ``capacity``
/// answers the cache starts again empty.
final class RepeatedAnswers: Sendable {
    /// What an answer is made from: it is repeated only while that is unchanged.
    enum Source: Sendable, Equatable {
        /// The whole read model (``Store/publication``) and the whole request: any change ends
        /// the repeats.
        case model
        /// One table of the catalog (its ``EncodedTable/revision``) and the request but its
        /// token: only a change to that table ends the repeats.
        case catalog(ReadModel.Catalog)

        /// How ``marker`` names it.
        var name: String {
            switch self {
            case .model: "model"
            case .catalog(let table): table.rawValue
            }
        }

        init?(name: Substring) {
            if name == "model" {
                self = .model
            } else if let table = ReadModel.Catalog(rawValue: String(name)) {
                self = .catalog(table)
            } else {
                return nil
            }
        }
    }

    /// An answer as written: its head (without ``marker``), body, and what it was made from.
    struct Answer: Sendable {
        var head: HTTPResponse
        var body: ByteBuffer
        var source: Source
        /// The revision of ``source`` it was made from.
        var revision: Int
        /// The route's metrics, which count a repeat as any answer.
        var metrics: ServerMetrics.Answers
        var madeAt: NIODeadline
    }

    /// What names a request: everything it sent but its token, and its token.
    struct Key: Hashable, Sendable {
        var request: String
        var token: String
    }

    /// Set by the router on an answer that may be repeated: `<revision> <source> <route>`.
    static let marker = HTTPField.Name("FakeNFT-Repeatable")!
    static let capacity = 256
    static let largestAnswer = 64 * 1024
    static let longestRequest = 2048
    static let lifetime = TimeAmount.seconds(1)

    /// The revision of a source now: for ``Source/model``, the read model's publication.
    let revision: @Sendable (Source) -> Int
    /// The generation the server's read model has reached.
    private let generation: @Sendable () -> Int
    let metrics: ServerMetrics
    /// Where a repeat is logged as any request is, at the info level (``RequestLog``).
    let requestLog: Logger?
    private let answers = Mutex<[Key: Answer]>([:])

    init(
        metrics: ServerMetrics, requestLog: Logger? = nil, generation: @escaping @Sendable () -> Int,
        revision: @escaping @Sendable (Source) -> Int
    ) {
        self.metrics = metrics
        self.requestLog = requestLog
        self.generation = generation
        self.revision = revision
    }

    /// What the router writes in ``marker`` on an answer made from `source` at `revision` for `route`.
    static func mark(_ source: Source, revision: Int, route: String) -> String { "\(revision) \(source.name) \(route)" }

    /// The key of a request whose answer may be repeated: a GET without a body that does not
    /// close its connection, named by everything it sent. Nil for any other request.
    static func key(_ request: HTTPRequest) -> Key? {
        guard request.method == .get, let path = request.path, path.hasPrefix("/api/v1/"), !closes(request) else {
            return nil
        }
        var key = Key(request: (request.authority ?? "") + " " + path, token: "")
        for field in request.headerFields {
            switch field.name {
            case .contentLength, .transferEncoding, .expect: return nil
            case AuthRoutes.tokenHeader: key.token += field.value + "\n"
            default: key.request += "\n" + field.name.canonicalName + ":" + field.value
            }
            guard key.request.utf8.count + key.token.utf8.count <= longestRequest else { return nil }
        }
        return key
    }

    /// Whether `request` asks to close its connection after its answer (HTTP/1.0 ones are
    /// marked so by ``HTTPVersionRules``).
    static func closes(_ request: HTTPRequest) -> Bool {
        request.headerFields[.connection]?.lowercased().contains("close") == true
    }

    /// The answer kept for `key`, if it was made less than ``lifetime`` ago from what its
    /// source is now, with the generation the server has now.
    func answer(to key: Key, now: NIODeadline = .now()) -> Answer? {
        let kept = answers.withLock { answers -> Answer? in
            let tokenless = answers[Key(request: key.request, token: "")]
            if let tokenless, key.token.isEmpty || tokenless.source != .model { return tokenless }
            return key.token.isEmpty ? nil : answers[key]
        }
        guard var answer = kept, now - answer.madeAt < Self.lifetime, answer.revision == revision(answer.source) else {
            return nil
        }
        if answer.head.headerFields[ConsistencyMiddleware.header] != nil {
            answer.head.headerFields[ConsistencyMiddleware.header] = String(generation())
        }
        return answer
    }

    /// Keeps what the router answered to `key`, when it carries ``marker`` (taken off `head`,
    /// which goes on to the client) and is small enough.
    func keep(_ head: HTTPResponse, body: ByteBuffer, for key: Key, now: NIODeadline = .now()) {
        guard head.status == .ok, body.readableBytes <= Self.largestAnswer,
            let mark = head.headerFields[Self.marker]
        else { return }
        let parts = mark.split(separator: " ", maxSplits: 2)
        guard parts.count == 3, let revision = Int(parts[0]), let source = Source(name: parts[1]) else { return }
        var shown = head
        shown.headerFields[Self.marker] = nil
        let answer = Answer(
            head: shown, body: body, source: source, revision: revision,
            metrics: metrics.answers(route: String(parts[2]), method: .get, status: .ok), madeAt: now)
        answers.withLock { answers in
            if answers.count >= Self.capacity { answers.removeAll(keepingCapacity: true) }
            answers[source == .model ? key : Key(request: key.request, token: "")] = answer
        }
    }

    /// How many answers are kept.
    var count: Int { answers.withLock { $0.count } }
}
