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
    @ObservationIgnored private var layout: (width: Int, lines: [(String, Style)])?

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

    /// The page as styled lines for `width` columns.
    func lines(width: Int) -> [(String, Style)] {
        if let layout, layout.width == width { return layout.lines }
        let lines = page.value.map { Self.layOut($0, width: width) } ?? []
        layout = (width, lines)
        return lines
    }

    private static func layOut(_ document: ReadableDocument, width: Int) -> [(String, Style)] {
        var out: [(String, Style)] = []
        for block in document.blocks {
            switch block {
            case .heading(let level, let text):
                if !out.isEmpty { out.append(("", .plain)) }
                for line in DisplayWidth.wrap(text, width: width) { out.append((line, level <= 2 ? .accent : .bold)) }
            case .paragraph(let text):
                for line in DisplayWidth.wrap(text, width: width) { out.append((line, .plain)) }
                out.append(("", .plain))
            case .listItem(let text):
                for (i, line) in DisplayWidth.wrap(text, width: max(1, width - 2)).enumerated() { out.append(((i == 0 ? "• " : "  ") + line, .plain)) }
            }
        }
        if !document.links.isEmpty {
            out.append(("", .plain))
            out.append((tr(.links), .bold))
            for (i, link) in document.links.enumerated() {
                for line in DisplayWidth.wrap("[\(i + 1)] \(link.text.isEmpty ? link.url : link.text) — \(link.url)", width: width) {
                    out.append((line, .link))
                }
            }
        }
        return out
    }
}
