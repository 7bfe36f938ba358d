import Localization
import FakeNFTCore
import Foundation
import Observation
import TerminalUI

/// A web page for the reader pane: loaded, laid out for a width, copied or opened.
@MainActor @Observable
final class ReaderViewModel: ViewModel {
    let url: String
    private(set) var page: Loadable<ReadableDocument, WebPageError> = .loading
    @ObservationIgnored let effects: Effects
    @ObservationIgnored private let loader: WebPageLoader
    /// The last layout, kept until the width or the page changes (a page can be 2 MB).
    @ObservationIgnored private var layout: (width: Int, lines: [ReaderLine])?

    init(url: String, effects: Effects, loader: WebPageLoader = WebPageLoader()) {
        self.url = url
        self.effects = effects
        self.loader = loader
    }

    var title: String { page.value?.title.flatMap { $0.isEmpty ? nil : $0 } ?? tr(.webPage) }

    func load() async {
        layout = nil
        await load(\.page) {
            guard let target = URL(string: url) else { throw WebPageError.invalidAddress }
            return try await loader.load(target)
        }
    }

    func copyLink() { effects.copy(link: url) }
    func openInBrowser() { effects.open(link: url) }

    /// The page's links, in the order of their numbers.
    var links: [ReadableDocument.Link] { page.value?.links ?? [] }

    /// The page as styled lines for `width` columns.
    func lines(width: Int) -> [ReaderLine] {
        if let layout, layout.width == width { return layout.lines }
        let lines = page.value.map { Self.layOut($0, width: width) } ?? []
        layout = (width, lines)
        return lines
    }

    private static func layOut(_ document: ReadableDocument, width: Int) -> [ReaderLine] {
        var out: [ReaderLine] = []
        func add(_ text: String, _ style: Style = .plain, link: Int? = nil) {
            out.append(ReaderLine(text: text, style: style, link: link))
        }
        for block in document.blocks {
            switch block {
            case .heading(let level, let text):
                if !out.isEmpty { add("") }
                for line in DisplayWidth.wrap(text, width: width) { add(line, level <= 2 ? .accent : .bold) }
            case .paragraph(let text):
                for line in DisplayWidth.wrap(text, width: width) { add(line) }
                add("")
            case .listItem(let text):
                for (i, line) in DisplayWidth.wrap(text, width: max(1, width - 2)).enumerated() {
                    add((i == 0 ? "• " : "  ") + line)
                }
            case .preformatted(let text):  // line for line, as the page set it (a line too long is cut where drawn)
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) { add(String(line), .dim) }
                add("")
            }
        }
        if !document.links.isEmpty {
            add("")
            add(tr(.links), .bold)
            for (i, link) in document.links.enumerated() {
                for line in DisplayWidth.wrap(
                    "[\(i + 1)] \(link.text.isEmpty ? link.url : link.text) — \(link.url)", width: width)
                {
                    add(line, .link, link: i)
                }
            }
        }
        return out
    }
}

/// One line of a laid-out page: its text, its style, and the link it lists, if it does.
struct ReaderLine {
    var text: String
    var style: Style
    var link: Int?
}
