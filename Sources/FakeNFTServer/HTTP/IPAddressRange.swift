#if canImport(Glibc)
    import Glibc
#endif

/// An IPv4 or IPv6 address, or a network in CIDR notation (`10.0.0.0/8`, `fd00::/8`), as an
/// operator names trusted proxies.
public struct IPAddressRange: Sendable, Hashable {
    private let network: [UInt8]
    private let prefixLength: Int

    /// Parses `address` or `address/prefix`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bytes = Self.bytes(String(parts[0])) else { return nil }
        let bits = bytes.count * 8
        if parts.count == 2 {
            guard parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), let length = Int(parts[1]),
                (0...bits).contains(length)
            else {
                return nil
            }
            prefixLength = length
        } else {
            prefixLength = bits
        }
        network = bytes
    }

    /// Whether `address` (without port or brackets) lies in this range.
    public func contains(_ address: String) -> Bool {
        guard let bytes = Self.bytes(address), bytes.count == network.count else { return false }
        var left = prefixLength
        for (mine, theirs) in zip(network, bytes) where left > 0 {
            let mask: UInt8 = left >= 8 ? 0xFF : ~(0xFF >> UInt8(left))
            guard mine & mask == theirs & mask else { return false }
            left -= 8
        }
        return true
    }

    /// Whether `address` is a loopback address: 127.0.0.0/8, ::1, or 127.x mapped into IPv6.
    public static func isLoopback(_ address: String) -> Bool {
        guard let bytes = bytes(address) else { return false }
        if bytes.count == 4 { return bytes[0] == 127 }
        if bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }
        return Array(bytes.prefix(12)) == [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] && bytes[12] == 127
    }

    /// The network `address` belongs to as one client's addresses are counted where they rotate:
    /// its /24 (IPv4, also mapped into IPv6) or its /64 (IPv6); every loopback address is one
    /// (a local process may bind any of 127.0.0.0/8) unless `loopbackAsOne` is false; anything
    /// else as it is.
    public static func network(of address: String, loopbackAsOne: Bool = true) -> String {
        if loopbackAsOne, isLoopback(address) { return "loopback" }
        guard var bytes = bytes(address) else { return address }
        if bytes.count == 16, Array(bytes.prefix(12)) == [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] {
            bytes = Array(bytes.suffix(4))
        }
        if bytes.count == 4 { return bytes.prefix(3).map(String.init).joined(separator: ".") + ".0/24" }
        return stride(from: 0, to: 8, by: 2).map { String(format: "%02x%02x", bytes[$0], bytes[$0 + 1]) }
            .joined(separator: ":") + "::/64"
    }

    /// The address's 4 or 16 bytes; nil when it is not an IP address.
    static func bytes(_ text: String) -> [UInt8]? {
        guard text.utf8.count <= 64 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET, text, &bytes) == 1 { return Array(bytes.prefix(4)) }
        if inet_pton(AF_INET6, text, &bytes) == 1 { return bytes }
        return nil
    }
}
