import FakeNFTModels
import HTTPTypes
import Hummingbird

/// Who the client is when the peer speaks for others. Behind a proxy every connection comes
/// from the proxy: when the peer is in one of the ranges the operator trusts (`--trusted-proxy`),
/// the client is the last address in `X-Forwarded-For` that is not a trusted proxy itself
/// (addresses further left were written by the client and prove nothing). The apps of the SSH
/// front's sessions all come from loopback: a request from loopback carrying a live session's
/// secret (`FakeNFT-SSH-Session`, ``SSHVisitorPasses``) is its visitor's. From any other peer
/// the headers are ignored, so a client cannot choose its own key.
struct ForwardedClientMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let trustedProxies: [IPAddressRange]
    let sshPasses: SSHVisitorPasses?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        if let sshPasses, let secret = request.headers[.sshSession], IPAddressRange.isLoopback(context.clientAddress),
            let holder = sshPasses.holder(of: secret)
        {
            context.clientAddress = holder.address
            context.sshSession = holder.session
        } else if !trustedProxies.isEmpty {
            context.clientAddress = client(
                peer: context.clientAddress, forwardedFor: request.headers[values: .xForwardedFor])
        }
        return try await next(request, context)
    }

    /// The client of a request from `peer` carrying the `X-Forwarded-For` lines `forwardedFor`.
    func client(peer: String, forwardedFor: [String]) -> String {
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map(Self.trimmed)
        var client = peer
        for hop in hops.reversed() {
            guard isTrusted(client), IPAddressRange.bytes(hop) != nil else { break }
            client = hop
        }
        return client
    }

    private func isTrusted(_ address: String) -> Bool { trustedProxies.contains { $0.contains(address) } }

    /// `hop` without the spaces and tabs HTTP allows around a list's items (on every request
    /// through a proxy: no Foundation).
    private static func trimmed(_ hop: Substring) -> String {
        let bytes = hop.utf8
        let blank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) })
        else { return "" }
        return String(Substring(bytes[first...last]))
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
    static let sshSession = Self(SSHSessionVariables.header)!
}
