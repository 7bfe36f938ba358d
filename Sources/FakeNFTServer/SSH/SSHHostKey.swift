import Crypto
import Foundation
import NIOSSH

/// The SSH front's host key: Ed25519, in OpenSSH's own private key file format (unencrypted), so
/// that `ssh-keygen -l -f FILE` prints the fingerprint visitors see and an operator may bring a
/// key made by `ssh-keygen -t ed25519 -N ''`.
public enum SSHHostKey {
    enum Problem: Error, CustomStringConvertible {
        case unreadable(String), notPrivate(String)
        var description: String {
            switch self {
            case .unreadable(let why): "the SSH host key cannot be read: \(why)"
            case .notPrivate(let path): "the SSH host key \(path) may be read by others: chmod 600 it"
            }
        }
    }

    /// The key in `path`; when there is none and `create` is set, a new one written there (0600).
    static func load(_ path: String, create: Bool) throws -> NIOSSHPrivateKey {
        if !FileManager.default.fileExists(atPath: path), create {
            let key = Curve25519.Signing.PrivateKey()
            let text = openSSHText(key)
            let made = FileManager.default.createFile(
                atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
            guard made else { throw Problem.unreadable("\(path) could not be written") }
            return NIOSSHPrivateKey(ed25519Key: key)
        }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw Problem.unreadable("\(path) is not a file")
        }
        guard status.st_mode & 0o077 == 0 else { throw Problem.notPrivate(path) }
        guard status.st_size < 16_384, let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Problem.unreadable("\(path) is not a key file")
        }
        return NIOSSHPrivateKey(ed25519Key: try ed25519Key(openSSHText: text))
    }

    /// `SHA256:…`, as `ssh-keygen -l` and OpenSSH's clients print a key's fingerprint.
    public static func fingerprint(_ key: NIOSSHPublicKey) -> String {
        let text = String(openSSHPublicKey: key)
        let wire = text.split(separator: " ").dropFirst().first.flatMap { Data(base64Encoded: String($0)) } ?? Data()
        let digest = Data(SHA256.hash(data: wire)).base64EncodedString()
        return "SHA256:" + digest.replacingOccurrences(of: "=", with: "")
    }

    private static let magic = Array("openssh-key-v1\0".utf8)
    private static let keyType = "ssh-ed25519"

    /// The unencrypted `openssh-key-v1` file of `key`.
    static func openSSHText(_ key: Curve25519.Signing.PrivateKey) -> String {
        let publicBytes = [UInt8](key.publicKey.rawRepresentation)
        var publicBlob = SSHWire()
        publicBlob.string(keyType)
        publicBlob.bytes(publicBytes)
        var secret = SSHWire()
        let check = UInt32.random(in: .min ... .max)
        secret.uint32(check)
        secret.uint32(check)
        secret.string(keyType)
        secret.bytes(publicBytes)
        secret.bytes([UInt8](key.rawRepresentation) + publicBytes)
        secret.string("fakenft")
        var pad: UInt8 = 1
        while secret.data.count % 8 != 0 {
            secret.data.append(pad)
            pad += 1
        }
        var file = SSHWire()
        file.data = magic
        file.string("none")
        file.string("none")
        file.string("")
        file.uint32(1)
        file.bytes(publicBlob.data)
        file.bytes(secret.data)
        let base64 = Data(file.data).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN OPENSSH PRIVATE KEY-----\n\(base64)\n-----END OPENSSH PRIVATE KEY-----\n"
    }

    /// The Ed25519 key of an unencrypted `openssh-key-v1` file.
    static func ed25519Key(openSSHText text: String) throws -> Curve25519.Signing.PrivateKey {
        let body = text.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("-----") }.joined()
        guard let data = Data(base64Encoded: body) else { throw Problem.unreadable("not an OpenSSH private key") }
        var reader = SSHWireReader(bytes: [UInt8](data))
        guard reader.take(magic.count) == magic else { throw Problem.unreadable("not an OpenSSH private key") }
        guard reader.string() == "none", reader.string() == "none", reader.bytes() != nil else {
            throw Problem.unreadable("the key is encrypted: make one with ssh-keygen -t ed25519 -N ''")
        }
        guard reader.uint32() == 1, reader.bytes() != nil, let secret = reader.bytes() else {
            throw Problem.unreadable("the file holds other than one key")
        }
        var inner = SSHWireReader(bytes: secret)
        guard let first = inner.uint32(), first == inner.uint32() else { throw Problem.unreadable("damaged key file") }
        guard inner.string() == keyType, inner.bytes()?.count == 32, let pair = inner.bytes(), pair.count == 64 else {
            throw Problem.unreadable("not an Ed25519 key (make one with ssh-keygen -t ed25519)")
        }
        return try Curve25519.Signing.PrivateKey(rawRepresentation: pair.prefix(32))
    }
}

/// SSH's wire encoding (RFC 4251): big-endian lengths before strings.
private struct SSHWire {
    var data: [UInt8] = []

    mutating func uint32(_ value: UInt32) {
        data += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    mutating func bytes(_ bytes: [UInt8]) {
        uint32(UInt32(bytes.count))
        data += bytes
    }

    mutating func string(_ text: String) { bytes(Array(text.utf8)) }
}

/// Reads SSH's wire encoding; nil for anything past the end.
private struct SSHWireReader {
    let data: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) { data = bytes }

    mutating func take(_ count: Int) -> [UInt8]? {
        guard count >= 0, count <= data.count - offset else { return nil }
        defer { offset += count }
        return Array(data[offset..<offset + count])
    }

    mutating func uint32() -> UInt32? {
        take(4).map { $0.reduce(0) { $0 << 8 | UInt32($1) } }
    }

    mutating func bytes() -> [UInt8]? { uint32().flatMap { take(Int($0)) } }

    mutating func string() -> String? { bytes().map { String(decoding: $0, as: UTF8.self) } }
}
