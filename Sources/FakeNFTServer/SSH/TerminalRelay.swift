import NIOCore
import NIOSSH

/// The bytes of one session both ways: what the visitor types goes to the app's terminal, what
/// the app draws goes to the visitor, each side read only as fast as the other takes it (a paste
/// waits for the app, a drawing for a slow visitor). Used on the session channel's event loop,
/// which the terminal's channel shares.
final class TerminalRelay {
    private let session: any Channel
    private let app: AppOnTerminal
    private var terminal: (any Channel)?
    private let ended: () -> Void
    /// Writes handed to the terminal's channel that it has not finished: until it has, what the
    /// visitor types goes after them.
    private var queued = 0

    init(session: any Channel, app: AppOnTerminal, ended: @escaping () -> Void) {
        self.session = session
        self.app = app
        self.ended = ended
    }

    /// The handler of the terminal's channel, which hands this relay what the app draws.
    func terminalSide() -> any ChannelHandler { TerminalSide(relay: self) }

    /// What the visitor typed, to the app: written at once while nothing waits before it (a key's
    /// echo waits on this, and the channel's way costs more than the write), the rest through the
    /// terminal's channel, which waits until the app takes it; the visitor is not read while the
    /// app lags behind.
    func visitorTyped(_ bytes: ByteBuffer) {
        guard let terminal else { return }
        var rest = bytes
        if queued == 0 { rest.moveReaderIndex(forwardBy: rest.withUnsafeReadableBytes { app.type($0) }) }
        guard rest.readableBytes > 0 else { return }
        queued += 1
        let written = terminal.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenComplete { _ in self.queued -= 1 }
        terminal.writeAndFlush(rest, promise: written)
        if !terminal.isWritable { session.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in } }
    }

    /// Whether the visitor takes more now: the app's drawing is read only while they do.
    func visitorCanTake(_ writable: Bool) {
        guard let terminal else { return }
        Self.reading(terminal, writable)
    }

    /// Reads `channel` on its own (`autoRead`) or not; reading again starts with a read at once:
    /// NIOSSH's channels start none when `autoRead` is turned back on, and a session whose reading
    /// was paused (a paste or a flood faster than the app takes it) would wait for ever.
    private static func reading(_ channel: any Channel, _ on: Bool) {
        channel.setOption(ChannelOptions.autoRead, value: on).whenFailure { _ in }
        if on { channel.read() }
    }

    /// Closes the app's terminal (the app is hung up).
    func closeTerminal() { terminal?.close(promise: nil) }

    private func appDrew(_ bytes: ByteBuffer) {
        session.write(SSHChannelData(type: .channel, data: .byteBuffer(bytes)), promise: nil)
    }

    private func appDrawingPaused(_ terminal: any Channel) {
        session.flush()
        if !session.isWritable { terminal.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in } }
    }

    private func appCanTake(_ writable: Bool) { Self.reading(session, writable) }

    /// The terminal channel's handler: each of its events, to the relay.
    private final class TerminalSide: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        private let relay: TerminalRelay

        init(relay: TerminalRelay) { self.relay = relay }

        func handlerAdded(context: ChannelHandlerContext) { relay.terminal = context.channel }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) { relay.appDrew(unwrapInboundIn(data)) }

        func channelReadComplete(context: ChannelHandlerContext) { relay.appDrawingPaused(context.channel) }

        func channelWritabilityChanged(context: ChannelHandlerContext) {
            relay.appCanTake(context.channel.isWritable)
        }

        func channelInactive(context: ChannelHandlerContext) {
            relay.ended()
            context.fireChannelInactive()
        }

        /// Reading a terminal whose app has exited fails (EIO): that is its end.
        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
