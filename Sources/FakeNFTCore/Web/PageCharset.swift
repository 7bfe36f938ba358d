import Foundation

/// The character set a web page is written in, as browsers decide it: the `charset` of the
/// answer's `Content-Type`, else a byte-order mark, else the page's own `<meta charset>` or
/// `<meta http-equiv="Content-Type">` in its first 1,024 bytes, else UTF-8 when the bytes are
/// valid UTF-8, else windows-1252 (the web's default for pages that say nothing).
public enum PageCharset {
    /// The name libxml2 is given for `html` served with `contentType`.
    public static func of(_ html: Data, contentType: String?) -> String {
        if let declared = contentType.flatMap(Self.charset(inContentType:)) { return declared }
        if html.starts(with: [0xEF, 0xBB, 0xBF]) { return "UTF-8" }
        if html.starts(with: [0xFF, 0xFE]) { return "UTF-16LE" }
        if html.starts(with: [0xFE, 0xFF]) { return "UTF-16BE" }
        if let meta = metaCharset(html.prefix(1024)) { return meta }
        return String(data: html, encoding: .utf8) != nil ? "UTF-8" : "windows-1252"
    }

    /// `charset=…` in a `Content-Type` value (quotes and case as servers write them).
    static func charset(inContentType value: String) -> String? {
        for parameter in value.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else {
                continue
            }
            return clean(pair[1])
        }
        return nil
    }

    /// The charset a `<meta>` in `head` declares (`charset="x"`, or `content="…; charset=x"`).
    static func metaCharset(_ head: Data) -> String? {
        let text = String(decoding: head, as: UTF8.self).lowercased()
        var rest = text[...]
        while let meta = rest.range(of: "<meta") {
            let tagEnd = rest[meta.upperBound...].firstIndex(of: ">") ?? rest.endIndex
            let tag = rest[meta.upperBound..<tagEnd]
            if let at = tag.range(of: "charset=") {
                return clean(tag[at.upperBound...].prefix { !" ;/>".contains($0) })
            }
            rest = rest[tagEnd...]
        }
        return nil
    }

    /// A name of letters, digits, `-`, `_`, `.` and `:` (what charset names are), unquoted.
    private static func clean(_ raw: Substring) -> String? {
        let name = raw.trimmingCharacters(in: CharacterSet(charactersIn: " \"'"))
        guard !name.isEmpty, name.count <= 40,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:".contains($0)) })
        else { return nil }
        return name
    }
}
