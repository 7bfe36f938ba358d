import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Answers a repeated read (a GET of a ``Route/repeatable`` route) from ``RepeatedAnswers`` on
/// the connection's event loop, passes every other request on to the router, and keeps the
/// router's answers that may be repeated. Answers leave in the order their requests came: while
/// a request passed on is not answered, every request after it is passed on too. Sits after
/// Hummingbird's connection state handler, which so sees every request and answer (idle
/// timeout, graceful shutdown).
final class RepeatedAnswerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let answers: RepeatedAnswers
    /// The requests passed on and not answered yet, oldest first: each one's key, when its
    /// answer may be kept.
    private var passedOn = CircularBuffer<RepeatedAnswers.Key?>()
    /// The answer to the oldest request passed on, as written so far, when it may be kept.
    private var written: (head: HTTPResponse, body: ByteBuffer)?
    /// The request being answered again: the answer it gets once its end arrives.
    private var repeating: (answer: RepeatedAnswers.Answer, started: NIODeadline)?
    /// Set once a request asked to close the connection: nothing after it is answered here.
    private var closing = false
    private var unflushed = false

    init(answers: RepeatedAnswers) {
        self.answers = answers
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            let key = closing ? nil : RepeatedAnswers.key(request)
            // While the client does not read its answers, the router's writes wait for it (and
            // the connection's reading with them); a repeat would not.
            if passedOn.isEmpty, let key, context.channel.isWritable {
                let now = NIODeadline.now()
                if let answer = answers.answer(to: key, now: now) {
                    if var log = answers.requestLog, log.logLevel <= .info {  // named as Hummingbird names one
                        log[metadataKey: "hb.request.id"] = .stringConvertible(RequestID())
                        RequestLog.note(log, method: .get, path: request.path ?? "")
                    }
                    repeating = (answer, now)
                    return
                }
            }
            if RepeatedAnswers.closes(request) { closing = true }
            passedOn.append(key)
        case .body:
            if repeating != nil { return }  // a key names no body: never so
        case .end:
            if let (answer, started) = repeating {
                repeating = nil
                context.write(wrapOutboundOut(.head(answer.head)), promise: nil)
                context.write(wrapOutboundOut(.body(answer.body)), promise: nil)
                context.write(wrapOutboundOut(.end(nil)), promise: nil)
                unflushed = true
                let elapsed = Duration.nanoseconds((NIODeadline.now() - started).nanoseconds)
                answers.metrics.repeated(answer.metrics, elapsed: elapsed)
                return
            }
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if unflushed {
            unflushed = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            guard head.headerFields[RepeatedAnswers.marker] != nil else { break }
            if head.status.kind != .informational, (passedOn.first ?? nil) != nil { written = (head, ByteBuffer()) }
            head.headerFields[RepeatedAnswers.marker] = nil
            return context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body(let part):
            guard var answer = written else { break }
            written = nil
            if answer.body.readableBytes + part.readableBytes <= RepeatedAnswers.largestAnswer {
                answer.body.writeImmutableBuffer(part)
                written = answer
            }
        case .end(let trailers):
            if trailers == nil, let answer = written, let key = passedOn.first ?? nil {
                answers.keep(answer.head, body: answer.body, for: key)
            }
            written = nil
            if !passedOn.isEmpty { passedOn.removeFirst() }
        }
        context.write(data, promise: promise)
    }
}
