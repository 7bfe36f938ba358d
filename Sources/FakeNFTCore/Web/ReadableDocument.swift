import CLibXML2
import Foundation

/// A web page reduced to what a reader needs: title, headings, paragraphs, list items,
/// preformatted text (its lines kept), table rows (cells apart) and links.
public struct ReadableDocument: Sendable, Hashable {
    public enum Block: Sendable, Hashable {
        case heading(level: Int, text: String)
        case paragraph(String)
        case listItem(String)
        /// `<pre>`: the text with its line breaks (tabs as spaces, no trailing blank lines).
        case preformatted(String)
    }

    public struct Link: Sendable, Hashable {
        public var text: String
        public var url: String
    }

    public var title: String?
    public var blocks: [Block]
    /// Links in order of appearance; paragraphs mark them as "[n]".
    public var links: [Link]

    /// Parses HTML with libxml2's HTML parser (tolerant of broken markup, never touches the
    /// network), in the character set ``PageCharset`` finds for it and `contentType` (the
    /// answer's header); one libxml2 does not know is read as UTF-8.
    public static func parse(html: Data, baseURL: URL?, contentType: String? = nil) -> ReadableDocument {
        var builder = Builder(baseURL: baseURL)
        let charset = PageCharset.of(html, contentType: contentType)
        let handler = xmlFindCharEncodingHandler(charset)
        let encoding = handler != nil ? charset : "UTF-8"
        if let handler { xmlCharEncCloseFunc(handler) }
        html.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self), buffer.count > 0,
                let doc = htmlReadMemory(
                    base, Int32(buffer.count), baseURL?.absoluteString, encoding, cxml_html_options())
            else { return }
            defer { xmlFreeDoc(doc) }
            if let root = xmlDocGetRootElement(doc) { builder.walk(root) }
        }
        builder.flush()
        return ReadableDocument(title: builder.title, blocks: builder.blocks, links: builder.links)
    }

    private struct Builder {
        let baseURL: URL?
        var title: String?
        var blocks: [Block] = []
        var links: [Link] = []
        var text = ""
        var kind: Block = .paragraph("")

        static let skipped: Set<String> = ["script", "style", "noscript", "template", "svg", "iframe", "head"]
        static let blockTags: Set<String> = [
            "p", "div", "section", "article", "main", "header", "footer", "nav", "aside",
            "blockquote", "pre", "table", "tr", "ul", "ol", "dl", "dt", "dd", "form",
            "figure", "figcaption", "br", "hr", "body", "html",
        ]

        init(baseURL: URL?) { self.baseURL = baseURL }

        mutating func walk(_ node: UnsafeMutablePointer<xmlNode>) {
            var child: UnsafeMutablePointer<xmlNode>? = node
            while let current = child {
                visit(current)
                child = current.pointee.next
            }
        }

        private mutating func visit(_ node: UnsafeMutablePointer<xmlNode>) {
            switch node.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = node.pointee.content { text += String(cString: content) }
            case XML_ELEMENT_NODE:
                let name = String(cString: node.pointee.name).lowercased()
                if name == "title", title == nil {
                    title = Self.collapse(Self.textContent(node))
                    return
                }
                if name == "head" {
                    findTitle(node.pointee.children)
                    return
                }
                if Self.skipped.contains(name) { return }
                if let level = name.count == 2 && name.hasPrefix("h") ? Int(name.dropFirst()) : nil,
                    (1...6).contains(level)
                {
                    flush()
                    kind = .heading(level: level, text: "")
                    if let children = node.pointee.children { walk(children) }
                    flush()
                    return
                }
                if name == "pre" {
                    flush()
                    let raw = Self.textContent(node).replacingOccurrences(of: "\t", with: "    ").replacingOccurrences(
                        of: "\r\n", with: "\n")
                    let lines = raw.split(separator: "\n", omittingEmptySubsequences: false).map {
                        String($0.reversed().drop { $0 == " " }.reversed())
                    }
                    let kept = lines.reversed().drop { $0.isEmpty }.reversed().drop { $0.isEmpty }
                    if !kept.isEmpty { blocks.append(.preformatted(kept.joined(separator: "\n"))) }
                    return
                }
                if name == "td" || name == "th" {  // cells of a row stay apart
                    if !text.allSatisfy(\.isWhitespace) { text += " | " }
                    if let children = node.pointee.children { walk(children) }
                    return
                }
                if name == "li" {
                    flush()
                    kind = .listItem("")
                    if let children = node.pointee.children { walk(children) }
                    flush()
                    return
                }
                let isBlock = Self.blockTags.contains(name)
                if isBlock { flush() }
                if let children = node.pointee.children { walk(children) }
                if name == "a", let href = attribute(node, "href"), let url = resolve(href) {
                    links.append(Link(text: Self.collapse(Self.textContent(node)), url: url))
                    text += " [\(links.count)]"
                }
                if name == "img", let alt = attribute(node, "alt"), !alt.isEmpty { text += " [image: \(alt)]" }
                if isBlock { flush() }
            default:
                break
            }
        }

        private mutating func findTitle(_ first: UnsafeMutablePointer<xmlNode>?) {
            var child = first
            while let node = child {
                if node.pointee.type == XML_ELEMENT_NODE, String(cString: node.pointee.name).lowercased() == "title" {
                    title = Self.collapse(Self.textContent(node))
                }
                child = node.pointee.next
            }
        }

        mutating func flush() {
            let clean = Self.collapse(text)
            text = ""
            guard !clean.isEmpty else {
                kind = .paragraph("")
                return
            }
            switch kind {
            case .heading(let level, _): blocks.append(.heading(level: level, text: clean))
            case .listItem: blocks.append(.listItem(clean))
            case .paragraph, .preformatted: blocks.append(.paragraph(clean))
            }
            kind = .paragraph("")
        }

        private func attribute(_ node: UnsafeMutablePointer<xmlNode>, _ name: String) -> String? {
            guard let value = xmlGetProp(node, name) else { return nil }
            defer { cxml_free(value) }
            return String(cString: value)
        }

        private func resolve(_ href: String) -> String? {
            let trimmed = href.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#"), !trimmed.lowercased().hasPrefix("javascript:") else {
                return nil
            }
            return URL(string: trimmed, relativeTo: baseURL)?.absoluteString ?? trimmed
        }

        static func textContent(_ node: UnsafeMutablePointer<xmlNode>) -> String {
            guard let content = xmlNodeGetContent(node) else { return "" }
            defer { cxml_free(content) }
            return String(cString: content)
        }

        static func collapse(_ s: String) -> String {
            s.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        }
    }
}
