/// An SSH disconnect message sent before any key exchange (RFC 4253, 11.1): the server's version
/// line, then the message as a plain packet, which OpenSSH's client prints ("Received disconnect
/// from …: <reason>") before it exits. NIOSSH sends none of its own; this is for a connection
/// turned away before NIOSSH has it.
enum SSHDisconnect {
    /// `SSH_DISCONNECT_TOO_MANY_CONNECTIONS`.
    static let tooManyConnections: UInt32 = 12

    /// The version line and the disconnect packet saying `message`.
    static func bytes(reason: UInt32, _ message: String) -> [UInt8] {
        var payload: [UInt8] = [1]  // SSH_MSG_DISCONNECT
        payload += bigEndian(reason)
        let text = Array(message.utf8.prefix(1_000))
        payload += bigEndian(UInt32(text.count)) + text
        payload += bigEndian(0)  // no language tag
        // The length field, the padding's length and the payload, padded (at least 4 bytes) to a multiple of 8.
        var padding = 8 - (4 + 1 + payload.count) % 8
        if padding < 4 { padding += 8 }
        let length = UInt32(1 + payload.count + padding)
        return Array("SSH-2.0-FakeNFT\r\n".utf8) + bigEndian(length) + [UInt8(padding)] + payload
            + [UInt8](repeating: 0, count: padding)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
