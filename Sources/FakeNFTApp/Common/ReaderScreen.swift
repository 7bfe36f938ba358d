import FakeNFTCore
import Foundation
import TerminalUI

/// A web page as readable text (the spec's "web view"): headings, paragraphs and a numbered list
/// of links. `o` opens it in the system browser, `y` copies the link (OSC 52).
@MainActor
public final class ReaderScreen: Screen {
    enum Action: Sendable { case open, copy, reload }

    static let keys = KeyMap<Action>([
        KeyBinding([.char("o")], "Open in the system browser", .open),
        KeyBinding([.char("y")], "Copy the link to the clipboard", .copy),
        KeyBinding([.char("r")], "Reload", .reload),
    ])

    let url: String
    let context: AppContext
    let loader: WebPageLoader
    private(set) var state: LoadState = .loading
    private(set) var document: ReadableDocument?
    private var scroll = 0
    private var pageHeight = 10
    private var firstAppearance = FirstAppearance()

    public init(url: String, context: AppContext, loader: WebPageLoader = WebPageLoader()) {
        self.url = url
        self.context = context
        self.loader = loader
    }

    public var title: String { document?.title.flatMap { $0.isEmpty ? nil : $0 } ?? "Web page" }
    public var keyHelp: [HelpEntry] { Self.keys.helpEntries + [HelpEntry(keys: "↑ ↓ j k PgUp PgDn Home End", text: "Scroll")] }
    public var hints: [(key: String, label: String)] { [("o", "browser"), ("y", "copy link")] }
    public var isAnimating: Bool { state == .loading }

    public func didAppear() { firstAppearance.load { await self.load() } }

    func load() async {
        state = .loading
        context.invalidate()
        guard let target = URL(string: url) else {
            state = .failed("this is not a valid address")
            context.invalidate()
            return
        }
        do {
            document = try await loader.load(target)
            layout = nil
            state = .loaded
        } catch {
            state = .failed((error as? WebPageError)?.reason ?? error.localizedDescription)
        }
        context.invalidate()
    }

    public func handle(_ event: TerminalEvent) -> ScreenCommand {
        guard case .key(let key) = event else {
            if case .mouse(let mouse) = event, mouse.kind != .click { scroll += mouse.kind == .wheelDown ? 3 : -3; clampScroll(); return .handled }
            return .ignored
        }
        if let action = Self.keys.action(for: key) {
            switch action {
            case .open:
                switch SafeLink.check(url) {
                case .success(let link):
                    if !Browser.open(link) { context.showToast(Toast("No browser found (set $BROWSER or install xdg-utils).", kind: .error)) }
                case .failure(let refusal): context.showToast(Toast("Not opened: \(refusal)", kind: .error))
                }
            case .copy:
                switch SafeLink.check(url) {
                case .success(let link):
                    context.copyToClipboard(link)
                    context.showToast(Toast("Link copied"))
                case .failure(let refusal): context.showToast(Toast("Not copied: \(refusal)", kind: .error))
                }
            case .reload:
                Task { await load() }
            }
            return .handled
        }
        switch key {
        case .down, .char("j"): scroll += 1
        case .up, .char("k"): scroll -= 1
        case .pageDown, .char(" "): scroll += pageHeight - 1
        case .pageUp: scroll -= pageHeight - 1
        case .home, .char("g"): scroll = 0
        case .end, .char("G"): scroll = Int.max / 2
        default: return .ignored
        }
        clampScroll()
        return .handled
    }

    private var lineCount = 0
    private func clampScroll() { scroll = max(0, min(scroll, max(0, lineCount - pageHeight))) }

    /// The last layout, kept until the width or the page changes (a page can be 2 MB).
    private var layout: (width: Int, lines: [(String, Style)])?

    /// The page as styled lines for `width` columns.
    func lines(width: Int) -> [(String, Style)] {
        if let layout, layout.width == width { return layout.lines }
        let lines = layOut(width: width)
        layout = (width, lines)
        return lines
    }

    private func layOut(width: Int) -> [(String, Style)] {
        guard let document else { return [] }
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
            out.append(("Links", .bold))
            for (i, link) in document.links.enumerated() {
                for line in DisplayWidth.wrap("[\(i + 1)] \(link.text.isEmpty ? link.url : link.text) — \(link.url)", width: width) {
                    out.append((line, .link))
                }
            }
        }
        return out
    }

    public func render(in rect: Rect, surface: any Surface) {
        surface.draw(url, at: Point(x: rect.x, y: rect.y), style: .link, maxWidth: rect.width)
        let body = rect.splitTop(2).1
        switch state {
        case .loading:
            Spinner.render("Loading the page…", at: Point(x: body.x, y: body.y), maxWidth: body.width, surface: surface)
        case .failed(let reason):
            surface.draw("This page cannot be shown here.", at: Point(x: body.x, y: body.y), style: .error, maxWidth: body.width)
            for (i, line) in DisplayWidth.wrap("Reason: \(reason).", width: body.width, maxLines: 3).enumerated() {
                surface.draw(line, at: Point(x: body.x, y: body.y + 2 + i), maxWidth: body.width)
            }
            surface.draw("o: open in the system browser · y: copy the link · r: retry", at: Point(x: body.x, y: body.y + 6),
                         style: .dim, maxWidth: body.width)
        case .loaded:
            let all = lines(width: max(10, body.width - 1))
            lineCount = all.count
            pageHeight = max(1, body.height)
            clampScroll()
            for (i, line) in all.dropFirst(scroll).prefix(body.height).enumerated() {
                surface.draw(line.0, at: Point(x: body.x, y: body.y + i), style: line.1, maxWidth: body.width - 1)
            }
            if all.count > body.height {
                var bar = ListState(count: all.count)
                bar.select(min(all.count - 1, scroll + body.height - 1))
                bar.layout(height: body.height)
                ListView.drawScrollBar(bar, in: Rect(x: body.maxX - 1, y: body.y, width: 1, height: body.height), surface: surface)
            }
        }
    }
}
