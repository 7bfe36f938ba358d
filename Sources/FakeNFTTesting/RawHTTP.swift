import Foundation
import Glibc

/// Bytes over a plain TCP connection on loopback, for requests URLSession will not send
/// (no Host, HTTP/1.0, broken chunks, silence).
public final class RawConnection: @unchecked Sendable {
    private let socket: Int32

    public init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard socket >= 0, rc == 0 else {
            throw SpawnError(description: "cannot connect to port \(port): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(socket) }

    public func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// What arrives within `timeout` seconds, and whether the server closed the connection.
    /// The wait happens on a thread of its own, never on Swift's cooperative pool, where the
    /// server under test runs its handlers.
    public func receive(timeout: Double) async -> (text: String, closed: Bool) {
        await receive(timeout: timeout) { _ in false }
    }

    /// What arrives until `done` holds for it (or `timeout` seconds pass, or the server closes).
    public func receive(timeout: Double, until done: @escaping @Sendable (String) -> Bool) async -> (
        text: String, closed: Bool
    ) {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.receiveBlocking(timeout: timeout, until: done)) }.start()
        }
    }

    private func receiveBlocking(timeout: Double, until done: (String) -> Bool) -> (text: String, closed: Bool) {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, received.isEmpty || !done(String(decoding: received, as: UTF8.self)) else {
                return (String(decoding: received, as: UTF8.self), false)
            }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(left * 1000)) > 0 else { continue }
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { return (String(decoding: received, as: UTF8.self), true) }
            received += buffer[0..<count]
        }
    }

    /// Sends `request` and waits for the answer until the server closes the connection, or
    /// `timeout` seconds (generous: under a full test run the server may be slow to accept).
    public static func exchange(port: Int, _ request: String, timeout: Double = 15) async throws -> (
        text: String, closed: Bool
    ) {
        let connection = try RawConnection(port: port)
        connection.send(request)
        return await connection.receive(timeout: timeout)
    }
}
