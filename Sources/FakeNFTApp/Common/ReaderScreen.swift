import Localization
import FakeNFTCore
import Foundation
import TerminalUI

/// A web page as readable text (the spec's "web view"): headings, paragraphs and a numbered list
/// of links. `]`/`[` pick a link and Enter (or a click on it) opens it here; `o` opens the page
/// in the system browser, `y` copies its link (OSC 52).
@MainActor
final class ReaderScreen: Screen {
    enum Action: Sendable {
        case open, copy, reload, nextLink, previousLink, follow, down, up, pageDown, pageUp, top, bottom
    }

    static var keys: KeyMap<Action> {
        KeyMap(
            "reader",
            [
                KeyBinding([.char("o")], tr(.openInBrowser), hint: tr(.hintBrowser), .open),
                KeyBinding([.char("y")], tr(.copyLink), hint: tr(.hintCopyLink), .copy),
                KeyBinding([.char("r")], tr(.reload), hint: tr(.hintReload), .reload),
                KeyBinding([.char("]")], tr(.nextLink), hint: tr(.hintLinks), hintKeys: "[ ]", .nextLink),
                KeyBinding([.char("[")], tr(.previousLink), .previousLink),
                KeyBinding([.enter], tr(.followLink), hint: tr(.hintOpen), .follow),
                KeyBinding([.down, .char("j")], tr(.scrollDown), .down),
                KeyBinding([.up, .char("k")], tr(.scrollUp), .up),
                KeyBinding([.pageDown, .char(" ")], tr(.pageDown), .pageDown),
                KeyBinding([.pageUp], tr(.pageUp), .pageUp),
                KeyBinding([.home, .char("g")], tr(.top), .top),
                KeyBinding([.end, .char("G")], tr(.bottom), .bottom),
            ])
    }

    /// The name the page's layout is kept by in a frame.
    static let pageArea = "page"

    let tasks = TaskBag()
    let model: ReaderViewModel
    /// The first line shown, the lines a page shows and the lines there are: as the last frame
    /// drew them, then moved by the keys.
    private var scroll = ScrollPosition()
    /// The link picked with `]`/`[` (its number less one), shown highlighted in the list of links.
    private var selectedLink: Int?
    /// The page's width as last drawn (its lines are wrapped to it).
    private var pageWidth = 80

    init(model: ReaderViewModel) { self.model = model }

    var title: String { model.title }
    var usage: UsageEvent.Screen { .reader }
    var isAnimating: Bool { model.page.isLoading }

    func didAppear() { tasks.once { [model] in await model.load() } }

    var layers: [KeyLayer] {
        [
            // Before any key acts: where the last frame left the page.
            KeyLayer(title: tr(.webPage), help: []) { [unowned self] _, frame in
                scroll.follow(frame.panes[Self.pageArea])
                pageWidth = frame.panes[Self.pageArea]?.rect.width ?? pageWidth
                return nil
            },
            .keys(tr(.webPage), Self.keys, readOnly: false) { [unowned self] action in
                switch action {
                case .open: return .run { [model] in model.openInBrowser() }
                case .copy: return .run { [model] in model.copyLink() }
                case .reload: return .run { [unowned self] in tasks.run { [model] in await model.load() } }
                case .nextLink, .previousLink:
                    guard !model.links.isEmpty else { return .passes }
                    let step = action == .nextLink ? 1 : -1
                    return .run { [unowned self] in moveLink(by: step) }
                case .follow:
                    guard let index = selectedLink else { return .passes }
                    return .command { [unowned self] in follow(index) }
                case .down: return .run { [unowned self] in scroll.scroll(by: 1) }
                case .up: return .run { [unowned self] in scroll.scroll(by: -1) }
                case .pageDown: return .run { [unowned self] in scroll.scroll(by: scroll.pageSize - 1) }
                case .pageUp: return .run { [unowned self] in scroll.scroll(by: -(scroll.pageSize - 1)) }
                case .top: return .run { [unowned self] in scroll.scroll(to: 0) }
                case .bottom: return .run { [unowned self] in scroll.scroll(by: scroll.count) }
                }
            },
            KeyLayer(title: tr(.webPage), help: []) { [unowned self] event in
                switch event {
                case .pick("links", let index):  // a click on a link in the list opens it
                    selectedLink = index
                    return follow(index)
                case .mouse(let mouse) where mouse.kind != .click:
                    scroll.scroll(by: mouse.kind == .wheelDown ? 3 : -3)
                    return .handled
                default: return nil
                }
            },
        ]
    }

    /// Selects the link `step` after (or before) the selected one, round the list, and shows it.
    private func moveLink(by step: Int) {
        let count = model.links.count
        selectedLink = ((selectedLink ?? (step > 0 ? -1 : count)) + step + count) % max(1, count)
        revealSelectedLink()
    }

    /// Opens link `index` of the page in a reader of its own.
    private func follow(_ index: Int) -> ScreenCommand {
        guard index < model.links.count else { return .handled }
        return .push(ReaderScreen(model: ReaderViewModel(url: model.links[index].url, effects: model.effects)))
    }

    /// Scrolls the picked link to the middle of the page when it is out of view.
    private func revealSelectedLink() {
        let lines = model.lines(width: max(10, pageWidth - 1))
        guard let first = lines.firstIndex(where: { $0.link != nil && $0.link == selectedLink }) else { return }
        if first < scroll.first || first >= scroll.first + scroll.pageSize {
            scroll.scroll(to: first - scroll.pageSize / 2)
        }
    }

    func render(in rect: Rect, buffer: inout Buffer) {
        let (address, body) = rect.rows(.length(2), .fill)
        buffer.render(Paragraph([Line([.webLink(model.url, to: model.url)], wraps: false)]), in: address)
        switch model.page {
        case .loading:
            let (firstLine, _) = body.rows(.length(1), .fill)
            buffer.render(Spinner(tr(.loadingPage)), in: firstLine)
        case .failed(let failure):
            let (text, _) = body.rows(.length(5), .fill)  // three rows of the reason at most
            buffer.render(
                Paragraph([Line(tr(.pageCannotShow), style: .error, wraps: false), .blank, Line(failure.message)]),
                in: text)
        case .loaded:
            let all = model.lines(width: max(10, body.width - 1))
            let pageHeight = max(1, body.height)
            let scroll = max(0, min(self.scroll.first, all.count - pageHeight))
            buffer.record(
                PaneLayout(rect: body, count: all.count, firstRow: scroll, rowsShown: pageHeight), as: Self.pageArea)
            for (i, line) in all.dropFirst(scroll).prefix(body.height).enumerated() {
                let picked = line.link != nil && line.link == selectedLink
                let point = Point(x: body.x, y: body.y + i)
                if let link = line.link {
                    buffer.button(
                        line.text, at: point, style: picked ? .selected : line.style, maxWidth: body.width - 1,
                        target: .item(area: "links", index: link))
                } else {
                    buffer.draw(line.text, at: point, style: line.style, maxWidth: body.width - 1)
                }
            }
            if all.count > body.height {
                let bar = ListState(count: all.count, selected: min(all.count - 1, scroll + body.height - 1))
                    .laidOut(count: all.count, height: body.height)
                let (_, gutter) = body.columns(.fill, .length(1))
                ListView.drawScrollBar(bar, in: gutter, buffer: &buffer)
            }
        }
    }
}
