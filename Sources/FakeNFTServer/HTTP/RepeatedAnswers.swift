import HTTPTypes
import Logging
import NIOCore
import Synchronization

/// Read answers as they were written, so that a GET repeating one answered within the last
/// second, byte for byte the same request, with the read model still the one it was answered
/// from (``Store/publication``), is answered on the connection's event loop with the same bytes
/// (``RepeatedAnswerHandler``), instead of through the router again.
///
/// Only routes marked ``Route/repeatable`` are kept: their answer is a function of the read
/// model and the request alone, with no side effect. Any change publishes a new model, so a
/// repeat is never older than what a first answer at that moment would say; the second bounds
/// what depends on the clock (the `Date` header; a sign-in expiring). The router marks such an
/// answer with ``marker`` (the model's publication read before the answer was made, and the
/// route), which never leaves the server. Bounded: requests longer than ``longestRequest``,
/// answers over ``largestAnswer`` are not kept, and past ``capacity`` answers the cache starts
/// again empty.
final class RepeatedAnswers: Sendable {
    /// An answer as written: its head (without ``marker``), body, and what it was made from.
    struct Answer: Sendable {
        var head: HTTPResponse
        var body: ByteBuffer
        /// The ``Store/publication`` of the read model it came from.
        var model: Int
        /// The route's metrics, which count a repeat as any answer.
        var metrics: ServerMetrics.Answers
        var madeAt: NIODeadline
    }

    /// Set by the router on an answer that may be repeated: `<model> <route>`.
    static let marker = HTTPField.Name("FakeNFT-Repeatable")!
    static let capacity = 256
    static let largestAnswer = 64 * 1024
    static let longestRequest = 2048
    static let lifetime = TimeAmount.seconds(1)

    /// The read model's ``Store/publication`` now.
    private let model: @Sendable () -> Int
    let metrics: ServerMetrics
    /// Where a repeat is logged as any request is, when requests are (``RequestLog``).
    let requestLog: Logger?
    private let answers = Mutex<[String: Answer]>([:])

    init(metrics: ServerMetrics, requestLog: Logger? = nil, model: @escaping @Sendable () -> Int) {
        self.metrics = metrics
        self.requestLog = requestLog
        self.model = model
    }

    /// What the router writes in ``marker`` on an answer made from `model` for `route`.
    static func mark(model: Int, route: String) -> String { "\(model) \(route)" }

    /// The key of a request whose answer may be repeated: a GET without a body that does not
    /// close its connection, named by everything it sent. Nil for any other request.
    static func key(_ request: HTTPRequest) -> String? {
        guard request.method == .get, let path = request.path, path.hasPrefix("/api/v1/"), !closes(request) else {
            return nil
        }
        var key = (request.authority ?? "") + " " + path
        for field in request.headerFields {
            switch field.name {
            case .contentLength, .transferEncoding, .expect: return nil
            default: key += "\n" + field.name.canonicalName + ":" + field.value
            }
            guard key.utf8.count <= longestRequest else { return nil }
        }
        return key
    }

    /// Whether `request` asks to close its connection after its answer (HTTP/1.0 ones are
    /// marked so by ``HTTPVersionRules``).
    static func closes(_ request: HTTPRequest) -> Bool {
        request.headerFields[.connection]?.lowercased().contains("close") == true
    }

    /// The answer kept for `key`, if it was made less than ``lifetime`` ago from the read model
    /// readers have now.
    func answer(to key: String, now: NIODeadline = .now()) -> Answer? {
        guard let answer = answers.withLock({ $0[key] }) else { return nil }
        guard answer.model == model(), now - answer.madeAt < Self.lifetime else { return nil }
        return answer
    }

    /// Keeps what the router answered to `key`, when it carries ``marker`` (taken off `head`,
    /// which goes on to the client) and is small enough.
    func keep(_ head: HTTPResponse, body: ByteBuffer, for key: String, now: NIODeadline = .now()) {
        guard head.status == .ok, body.readableBytes <= Self.largestAnswer,
            let mark = head.headerFields[Self.marker], let space = mark.firstIndex(of: " "),
            let model = Int(mark[..<space])
        else { return }
        var shown = head
        shown.headerFields[Self.marker] = nil
        let route = String(mark[mark.index(after: space)...])
        let answer = Answer(
            head: shown, body: body, model: model,
            metrics: metrics.answers(route: route, method: .get, status: .ok), madeAt: now)
        answers.withLock { answers in
            if answers.count >= Self.capacity { answers.removeAll(keepingCapacity: true) }
            answers[key] = answer
        }
    }

    /// How many answers are kept.
    var count: Int { answers.withLock { $0.count } }
}
