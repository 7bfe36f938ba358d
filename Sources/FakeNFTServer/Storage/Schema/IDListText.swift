import Foundation
import NIOCore

/// Id lists as both stores keep them: JSON text (`["1","2"]`), written and read directly when
/// the ids need no escape, through JSON otherwise.
enum IDListText {
    /// An id list as stored: JSON text. Ids that need no escape (all of them, in practice) are
    /// written directly: a change writes three lists.
    static func text(_ ids: [String]) throws -> String {
        guard ids.allSatisfy(isPlain) else { return String(buffer: try JSONBody.encode(ids)) }
        return ids.isEmpty ? "[]" : "[\"" + ids.joined(separator: "\",\"") + "\"]"
    }

    /// The ids of a stored list. The lists written by ``text(_:)`` from plain ids are split
    /// directly (a large catalog has a million of them to read at start); any other text is
    /// decoded as JSON.
    static func list(_ text: String) throws -> [String] {
        if text == "[]" { return [] }
        if let ids = plainList(text) { return ids }
        do { return try JSONDecoder().decode([String].self, from: Data(text.utf8)) } catch {
            throw StoreError.damaged("an id list is not JSON: \(text.prefix(80))")
        }
    }

    /// The ids of `["a","b"]` as ``text(_:)`` writes plain ids (or `JSONEncoder`, which escapes
    /// slashes: `\/`), split at each `","` over the bytes; nil for any other text (another
    /// escape, a control character, a quote elsewhere, spaces).
    private static func plainList(_ text: String) -> [String]? {
        var text = text
        return text.withUTF8 { bytes -> [String]? in
            let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), backslash = UInt8(ascii: "\\")
            let last = bytes.count - 1
            guard bytes.count >= 4, bytes[0] == UInt8(ascii: "["), bytes[1] == quote, bytes[last - 1] == quote,
                bytes[last] == UInt8(ascii: "]")
            else { return nil }
            let end = last - 1  // the closing quote
            var ids: [String] = []
            var start = 2, index = 2, slashes = false
            func takeID() {
                let id = UnsafeBufferPointer(rebasing: bytes[start..<index])
                ids.append(
                    slashes
                        ? String(decoding: id.filter { $0 != backslash }, as: UTF8.self)
                        : String(decoding: id, as: UTF8.self))
                slashes = false
            }
            while index < end {
                let byte = bytes[index]
                if byte < 0x20 { return nil }
                if byte == backslash {
                    guard index + 1 < end, bytes[index + 1] == UInt8(ascii: "/") else { return nil }
                    slashes = true
                    index += 2
                } else if byte == quote {
                    guard index + 2 < end, bytes[index + 1] == comma, bytes[index + 2] == quote else { return nil }
                    takeID()
                    index += 3
                    start = index
                } else {
                    index += 1
                }
            }
            takeID()
            return ids
        }
    }

    /// Whether JSON writes `id` as it is, between quotes (no quote, backslash or control character).
    private static func isPlain(_ id: String) -> Bool {
        !id.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
    }
}
