import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 channel with the rules it leaves out: a request without `Host` on
/// HTTP/1.1 is a 400, and an HTTP/1.0 connection is closed after its answer. With
/// `repeated`, a repeated read is answered on the event loop (``RepeatedAnswerHandler``).
struct StrictHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = HTTP1Channel.Value
    private let base: HTTP1Channel
    private let repeated: RepeatedAnswers?

    init(
        responder: @escaping HTTPChannelHandler.Responder, configuration: HTTP1Channel.Configuration,
        repeated: RepeatedAnswers?
    ) {
        base = HTTP1Channel(responder: responder, configuration: configuration)
        self.repeated = repeated
    }

    var responder: HTTPChannelHandler.Responder { base.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let codec = try channel.pipeline.syncOperations.handler(type: HTTP1ToHTTPServerCodec.self)
            try channel.pipeline.syncOperations.addHandler(HTTPVersionRules(), position: .before(codec))
            if let repeated {
                let state = try channel.pipeline.syncOperations.handler(type: HTTPConnectionStateHandler.self)
                try channel.pipeline.syncOperations.addHandler(
                    RepeatedAnswerHandler(answers: repeated), position: .after(state))
            }
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Sits between NIO's HTTP/1 codec, which still knows the protocol version, and the codec to
/// Swift HTTP Types, which forgets it.
final class HTTPVersionRules: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Set once a request without Host was refused: nothing more is read.
    private var refused = false
    /// Set for HTTP/1.0: the answer says `Connection: close`.
    private var closing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard case .head(var head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        if head.version == .http1_1 && !head.headers.contains(name: "host") {
            refused = true
            refuse(context)
            return
        }
        if head.version.major < 1 || (head.version.major == 1 && head.version.minor == 0) {
            closing = true
            head.headers.replaceOrAdd(name: "connection", value: "close")  // ends Hummingbird's keep-alive loop
            return context.fireChannelRead(wrapInboundOut(.head(head)))
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard closing, case .head(var head) = unwrapOutboundIn(data) else {
            return context.write(data, promise: promise)
        }
        head.headers.replaceOrAdd(name: "connection", value: "close")
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }

    private func refuse(_ context: ChannelHandlerContext) {
        let body = ByteBuffer(string: #"{"error":"an HTTP/1.1 request needs a Host header"}"#)
        let head = HTTPResponseHead(
            version: .http1_1, status: .badRequest,
            headers: [
                "content-type": "application/json; charset=utf-8", "content-length": String(body.readableBytes),
                "connection": "close",
            ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
