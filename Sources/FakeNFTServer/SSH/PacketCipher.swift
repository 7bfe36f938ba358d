import CPacketCipher
import Crypto
import NIOCore
import NIOSSH

/// An AES key size as OpenSSH names its AES-GCM ciphers.
protocol PacketCipherKeySize: SendableMetatype {
    static var cipherName: String { get }
    static var keyBytes: Int { get }
}

enum AES128Key: PacketCipherKeySize {
    static let cipherName = "aes128-gcm@openssh.com"
    static let keyBytes = 16
}

enum AES256Key: PacketCipherKeySize {
    static let cipherName = "aes256-gcm@openssh.com"
    static let keyBytes = 32
}

/// Why a packet could not be sealed or opened: the connection ends.
enum PacketCipherError: Error {
    /// Not a whole number of blocks, or none.
    case packetLength
    /// Less than 4 bytes of padding, or more than the packet holds.
    case padding
    /// The key exchange gave keys or nonces of the wrong size.
    case keys
    /// libcrypto could not seal it.
    case sealing
    /// The tag does not match: the packet was changed, or is not of this connection.
    case authentication
}

/// SSH's AES-GCM packets (RFC 5647, under OpenSSH's names) on libcrypto, in place of
/// swift-nio-ssh's own: each direction's key schedule is made once a key exchange (swift-nio-ssh's
/// makes one, and copies the packet twice, for every packet). A key's echo is one packet each way,
/// so this is on the path of every key a visitor presses.
///
/// A packet is its length (4 bytes, authenticated, not encrypted), then the encrypted padding
/// length, payload and padding, then the 16-byte tag.
final class PacketCipher<KeySize: PacketCipherKeySize>: NIOSSHTransportProtection {
    static var cipherName: String { KeySize.cipherName }
    static var macName: String? { nil }  // the tag is GCM's own
    static var cipherBlockSize: Int { 16 }
    static var keySizes: ExpectedKeySizes {
        ExpectedKeySizes(ivSize: 12, encryptionKeySize: KeySize.keyBytes, macKeySize: 16)
    }
    var macBytes: Int { Self.tagBytes }
    var lengthEncrypted: Bool { false }

    private static var tagBytes: Int { 16 }
    private static var lengthBytes: Int { 4 }
    private var sealing: Direction
    private var opening: Direction

    init(initialKeys: NIOSSHSessionKeys) throws {
        sealing = try Direction(
            key: initialKeys.outboundEncryptionKey, iv: initialKeys.initialOutboundIV, sealing: true)
        opening = try Direction(key: initialKeys.inboundEncryptionKey, iv: initialKeys.initialInboundIV, sealing: false)
    }

    func updateKeys(_ newKeys: NIOSSHSessionKeys) throws {
        sealing = try Direction(key: newKeys.outboundEncryptionKey, iv: newKeys.initialOutboundIV, sealing: true)
        opening = try Direction(key: newKeys.inboundEncryptionKey, iv: newKeys.initialInboundIV, sealing: false)
    }

    /// The length is not encrypted: nothing to do.
    func decryptFirstBlock(_ source: inout ByteBuffer) throws {}

    func decryptAndVerifyRemainingPacket(_ source: inout ByteBuffer, sequenceNumber: UInt32) throws -> ByteBuffer {
        let encrypted = source.readableBytes - Self.lengthBytes - Self.tagBytes
        guard encrypted > 0, encrypted % Self.cipherBlockSize == 0 else {
            throw PacketCipherError.packetLength
        }
        var plain = ByteBufferAllocator().buffer(capacity: encrypted)
        _ = try source.withUnsafeReadableBytes { packet in
            try plain.writeWithUnsafeMutableBytes(minimumWritableBytes: encrypted) { into in
                let text = UnsafeRawBufferPointer(rebasing: packet[Self.lengthBytes..<(Self.lengthBytes + encrypted)])
                try opening.open(
                    text, authenticating: UnsafeRawBufferPointer(rebasing: packet[..<Self.lengthBytes]),
                    tag: UnsafeRawBufferPointer(rebasing: packet[(Self.lengthBytes + encrypted)...]), into: into)
                return encrypted
            }
        }
        source.moveReaderIndex(forwardBy: source.readableBytes)
        // the padding length, the payload, then at least 4 bytes of padding
        guard let padding = plain.readInteger(as: UInt8.self).map(Int.init), padding >= 4,
            padding <= plain.readableBytes
        else { throw PacketCipherError.padding }
        plain.moveWriterIndex(to: plain.writerIndex - padding)
        return plain
    }

