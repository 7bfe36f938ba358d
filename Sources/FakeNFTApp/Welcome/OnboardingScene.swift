import Localization
import Observation
import TerminalUI

/// Onboarding, on the first start only: three pages (what the app does, how to move and buy,
/// the tabs). ←/→ turn the pages, Enter (or the Next button) goes on, s, Esc or the Skip button
/// (top right) skips, Enter on the last finishes (and the footer says so). A click elsewhere goes on.
/// Under each page's text, where the terminal has colours and room, a picture (``OnboardingPicture``).
@MainActor @Observable
final class OnboardingScene: LoopContent {
    enum Action: Sendable { case next, previous, skip }

    static var keys: KeyMap<Action> { keys(onLastPage: false) }

    /// The keys, hinted as they act on a page: on the last, going on finishes.
    static func keys(onLastPage: Bool) -> KeyMap<Action> {
        KeyMap(
            "onboarding",
            [
                KeyBinding(
                    [.right, .char("l"), .enter, .char(" ")], tr(.onboardingNext),
                    hint: onLastPage ? tr(.hintFinish) : tr(.hintNext), hintKeys: onLastPage ? "Enter" : "→", .next
                ),
                KeyBinding(
                    [.left, .char("h")], tr(.onboardingPrevious), hint: tr(.hintPrevious), hintKeys: "←", .previous),
                KeyBinding([.char("s"), .escape], tr(.onboardingSkip), hint: tr(.hintSkip), .skip),
            ])
    }

    /// Each page: a title and its lines.
    static var pages: [(title: String, lines: [String])] {
        [
            (tr(.onboarding1Title), [tr(.onboarding1Line1), tr(.onboarding1Line2), tr(.onboarding1Line3)]),
            (tr(.onboarding2Title), [tr(.onboarding2Line1), tr(.onboarding2Line2), tr(.onboarding2Line3)]),
            (
                tr(.onboarding3Title),
                [tr(.onboarding3Line1), tr(.onboarding3Line2), tr(.onboarding3Line3), tr(.onboarding3Line4)]
            ),
            // What the usage events send, where, and how to turn them off (``UsageRecorder``).
            (tr(.onboarding4Title), [tr(.onboarding4Line1), tr(.onboarding4Line2), tr(.onboarding4Line3)]),
        ]
    }

    private(set) var page = 0
    private(set) var isFinished = false
    var isAnimating: Bool { false }
    /// Clicks, layers, the help and the footer, as every scene has them.
    @ObservationIgnored private let route = SceneRoute()
    /// The pages' pictures; nil without colours.
    @ObservationIgnored private let picture: OnboardingPicture?

    /// - Parameter palette: the terminal's colours for the pictures; nil: no pictures.
    init(palette: CharacterArt.Palette? = nil) { picture = palette.map(OnboardingPicture.init) }

    private var isLastPage: Bool { page + 1 == Self.pages.count }

    /// The page's keys (no "back" on the first; on the last, finishing is skipping).
    private var layers: [KeyLayer] {
        [
            .keys(Self.pages[page].title, Self.keys(onLastPage: isLastPage), readOnly: false) { [unowned self] action in
                switch action {
                case .next: .run { [unowned self] in next() }
                case .previous: page > 0 ? .run { [unowned self] in page -= 1 } : .passes
                case .skip: .run(hinted: !isLastPage) { [unowned self] in isFinished = true }
                }
            }
        ]
    }

    /// The next page, or the end after the last.
    private func next() {
        if page + 1 < Self.pages.count { page += 1 } else { isFinished = true }
    }

    func handle(_ event: TerminalEvent) -> Bool {
        route.handle(event, through: layers) { next() }  // a click elsewhere goes on
    }

    func shown(_ frame: Buffer) { route.shown(frame) }

    func draw(into buffer: inout Buffer) {
        let size = buffer.size, pages = Self.pages
        let width = min(size.width - 4, 64)
        let content = pages[page]
        // a screen reader reads the page from its title
        let title = Line([Span(content.title, style: .bold, isFocus: true)], wraps: false)
        let text = Paragraph([title] + content.lines.flatMap { [Line.blank, Line($0)] } + [.blank])
        let height = text.height(width: width)
        let top = max(1, (size.height - height - 4) / 2)
        let (_, column, _) = Rect(size: size).columns(.length((size.width - width) / 2), .length(width), .fill)
        let (_, brand, _, body, _) = column.rows(
            .length(max(0, top - 2)), .length(1), .length(top - max(0, top - 2) - 1), .length(size.height - 3 - top),
            .fill)
        buffer.render(Paragraph([Line("FakeNFT", style: .accent, wraps: false)]), in: brand)
        buffer.render(text, in: body)
        // The picture in the rows left between the text and the dots, 3 to 8 of them.
        let below = top + height, rows = min(8, size.height - 4 - below)
        if let picture, rows >= 3 {
            let art = Size(width: rows * 2, height: rows)
            buffer.place(
                picture.cells(page: page, size: art), columns: art.width,
                at: Point(x: (size.width - art.width) / 2, y: below))
        }
        let dots = pages.indices.map { $0 == page ? "●" : "○" }.joined(separator: " ")
        let go = page + 1 < pages.count ? tr(.onboardingNextButton) : tr(.onboardingFinishButton)
        let goX = size.width - DisplayWidth.of(go) - 2
        let centred = (size.width - DisplayWidth.of(dots)) / 2
        // On a narrow screen the dots move left of the button rather than under it.
        buffer.draw(
            dots, at: Point(x: centred + DisplayWidth.of(dots) < goX ? centred : 2, y: size.height - 3), style: .dim,
            maxWidth: size.width)
        buffer.button(
            go, at: Point(x: goX, y: size.height - 3), style: .selected, maxWidth: size.width, key: .enter)
        if page + 1 < pages.count {
            let skip = tr(.onboardingSkipButton, Self.keys.keyLabel(for: .skip))
            buffer.button(
                skip, at: Point(x: max(0, size.width - DisplayWidth.of(skip) - 2), y: 0), style: .dim,
                maxWidth: size.width, key: Self.keys.key(for: .skip))
        }
        route.finish(&buffer, title: content.title, layers: layers)
    }
}
