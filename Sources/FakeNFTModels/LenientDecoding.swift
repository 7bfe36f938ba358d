import Foundation

/// Decoding helpers that accept both API generations' habits: numbers where strings are
/// specified, strings where numbers are, null for empty, and lists sent as comma strings.
extension KeyedDecodingContainer {
    /// A string that may arrive as a string, an integer or a number; nil when absent or null.
    func lenientString(_ key: Key) throws -> String? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let s = try? decode(String.self, forKey: key) { return s }
        if let i = try? decode(Int.self, forKey: key) { return String(i) }
        if let d = try? decode(Double.self, forKey: key) { return String(d) }
        throw DecodingError.typeMismatch(
            String.self, .init(codingPath: codingPath + [key], debugDescription: "expected a string or a number"))
    }

    /// A required string, accepting numbers too.
    func requiredString(_ key: Key) throws -> String {
        guard let s = try lenientString(key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "missing \(key.stringValue)"))
        }
        return s
    }

    /// A list of ids: an array of strings or numbers, a comma string, or null (empty).
    func idList(_ key: Key) throws -> [String] {
        guard contains(key), try !decodeNil(forKey: key) else { return [] }
        if let strings = try? decode([String].self, forKey: key) { return strings.flatMap(IDList.split) }
        if let ints = try? decode([Int].self, forKey: key) { return ints.map(String.init) }
        if let s = try? decode(String.self, forKey: key) { return IDList.split(s) }
        throw DecodingError.typeMismatch(
            [String].self, .init(codingPath: codingPath + [key], debugDescription: "expected a list of ids"))
    }

    /// A finite number that may arrive as a number or a numeric string. NaN and infinities
    /// (`"nan"`, `"inf"`, `1e999`) are a decoding error, never a value.
    func lenientDouble(_ key: Key) throws -> Double? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        let number: Double? =
            if let d = try? decode(Double.self, forKey: key) { d } else {
                (try? decode(String.self, forKey: key)).flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            }
        guard let number, number.isFinite else {
            throw DecodingError.typeMismatch(
                Double.self, .init(codingPath: codingPath + [key], debugDescription: "expected a finite number"))
        }
        return number
    }

    /// A whole number, rounded; beyond `Int`'s range it is clamped, never a trap.
    func lenientInt(_ key: Key) throws -> Int? {
        try lenientDouble(key).map(Int.clamping)
    }
}

extension Int {
    /// `value` rounded to the nearest whole number, clamped to `Int.min...Int.max`; `value` is finite.
    static func clamping(_ value: Double) -> Int {
        let rounded = value.rounded()
        if rounded >= 0x1p63 { return .max }
        if rounded < -0x1p63 { return .min }
        return Int(rounded)
    }
}

/// How id lists travel in form bodies: `a,b,c`, `a, b`, `a%2Cb` (already decoded), or `null`.
public enum IDList {
    /// Splits a comma list, trimming spaces; `null` and empty give no ids. A list of plain ASCII
    /// without spaces or tabs (every list a client sends, in practice) is split directly: trimming
    /// through Foundation was a fiftieth of a write's CPU.
    public static func split(_ value: String) -> [String] {
        if value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) {
            return value == "null" ? [] : value.split(separator: ",").map(String.init)
        }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed == "null" { return [] }
        return trimmed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The form value for a list: comma-joined, or `null` when empty (what real servers expect).
    public static func formValue(_ ids: [String]) -> String { ids.isEmpty ? "null" : ids.joined(separator: ",") }

    /// `list`'s differences from `base` (ids added, ids removed) applied to `fresh`: a client's
    /// own changes to a list, kept on top of what others changed since it read `base`.
    public static func rebase(_ list: [String], from base: [String], onto fresh: [String]) -> [String] {
        let baseSet = Set(base)
        let removed = baseSet.subtracting(list)
        var result = fresh.filter { !removed.contains($0) }
        var present = Set(result)
        for id in list where !baseSet.contains(id) && present.insert(id).inserted { result.append(id) }
        return result
    }
}
