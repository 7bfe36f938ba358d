import Glibc
import NIOCore
import NIOPosix
import NIOSSH
import ShopCommands

/// One SSH session channel: takes the terminal, size and language the visitor asks for, starts
/// the app when the visitor asks for a shell, and relays bytes both ways until either side ends.
/// The app's exit status goes back to the visitor; a visitor who leaves hangs the app up. When
/// the server stops, the app is asked to end (SIGTERM: it gives the terminal back, leaving its
/// screen and modes), then the visitor is told why the session ended.
final class SSHSessionHandler: ChannelInboundHandler {
    typealias InboundIn = SSHChannelData

    private let shop: SSHShop
    private let visitor: SSHShop.Visitor
    /// The connection the session is on: whether its visitor asked for forwarding.
    private let connection: VisitorConnection
    private var request = SSHSessionRequest()
    private var phase = Phase.asking
    /// The server is stopping: the app was asked to end.
    private var closing = false
    /// A resize is on its way to the app (the latest size goes when it does).
    private var resizePending = false
    /// What the visitor typed before the app ran (up to ``typedAheadLimit``): the app's first keys.
    private var typedAhead: ByteBuffer?
    /// The visitor's input ended (`ssh -tt host < /dev/null`) before the app ran: the start's
    /// outcome is still said (a refusal's words reach the visitor), then the session ends.
    private var inputEnded = false
    /// When the visitor last sent anything: the session ends after the idle limit without.
    private var lastHeard = NIODeadline.now()
    /// The longest between two looks at the idle limit, so that one lowered while the server runs
    /// applies to sessions already open within it.
    static let idleCheck: TimeAmount = .seconds(60)
    /// The most typed ahead that is kept.
    static let typedAheadLimit = 4_096
    /// The shortest time between two resizes of the app.
    static let resizeGap: TimeAmount = .milliseconds(50)

    private enum Phase {
        case asking, starting
        /// A command runs (``SSHCommands``): no app, and what the visitor types is not read.
        case command
        case running(SSHShop.Session, TerminalRelay)
        /// The channel is closing: a session that starts now is ended at once.
        case ended
    }

    /// How long a hung-up app has before it is killed.
    static let hangUpGrace: TimeAmount = .seconds(2)
    /// What a visitor reads when the server stops under their session.
    static let closingMessage = "The shop is closing: thank you for visiting, and come back soon."

    init(shop: SSHShop, visitor: SSHShop.Visitor, connection: VisitorConnection) {
        self.shop = shop
        self.visitor = visitor
        self.connection = connection
    }

    /// What a visitor reads whose session asked for no terminal and shell in time.
    static let noStart = "No terminal and shell were asked for within 10 s: connect with ssh -t."
    /// What a visitor who asked for port forwarding reads when the session ends.
    static let noForwarding =
        "Port forwarding (ssh -L, -R, -D) is refused here: this shop is its app only, and opens nothing for you."

