import Crypto
import Foundation

/// Sign-in tokens: 256 random bits, stored only as their SHA-256.
enum Tokens {
    /// Every account token starts so: a token of that form that is not signed in is refused,
    /// while any other value keeps selecting the shared profile, as the gen-1 apps expect.
    static let prefix = "fnft_"

    /// A new token: the prefix and 32 random bytes in base64url.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let text = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(
                of: "=", with: "")
        return prefix + text
    }

    /// What the database keeps of a token: its SHA-256, in hex (worked out on every request
    /// of an account: no formatting calls).
    static func hash(_ token: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: Data(token.utf8)) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    static func isAccountToken(_ token: String) -> Bool { token.hasPrefix(prefix) }
}
