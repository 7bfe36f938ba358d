import Crypto
import Foundation
import NIOCore
import NIOSSH
import Testing

@testable import FakeNFTServer

/// The SSH front's AES-GCM against swift-crypto's (another implementation of the same cipher), and
/// what it does with packets that are cut, changed or badly padded.
@Suite struct PacketCipherTests {
    /// Keys of one side; the other side's are these with inbound and outbound swapped.
    private static func keys(bytes: Int, seed: UInt8) -> NIOSSHSessionKeys {
        func key(_ offset: UInt8) -> SymmetricKey {
            SymmetricKey(data: (0..<bytes).map { UInt8(truncatingIfNeeded: Int(seed &+ offset) * 31 + $0) })
        }
        return NIOSSHSessionKeys(
            initialInboundIV: (0..<12).map { seed &+ UInt8($0) },
            initialOutboundIV: (0..<12).map { seed &+ 100 &+ UInt8($0) },
            inboundEncryptionKey: key(1), outboundEncryptionKey: key(2), inboundMACKey: key(3), outboundMACKey: key(4))
    }

    private static func swapped(_ keys: NIOSSHSessionKeys) -> NIOSSHSessionKeys {
        NIOSSHSessionKeys(
            initialInboundIV: keys.initialOutboundIV, initialOutboundIV: keys.initialInboundIV,
            inboundEncryptionKey: keys.outboundEncryptionKey, outboundEncryptionKey: keys.inboundEncryptionKey,
            inboundMACKey: keys.outboundMACKey, outboundMACKey: keys.inboundMACKey)
    }

    /// A plain packet as the serializer hands it over: length, padding length, payload, padding
    /// (at least 4 bytes, to a whole number of blocks after the length).
    private static func packet(_ payload: [UInt8], padding: Int? = nil) -> ByteBuffer {
        let padding = padding ?? (4 + (16 - (1 + payload.count + 4) % 16) % 16)
        var buffer = ByteBuffer()
        buffer.writeInteger(UInt32(1 + payload.count + padding))
        buffer.writeInteger(UInt8(truncatingIfNeeded: padding))
        buffer.writeBytes(payload)
        buffer.writeRepeatingByte(0x5A, count: padding)
        return buffer
    }

    @Test(arguments: [16, 32]) func packetsAreSwiftCryptosAESGCM(keyBytes: Int) throws {
        let keys = Self.keys(bytes: keyBytes, seed: 7)
        let sealing: any NIOSSHTransportProtection =
            keyBytes == 16
            ? try PacketCipher<AES128Key>(initialKeys: keys) : try PacketCipher<AES256Key>(initialKeys: keys)
        var nonce = keys.initialOutboundIV
        for payload in [Array("j".utf8), Array(repeating: 0x41, count: 1_000), []] {
            let plain = Self.packet(payload)
            var sealed = plain
            try sealing.encryptPacket(&sealed, sequenceNumber: 0)
            #expect(sealed.readableBytes == plain.readableBytes + 16)
            let bytes = Array(sealed.readableBytesView)
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: nonce), ciphertext: bytes[4..<(bytes.count - 16)], tag: bytes.suffix(16))
            let opened = try AES.GCM.open(
                box, using: keys.outboundEncryptionKey, authenticating: Array(plain.readableBytesView.prefix(4)))
            #expect(Array(opened) == Array(plain.readableBytesView.dropFirst(4)))
            #expect(Array(bytes.prefix(4)) == Array(plain.readableBytesView.prefix(4)), "the length is sent as it is")
            // the nonce's last 8 bytes count the packets
            let counter = nonce[4...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } &+ 1
            nonce = Array(nonce[..<4]) + (0..<8).reversed().map { UInt8(truncatingIfNeeded: counter >> ($0 * 8)) }
        }
    }

    @Test func eachSideOpensWhatTheOtherSeals() throws {
        let keys = Self.keys(bytes: 16, seed: 42)
        let server = try PacketCipher<AES128Key>(initialKeys: keys)
        let client = try PacketCipher<AES128Key>(initialKeys: Self.swapped(keys))
        for round in 0..<3 {
            let payload = Array("key \(round)".utf8)
            var sealed = Self.packet(payload)
            try client.encryptPacket(&sealed, sequenceNumber: UInt32(round))
            #expect(
                Array(try server.decryptAndVerifyRemainingPacket(&sealed, sequenceNumber: 0).readableBytesView)
                    == payload)
            #expect(sealed.readableBytes == 0, "the whole packet is taken")
        }
        // after a new key exchange, both start again from the new nonces
        let next = Self.keys(bytes: 16, seed: 9)
        try server.updateKeys(next)
        try client.updateKeys(Self.swapped(next))
        var sealed = Self.packet(Array("after".utf8))
        try server.encryptPacket(&sealed, sequenceNumber: 0)
        #expect(
            Array(try client.decryptAndVerifyRemainingPacket(&sealed, sequenceNumber: 0).readableBytesView)
                == Array("after".utf8))
    }

    @Test func aChangedCutOrBadlyPaddedPacketIsRefused() throws {
        let keys = Self.keys(bytes: 32, seed: 3)
        let sealed = { (packet: ByteBuffer) throws -> ByteBuffer in
            var packet = packet
            try PacketCipher<AES256Key>(initialKeys: Self.swapped(keys)).encryptPacket(&packet, sequenceNumber: 0)
            return packet
        }
        let open = { (packet: ByteBuffer) throws -> ByteBuffer in
            var packet = packet
            return try PacketCipher<AES256Key>(initialKeys: keys).decryptAndVerifyRemainingPacket(
                &packet, sequenceNumber: 0)
        }
        let good = try sealed(Self.packet(Array("hello".utf8)))
        #expect(Array(try open(good).readableBytesView) == Array("hello".utf8))
        for index in [0, 3, 4, 20, good.readableBytes - 1] {  // the length, the text and the tag are all authenticated
            var changed = good
            changed.setInteger(good.getInteger(at: index, as: UInt8.self)! ^ 0x01, at: index)
            #expect(throws: PacketCipherError.authentication) { try open(changed) }
        }
        #expect(throws: PacketCipherError.packetLength) {
            try open(good.getSlice(at: 0, length: good.readableBytes - 1)!)
        }
        #expect(throws: PacketCipherError.packetLength) { try open(good.getSlice(at: 0, length: 20)!) }
        #expect(throws: PacketCipherError.padding) {
            try open(try sealed(Self.packet(Array(repeating: 1, count: 12), padding: 3)))
        }
        var overlong = Self.packet(Array(repeating: 1, count: 7))  // 1 + 7 + 8: a padding length past the packet
        overlong.setInteger(UInt8(200), at: 4)
        #expect(throws: PacketCipherError.padding) { try open(try sealed(overlong)) }
    }

    @Test func keysOfTheWrongSizeAreRefused() {
        #expect(throws: PacketCipherError.keys) {
            try PacketCipher<AES128Key>(initialKeys: Self.keys(bytes: 32, seed: 1))
        }
        var shortNonce = Self.keys(bytes: 16, seed: 1)
        shortNonce.initialInboundIV = [1, 2, 3]
        #expect(throws: PacketCipherError.keys) { try PacketCipher<AES128Key>(initialKeys: shortNonce) }
    }
}
