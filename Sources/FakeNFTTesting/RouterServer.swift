import Foundation
import Hummingbird
import NIOCore

/// Runs `router` on a free loopback port for the duration of `body`, which gets the base URL.
/// For servers that must misbehave or count in ways the real FakeNFT server does not.
public func withRouter(
    _ router: Router<BasicRequestContext>, isolation: isolated (any Actor)? = #isolation,
    _ body: (URL) async throws -> Void
) async throws {
    let listeners = ListenerBox()
    let app = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { await listeners.set($0) })
    let task = Task { try await app.run() }
    let listener = await listeners.wait()
    do {
        try await body(URL(string: "http://127.0.0.1:\(listener.localAddress?.port ?? 0)")!)
    } catch {
        await stop(task, listener)
        throw error
    }
    await stop(task, listener)
}

/// Stops accepting first, so no connection is being accepted when the server is cancelled
/// (that trips swift-nio's writer check, apple/swift-nio#3481).
private func stop(_ task: Task<Void, any Error>, _ listener: any Channel) async {
    try? await listener.close()
    try? await Task.sleep(for: .milliseconds(20))
    task.cancel()
}

/// Hands the listening channel to whoever waits for it.
private actor ListenerBox {
    private var listener: (any Channel)?
    private var waiters: [CheckedContinuation<any Channel, Never>] = []
    func set(_ value: any Channel) {
        listener = value
        waiters.forEach { $0.resume(returning: value) }
        waiters = []
    }
    func wait() async -> any Channel {
        if let listener { return listener }
        return await withCheckedContinuation { waiters.append($0) }
    }
}