    func encryptPacket(_ destination: inout ByteBuffer, sequenceNumber: UInt32) throws {
        let encrypted = destination.readableBytes - Self.lengthBytes
        destination.writeRepeatingByte(0, count: Self.tagBytes)  // the tag's place, before the pointers are taken
        try destination.withUnsafeMutableReadableBytes { packet in
            try sealing.seal(
                UnsafeMutableRawBufferPointer(rebasing: packet[Self.lengthBytes..<(Self.lengthBytes + encrypted)]),
                authenticating: UnsafeRawBufferPointer(rebasing: packet[..<Self.lengthBytes]),
                tag: UnsafeMutableRawBufferPointer(rebasing: packet[(Self.lengthBytes + encrypted)...]))
        }
    }

    /// One direction: its key schedule, and its nonce (a fixed 4 bytes, then a 64-bit count of
    /// packets, big-endian, that wraps).
    private final class Direction {
        private let gcm: OpaquePointer
        /// Bytes 4 to 16 are the nonce.
        private var nonce: (UInt64, UInt64) = (0, 0)

        init(key: SymmetricKey, iv: [UInt8], sealing: Bool) throws {
            guard iv.count == 12 else { throw PacketCipherError.keys }
            guard key.bitCount == KeySize.keyBytes * 8,
                let gcm = key.withUnsafeBytes({ fakenft_gcm_new($0.baseAddress, $0.count, sealing ? 1 : 0) })
            else { throw PacketCipherError.keys }
            self.gcm = gcm
            withUnsafeMutableBytes(of: &nonce) { $0[4...].copyBytes(from: iv) }
        }

        deinit { fakenft_gcm_free(gcm) }

        func seal(
            _ text: UnsafeMutableRawBufferPointer, authenticating aad: UnsafeRawBufferPointer,
            tag: UnsafeMutableRawBufferPointer
        ) throws {
            let status = withNonce { nonce in
                fakenft_gcm_seal(
                    gcm, nonce, aad.bytes, aad.count, text.bytes, text.count, tag.bytes)
            }
            guard status == 0 else { throw PacketCipherError.sealing }
        }

        func open(
            _ text: UnsafeRawBufferPointer, authenticating aad: UnsafeRawBufferPointer,
            tag: UnsafeRawBufferPointer, into plain: UnsafeMutableRawBufferPointer
        ) throws {
            let status = withNonce { nonce in
                fakenft_gcm_open(gcm, nonce, aad.bytes, aad.count, text.bytes, text.count, tag.bytes, plain.bytes)
            }
            guard status == 0 else { throw PacketCipherError.authentication }
        }

        /// Calls `body` with this packet's nonce, then counts the packet.
        private func withNonce(_ body: (UnsafePointer<UInt8>) -> Int32) -> Int32 {
            defer { nonce.1 = (UInt64(bigEndian: nonce.1) &+ 1).bigEndian }
            return withUnsafeBytes(of: &nonce) { body($0.baseAddress!.assumingMemoryBound(to: UInt8.self) + 4) }
        }
    }
}

extension UnsafeRawBufferPointer {
    /// The bytes as libcrypto takes them.
    fileprivate var bytes: UnsafePointer<UInt8>? { baseAddress?.assumingMemoryBound(to: UInt8.self) }
}

extension UnsafeMutableRawBufferPointer {
    fileprivate var bytes: UnsafeMutablePointer<UInt8>? { baseAddress?.assumingMemoryBound(to: UInt8.self) }
}
