import Glibc

/// A TCP socket listening on a free port of 127.0.0.1 (the kernel picks it), for servers the
/// tests write with plain sockets. Close `socket` when done.
public func loopbackListener(backlog: Int32 = 64) throws -> (socket: Int32, port: Int) {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0 else { throw SpawnError(description: "no socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(listener, $0, length) == 0 && listen(listener, backlog) == 0 && getsockname(listener, $0, &length) == 0
        }
    }
    guard bound else {
        let reason = String(cString: strerror(errno))
        close(listener)
        throw SpawnError(description: "cannot listen on loopback: \(reason)")
    }
    return (listener, Int(UInt16(bigEndian: address.sin_port)))
}
