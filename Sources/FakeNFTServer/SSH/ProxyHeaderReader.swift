import FakeNFTRequests
import NIOCore

/// Who is at the other end of an SSH connection: its peer, or the client a trusted proxy names.
final class ConnectionPeer {
    var address: String

    init(address: String) { self.address = address }
}

/// Reads the PROXY protocol's line that a trusted proxy (nginx's `stream` with `proxy_protocol
/// on`) sends before the visitor's bytes, for the visitor's address; then steps aside. A
/// connection that starts otherwise (the proxy's own, or a direct one) passes untouched; a
/// broken line closes it.
final class ProxyHeaderReader: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let peer: ConnectionPeer
    private var received: ByteBuffer?

    init(peer: ConnectionPeer) { self.peer = peer }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if var received {
            received.writeBuffer(&bytes)
            self.received = received
        } else {
            received = bytes
        }
        guard var buffered = received else { return }
        let start = buffered.readableBytesView
        let prefix = Array(ProxyHeader.prefix.utf8)
        guard start.starts(with: prefix.prefix(start.count)) else { return pass(buffered, context) }
        guard start.count >= prefix.count else { return }  // maybe a header: wait for more
        guard let end = start.firstIndex(of: UInt8(ascii: "\n")) else {
            if start.count >= ProxyHeader.maxLength { context.close(promise: nil) }
            return
        }
        let length = end - start.startIndex + 1
        let line = buffered.readString(length: length) ?? ""
        guard line.hasSuffix("\r\n"), let client = ProxyHeader.clientAddress(Substring(line.dropLast(2))) else {
            return context.close(promise: nil)
        }
        if !client.isEmpty { peer.address = client }
        pass(buffered, context)
    }

    /// Hands on what came (without the header) and leaves the pipeline.
    private func pass(_ rest: ByteBuffer, _ context: ChannelHandlerContext) {
        received = nil
        if rest.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(rest)) }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}
