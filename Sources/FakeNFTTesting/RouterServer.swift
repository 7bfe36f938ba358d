import Foundation
import Hummingbird

/// Runs `router` on a free loopback port for the duration of `body`, which gets the base URL.
/// For servers that must misbehave or count in ways the real FakeNFT server does not.
public func withRouter(_ router: Router<BasicRequestContext>, isolation: isolated (any Actor)? = #isolation,
                       _ body: (URL) async throws -> Void) async throws {
    let ports = PortBox()
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                          onServerRunning: { await ports.set($0.localAddress?.port ?? 0) })
    let task = Task { try await app.run() }
    defer { task.cancel() }
    try await body(URL(string: "http://127.0.0.1:\(await ports.wait())")!)
}

/// Hands the listening port to whoever waits for it.
private actor PortBox {
    private var port: Int?
    private var waiters: [CheckedContinuation<Int, Never>] = []
    func set(_ value: Int) { port = value; waiters.forEach { $0.resume(returning: value) }; waiters = [] }
    func wait() async -> Int {
        if let port { return port }
        return await withCheckedContinuation { waiters.append($0) }
    }
}
