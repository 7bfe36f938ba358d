import Foundation
import NIOCore

/// JSON as the server writes it: keys sorted, slashes unescaped; byte for byte what Foundation's
/// `JSONEncoder` writes with `[.sortedKeys, .withoutEscapingSlashes]`, but written from the
/// value's `Encodable` conformance through a few plain nodes instead of `JSONEncoder`'s boxed
/// values: several times quicker (every change encodes a profile and a row of `/users`; a large
/// catalog encodes a million NFTs at start). Values of types with an encoding strategy of their
/// own (dates, URLs, data, decimals, floats) go through `JSONEncoder`.
enum JSONBody {
    static func encode(_ value: some Encodable) throws -> ByteBuffer {
        let encoding = Encoding()
        do {
            try encoding.encode(value)
        } catch is Unplain {
            return ByteBuffer(bytes: try fallback.encode(value))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        (encoding.node ?? .object(Members())).write(to: &bytes)
        return ByteBuffer(bytes: bytes)
    }

    private static let fallback: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()

    /// A value this encoder leaves to `JSONEncoder`.
    private struct Unplain: Error {}

    /// A value as it will be written.
    private enum Node {
        /// JSON text: a number, `true`, `false` or `null`.
        case text(String)
        /// A string, quoted and escaped as it is written.
        case string(String)
        case object(Members)
        case array(Items)
        /// What an encoder handed out for a nested value made of (written as `{}` when it was
        /// given nothing, as `JSONEncoder` does).
        case later(Encoding)

        func write(to bytes: inout [UInt8]) {
            switch self {
            case .text(let text): bytes += text.utf8
            case .string(let string): JSONBody.writeQuoted(string, to: &bytes)
            case .object(let members):
                bytes.append(UInt8(ascii: "{"))
                for (index, member) in members.sorted().enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    JSONBody.writeQuoted(member.key, to: &bytes)
                    bytes.append(UInt8(ascii: ":"))
                    member.value.write(to: &bytes)
                }
                bytes.append(UInt8(ascii: "}"))
            case .array(let items):
                bytes.append(UInt8(ascii: "["))
                for (index, item) in items.list.enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    item.write(to: &bytes)
                }
                bytes.append(UInt8(ascii: "]"))
            case .later(let encoding): (encoding.node ?? .object(Members())).write(to: &bytes)
            }
        }
    }

    private final class Members {
        var list: [(key: String, value: Node)] = []

        /// By key, as `JSONEncoder` sorts them (by their UTF-8); of a key given twice, the last value.
        func sorted() -> [(key: String, value: Node)] {
            let order = list.indices.sorted { a, b in
                let (x, y) = (list[a].key.utf8, list[b].key.utf8)
                if x.lexicographicallyPrecedes(y) { return true }
                return !y.lexicographicallyPrecedes(x) && a < b
            }
            var kept: [(key: String, value: Node)] = []
            kept.reserveCapacity(order.count)
            for index in order {
                if let last = kept.last, last.key == list[index].key {
                    kept[kept.count - 1] = list[index]
                } else {
                    kept.append(list[index])
                }
            }
            return kept
        }
    }

    private final class Items {
        var list: [Node] = []
    }

    /// Writes `text` as a JSON string, escaped as `JSONEncoder` escapes it.
    private static func writeQuoted(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case ..<0x20: bytes += Array("\\u00".utf8) + [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A number as `JSONEncoder` writes it: refused when not finite; no `.0` when whole.
    static func number(_ value: Double, _ path: [any CodingKey]) throws -> String {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: path, debugDescription: "Unable to encode \(value) directly in JSON."))
        }
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// The encoder one value is encoded through; `node` is what it made.
    private final class Encoding: Encoder {
        var node: Node?
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        init(codingPath: [any CodingKey] = []) { self.codingPath = codingPath }

        /// Encodes `value` here: its node, or (for a plain scalar) its text.
        func encode<T: Encodable>(_ value: T) throws {
            if let scalar = try JSONBody.scalar(value, { self.codingPath }) {
                node = scalar
            } else {
                try value.encode(to: self)
            }
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .object(let members) = node {
                return KeyedEncodingContainer(Keyed(members: members, path: codingPath))
            }
            let members = Members()
            node = .object(members)
            return KeyedEncodingContainer(Keyed(members: members, path: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .array(let items) = node { return Unkeyed(items: items, codingPath: codingPath) }
            let items = Items()
            node = .array(items)
            return Unkeyed(items: items, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoding: self) }
    }

    /// A scalar's node; nil for anything made of containers; `Unplain` for what `JSONEncoder`
    /// encodes by a strategy of its own. (`path` is made only for an error: most values never
    /// need it.)
    private static func scalar<T: Encodable>(_ value: T, _ path: () -> [any CodingKey]) throws -> Node? {
        switch value {
        case let string as String: return .string(string)
        case let number as Int: return .text(String(number))
        case let number as Double: return .text(try JSONBody.number(number, path()))
        case let flag as Bool: return .text(flag ? "true" : "false")
        case is Date, is URL, is Data, is Decimal, is Float: throw Unplain()
        case let number as any BinaryInteger: return .text(String(describing: number))
        default: return nil
        }
    }

    /// A nested value's node.
    private static func node<T: Encodable>(of value: T, _ path: @autoclosure () -> [any CodingKey]) throws -> Node {
        if let scalar = try scalar(value, path) { return scalar }
        let encoding = Encoding(codingPath: path())
        try value.encode(to: encoding)
        return encoding.node ?? .object(Members())
    }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let members: Members
        let path: [any CodingKey]
        var codingPath: [any CodingKey] { path }

        private func add(_ key: Key, _ node: Node) { members.list.append((key.stringValue, node)) }

        mutating func encodeNil(forKey key: Key) throws { add(key, .text("null")) }
        mutating func encode(_ value: String, forKey key: Key) throws { add(key, .string(value)) }
        mutating func encode(_ value: Int, forKey key: Key) throws { add(key, .text(String(value))) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { add(key, .text(value ? "true" : "false")) }
        mutating func encode(_ value: Double, forKey key: Key) throws {
            add(key, .text(try JSONBody.number(value, path + [key])))
        }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            add(key, try JSONBody.node(of: value, path + [key]))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            let nested = Members()
            add(key, .object(nested))
            return KeyedEncodingContainer(Keyed<NestedKey>(members: nested, path: path + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let nested = Items()
            add(key, .array(nested))
            return Unkeyed(items: nested, codingPath: path + [key])
        }

        mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }
        mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

        private func superEncoder(named name: String) -> any Encoder {
            let encoding = Encoding(codingPath: path)
            members.list.append((name, .later(encoding)))
            return encoding
        }
    }

    private struct Unkeyed: UnkeyedEncodingContainer {
        let items: Items
        let codingPath: [any CodingKey]
        var count: Int { items.list.count }

        mutating func encodeNil() throws { items.list.append(.text("null")) }
        mutating func encode(_ value: String) throws { items.list.append(.string(value)) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            items.list.append(try JSONBody.node(of: value, codingPath))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            let nested = Members()
            items.list.append(.object(nested))
            return KeyedEncodingContainer(Keyed<NestedKey>(members: nested, path: codingPath))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nested = Items()
            items.list.append(.array(nested))
            return Unkeyed(items: nested, codingPath: codingPath)
        }

        mutating func superEncoder() -> any Encoder {
            let encoding = Encoding(codingPath: codingPath)
            items.list.append(.later(encoding))
            return encoding
        }
    }

    private struct Single: SingleValueEncodingContainer {
        let encoding: Encoding
        var codingPath: [any CodingKey] { encoding.codingPath }

        mutating func encodeNil() throws { encoding.node = .text("null") }
        mutating func encode<T: Encodable>(_ value: T) throws {
            encoding.node = try JSONBody.node(of: value, encoding.codingPath)
        }
    }
}