    /// The app must be asked for within ``SSHFront/sessionLimit`` of the session's opening; the
    /// session is closed once nothing came from the visitor for the idle limit.
    func handlerAdded(context: ChannelHandlerContext) {
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop), channel = context.channel
        context.eventLoop.scheduleTask(in: TimeAmount(SSHFront.sessionLimit)) {
            guard case .asking = handler.value.phase, channel.isActive else { return }
            handler.value.shop.metrics.refused(.noSession)
            handler.value.refuse(Self.noStart, channel: channel)
        }
        watchIdle(channel)
    }

    /// Looks at the idle limit as it is now when it would be reached, and at least each
    /// ``idleCheck``; ends the session once it is.
    private func watchIdle(_ channel: any Channel) {
        if case .ended = phase { return }  // (a channel being set up is not active yet)
        let limit = shop.settings.ssh.idleLimit, now = NIODeadline.now()
        let due = lastHeard + TimeAmount(limit)
        guard now < due else {
            let minutes = limit.components.seconds / 60
            return refuse("Closed: no key was pressed for \(minutes) min.", channel: channel, ending: .idle)
        }
        let handler = NIOLoopBound(self, eventLoop: channel.eventLoop)
        channel.eventLoop.scheduleTask(deadline: min(due, now + Self.idleCheck)) { handler.value.watchIdle(channel) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case let ask as SSHChannelRequestEvent.PseudoTerminalRequest:
            request.askTerminal(ask.term, columns: ask.terminalCharacterWidth, rows: ask.terminalRowHeight)
            reply(ask.wantReply, true, context)
        case let variable as SSHChannelRequestEvent.EnvironmentRequest:
            reply(variable.wantReply, request.take(variable: variable.name, value: variable.value), context)
        case let shell as SSHChannelRequestEvent.ShellRequest:
            guard case .asking = phase else { return reply(shell.wantReply, false, context) }
            reply(shell.wantReply, true, context)
            guard request.terminal != nil else { return refuse(SSHFront.needsTerminal, context) }
            start(context)
        case let command as SSHChannelRequestEvent.ExecRequest:
            guard case .asking = phase else { return reply(command.wantReply, false, context) }
            reply(command.wantReply, true, context)
            // a command that names a screen, on a terminal (ssh -t host nft 42): the app on that screen
            if request.terminal != nil, let link = SSHCommands.screen(of: command.command) {
                return start(context, opening: link)
            }
            run(command.command, context)
        case let subsystem as SSHChannelRequestEvent.SubsystemRequest:
            // taken, so that the client prints the words (a refused request is "subsystem request failed")
            reply(subsystem.wantReply, true, context)
            shop.metrics.refused(.subsystem)
            let name = SSHSessionRequest.isPlainName(subsystem.subsystem) ? subsystem.subsystem : "such service"
            refuse("This shop has no \(name): only its app and its commands (ssh host help lists them).", context)
        case ChannelEvent.inputClosed:
            // Nothing more will be typed: a running app is hung up; one starting is once it has.
            guard case .running = phase else { return inputEnded = true }
            endWithInput(context.channel)
        case let change as SSHChannelRequestEvent.WindowChangeRequest:
            guard request.resize(columns: change.terminalCharacterWidth, rows: change.terminalRowHeight),
                case .running = phase, !resizePending
            else { return }
            // At most one resize each ``resizeGap``, the latest size: a flood of them costs a few frames.
            resizePending = true
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: Self.resizeGap) {
                let this = handler.value
                this.resizePending = false
                guard case .running(let session, _) = this.phase, let size = this.request.size else { return }
                session.app.resize(size)
            }
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastHeard = .now()
        let data = unwrapInboundIn(data)
        guard case .channel = data.type, case .byteBuffer(var bytes) = data.data else { return }
        switch phase {
        case .running(_, let relay): relay.visitorTyped(bytes)
        case .asking, .starting:  // keys pressed while the app starts are its first, not lost
            var kept = typedAhead ?? context.channel.allocator.buffer(capacity: 0)
            let room = Self.typedAheadLimit - kept.readableBytes
            if room > 0, let slice = bytes.readSlice(length: min(room, bytes.readableBytes)) {
                kept.writeImmutableBuffer(slice)
            }
            typedAhead = kept
        case .command, .ended: break
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if case .running(_, let relay) = phase { relay.visitorCanTake(context.channel.isWritable) }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        hangUp(on: context.eventLoop, ending: closing ? .closing : .left)
        context.fireChannelInactive()
    }

    /// Ends the session from this side (the visitor left, or is refused now): a running app is
    /// hung up and its terminal closed.
    private func hangUp(on loop: any EventLoop, ending: SSHMetrics.Ending) {
        if case .running(let session, let relay) = phase {
            phase = .ended  // before the terminal's close, which tells `appEnded`
            session.app.signal(SIGHUP)
            relay.closeTerminal()
            end(session, on: loop, killAfter: Self.hangUpGrace, ending: ending)
        }
        phase = .ended
    }

    /// The visitor's input ended: as a shell given end of input at its prompt, the app ends and
    /// the session with status 0.
    private func endWithInput(_ channel: any Channel) {
        hangUp(on: channel.eventLoop, ending: .left)
        channel.triggerUserOutboundEvent(SSHChannelRequestEvent.ExitStatus(exitStatus: 0))
            .whenComplete { _ in channel.close(promise: nil) }
    }

    /// The server stops: the app is asked to end, and killed if it has not within the grace;
    /// its terminal stays relayed until it has, so the visitor's terminal is given back whole.
    private func close(on loop: any EventLoop) {
        guard case .running(let session, _) = phase, !closing else { return }
        closing = true
        session.app.signal(SIGTERM)
        loop.scheduleTask(in: Self.hangUpGrace) { session.app.signal(SIGKILL) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// Runs the command `line` (``SSHCommands``): what it prints goes to the visitor's stdout and
    /// stderr (lines ending in CR LF on a terminal, which nothing on this side translates), then
    /// its exit status, and the channel closes.
    private func run(_ line: String, _ context: ChannelHandlerContext) {
        phase = .command
        let channel = context.channel, shop = shop, visitor = visitor, terminal = request.terminal != nil
        context.eventLoop.makeFutureWithTask { await shop.runCommand(line, for: visitor, terminal: terminal) }
            .whenSuccess { outcome in
                for (text, type) in [(outcome.stdout, SSHChannelData.DataType.channel), (outcome.stderr, .stdErr)]
                where !text.isEmpty {
                    let bytes = terminal ? text.replacingOccurrences(of: "\n", with: "\r\n") : text
                    let buffer = channel.allocator.buffer(string: bytes)
                    channel.write(SSHChannelData(type: type, data: .byteBuffer(buffer)), promise: nil)
                }
                channel.flush()
                channel.triggerUserOutboundEvent(SSHChannelRequestEvent.ExitStatus(exitStatus: Int(outcome.status)))
                    .whenComplete { _ in channel.close(promise: nil) }
            }
    }

    /// Starts the app (signing the key in first), on the screen `opening` names when given, and
    /// relays its terminal.
    private func start(_ context: ChannelHandlerContext, opening: ScreenLink? = nil) {
        phase = .starting
        let channel = context.channel, loop = context.eventLoop
        let shop = shop, visitor = visitor, request = request
        let handler = NIOLoopBound(self, eventLoop: loop)
        loop.makeFutureWithTask { try await shop.open(for: visitor, request, opening: opening) }
            .flatMap { session in
                // the terminal's channel is on this event loop too
                let relay = NIOLoopBound(
                    TerminalRelay(session: channel, app: session.app) { handler.value.appEnded(channel) },
                    eventLoop: loop)
                return NIOPipeBootstrap(group: loop)
                    .channelInitializer { terminal in
                        terminal.eventLoop.makeCompletedFuture {
                            try terminal.pipeline.syncOperations.addHandler(relay.value.terminalSide())
                        }
                    }
                    .takingOwnershipOfDescriptor(inputOutput: session.app.master)
                    .map { _ in (session, relay) }
                    .flatMapErrorThrowing { error in
                        session.app.signal(SIGKILL)
                        handler.value.end(session, on: loop, killAfter: nil, ending: .left)  // reaped, then closed
                        throw error
                    }
            }
            .whenComplete { result in
                let this = handler.value
                switch result {
                case .success(let (session, relay)):
                    let left: Bool = if case .starting = this.phase { false } else { true }
                    this.phase = .running(session, relay.value)
                    if left { return this.hangUp(on: loop, ending: .left) }  // the visitor left while it started
                    if this.inputEnded { return this.endWithInput(channel) }
                    if let typed = this.typedAhead { relay.value.visitorTyped(typed) }
                    this.typedAhead = nil
                    // a window-change while it started (a phone turned, a pane resized) is its first
                    if let size = this.request.size, size != request.size { session.app.resize(size) }
                    shop.running(session) { loop.execute { handler.value.close(on: loop) } }
                case .failure(let refusal as SSHShop.Refusal):
                    this.refuse(refusal.message, channel: channel)
                case .failure(let error):
                    shop.logger.error("an SSH session could not start: \(error)")
                    this.refuse("The shop cannot open now: please try again later.", channel: channel)
                }
            }
    }

    /// The app's terminal closed (the app exited): its status goes to the visitor (with the
    /// reason, when the server is stopping), then the channel closes.
    private func appEnded(_ channel: any Channel) {
        guard case .running(let session, _) = phase else { return }
        phase = .ended
        let closing = closing
        let notes = (closing ? [Self.closingMessage] : []) + (connection.forwardingAsked ? [Self.noForwarding] : [])
        end(session, on: channel.eventLoop, killAfter: nil, ending: closing ? .closing : .quit) { status in
            for note in notes {
                let text = channel.allocator.buffer(string: "\r\n" + note + "\r\n")
                channel.writeAndFlush(SSHChannelData(type: .stdErr, data: .byteBuffer(text)), promise: nil)
            }
            channel.triggerUserOutboundEvent(SSHChannelRequestEvent.ExitStatus(exitStatus: Int(status)))
                .whenComplete { _ in channel.close(promise: nil) }
        }
    }

    /// Once the app has exited (killed after `killAfter`, when given), closes the session as
    /// `ending` says and tells `ended` the exit status, on the channel's event loop.
    private func end(
        _ session: SSHShop.Session, on loop: any EventLoop, killAfter: TimeAmount?, ending: SSHMetrics.Ending,
        ended: @escaping @Sendable (Int32) -> Void = { _ in }
    ) {
        let shop = shop
        let kill = killAfter.map { grace in loop.scheduleTask(in: grace) { session.app.signal(SIGKILL) } }
        session.app.whenExited { status in
            loop.execute {
                kill?.cancel()
                ended(status)
                shop.ended(session, status: status, ending)
            }
        }
    }

    private func reply(_ wanted: Bool, _ success: Bool, _ context: ChannelHandlerContext) {
        guard wanted else { return }
        context.triggerUserOutboundEvent(success ? ChannelSuccessEvent() : ChannelFailureEvent(), promise: nil)
    }

    private func refuse(_ message: String, _ context: ChannelHandlerContext, ending: SSHMetrics.Ending = .left) {
        refuse(message, channel: context.channel, ending: ending)
    }

    /// Says `message` on the visitor's standard error, exits with status 1 and closes the channel;
    /// a running app is hung up (its session ended as `ending` says).
    private func refuse(_ message: String, channel: any Channel, ending: SSHMetrics.Ending = .left) {
        hangUp(on: channel.eventLoop, ending: ending)
        let text = channel.allocator.buffer(string: message + "\r\n")
        channel.writeAndFlush(SSHChannelData(type: .stdErr, data: .byteBuffer(text)), promise: nil)
        channel.triggerUserOutboundEvent(SSHChannelRequestEvent.ExitStatus(exitStatus: 1))
            .whenComplete { _ in channel.close(promise: nil) }
    }
}
