import FakeNFTModels
import Foundation

/// The fields of a PUT/POST body, read the tolerant way real clients need: form-urlencoded or
/// JSON; `k[]=` keys merged with `k`; comma lists with or without spaces (`%2C` decodes to a
/// comma); `null` or an empty value for an empty list; a missing key meaning "unchanged".
public struct RequestFields: Sendable {
    private var values: [String: [String]] = [:]

    public init(values: [String: [String]] = [:]) { self.values = values }

    /// Parses `body`; JSON when the content type says so or the body starts with `{`.
    public init(body: Data, contentType: String?) throws(RequestError) {
        guard !body.isEmpty else {
            self.init()
            return
        }
        guard let text = String(validating: body, as: UTF8.self) else { throw RequestError("body is not valid UTF-8") }
        let trimmed = Self.trimmingWhitespace(text)
        if contentType.map(Self.namesJSON) == true || trimmed.hasPrefix("{") {
            try self.init(json: body)
        } else {
            self.init()
            for (key, value) in FormEncoding.decode(trimmed) { append(value, for: key) }
        }
    }

    private init(json: Data) throws(RequestError) {
        self.init()
        guard let object = try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed]) else {
            throw RequestError("malformed JSON body")
        }
        guard let dictionary = object as? [String: Any] else { throw RequestError("JSON body must be an object") }
        for (key, value) in dictionary {
            switch value {
            case let list as [Any]:
                values[Self.normalize(key), default: []].append(
                    contentsOf: try list.map { (item) throws(RequestError) in try Self.scalar(item, key) })
            case is NSNull: append("null", for: key)
            default: append(try Self.scalar(value, key), for: key)
            }
        }
    }

    /// `text` without the white space at either end, as Foundation's `whitespacesAndNewlines`
    /// takes it (Unicode's, and the zero-width space); a body that has none there (nearly every
    /// one) is not copied.
    static func trimmingWhitespace(_ text: String) -> Substring {
        let scalars = text.unicodeScalars
        func kept(_ scalar: Unicode.Scalar) -> Bool { !scalar.properties.isWhitespace && scalar != "\u{200B}" }
        guard let first = scalars.firstIndex(where: kept), let last = scalars.lastIndex(where: kept) else { return "" }
        return Substring(scalars[first...last])
    }

    /// Whether a Content-Type names JSON (`json` in any case, as in `application/json`).
    private static func namesJSON(_ contentType: String) -> Bool {
        let json = Array("json".utf8), bytes = Array(contentType.utf8)
        guard bytes.count >= json.count else { return false }
        return (0...(bytes.count - json.count)).contains { start in
            json.indices.allSatisfy { bytes[start + $0] | 0x20 == json[$0] }
        }
    }

    private static func scalar(_ value: Any, _ key: String) throws(RequestError) -> String {
        switch value {
        case let s as String: return s
        case let n as NSNumber: return n.stringValue
        case is NSNull: return "null"
        default: throw RequestError.badField(key, "must be a string, a number or a list of them")
        }
    }

    private mutating func append(_ value: String, for key: String) {
        values[Self.normalize(key), default: []].append(value)
    }

    private static func normalize(_ key: String) -> String {
        key.hasSuffix("[]") ? String(key.dropLast(2)) : key
    }

    /// The last value of a text field, or nil when the key was not sent.
    public func string(_ key: String) -> String? { values[key]?.last }

    /// A list field, or nil when the key was not sent. Every value is split on commas.
    public func list(_ key: String) -> [String]? {
        values[key].map { $0.flatMap(IDList.split) }
    }
}
