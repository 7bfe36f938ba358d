import FakeNFTCore
import Localization
import Observation
import TerminalUI

/// The rate-the-app prompt (the spec's optional alert): 1 to 5 stars, "Not now" and "Don't ask
/// again", asked as the account's ``RatingSchedule`` says, at the next frame that shows no form
/// being edited, no dialog and no payment's success (after a first payment: once it is left).
/// It hears what the user does through the usage events (``UsageRecorder``), so it exists only
/// where they are recorded; the rating is one of them.
/// Observed, so that a prompt owed by what a frame showed is drawn by the next frame without
/// waiting for a key.
@MainActor @Observable
public final class RatingPrompt {
    enum Action: Sendable, Equatable {
        case fewer, more, send, notNow, never
    }

    static var keys: KeyMap<Action> {
        KeyMap(
            "rating",
            [
                KeyBinding([.left, .char("h")], tr(.ratingFewerMore), hintKeys: "←→", .fewer),
                KeyBinding(
                    [.right, .char("l")], tr(.ratingFewerMore), hint: tr(.hintStars), hintKeys: "←→", .more),
                KeyBinding([.enter], tr(.ratingSendHelp), hint: tr(.hintRate), .send),
                KeyBinding(
                    [.char("n"), .escape], tr(.ratingNotNowHelp), hint: tr(.hintNotNow), name: "not-now", .notNow),
                KeyBinding([.char("d")], tr(.ratingNeverHelp), hint: tr(.hintNever), .never),
            ])
    }

    @ObservationIgnored private var schedule: RatingSchedule
    @ObservationIgnored private let record: RatingRecord
    @ObservationIgnored private let usage: UsageRecorder
    @ObservationIgnored private let effects: Effects
    /// The prompt is owed: it opens at the next frame that allows it.
    private var owed: Bool
    @ObservationIgnored private var actedThisStart = false
    private(set) var isShown = false
    /// The stars chosen, 0 for none yet.
    private(set) var stars = 0

    /// Counts this start in `record`'s schedule (written at the first action, an answer, or
    /// ``finish()``: nothing is written before the first frame).
    init(record: RatingRecord, usage: UsageRecorder, effects: Effects) {
        self.record = record
        self.usage = usage
        self.effects = effects
        schedule = record.load()
        owed = schedule.started()
    }

    /// The tabs have ended: the schedule, this start counted, is kept.
    func finish() { record.save(schedule) }

    /// What the user did: the start's first like, cart change or payment counts it as one on
    /// which something was done; the first payment's success owes the prompt.
    func heard(_ event: UsageEvent) {
        let acting: Bool =
            switch (event.event, event.action) {
            case (.click, .like?), (.click, .unlike?), (.click, .cartAdd?), (.click, .cartRemove?), (.click, .pay?):
                true
            default: event.event == .open && event.screen == .success
            }
        guard acting else { return }
        let before = schedule
        if !actedThisStart {
            actedThisStart = true
            schedule.acted()
        }
        if event.event == .open, event.screen == .success, schedule.paidOnce() { owed = true }
        if schedule != before { record.save(schedule) }  // once a start, and at a first payment
    }

    /// Opens the prompt when it is owed and `screen` allows it: no form being edited, no dialog
    /// or menu (`modal`), not over the payment's success, which is read first.
    func offer(over screen: any Screen, modal: Bool) {
        guard owed, !isShown, !modal, screen.usage != .edit, screen.usage != .success else { return }
        owed = false
        isShown = true
        stars = 0
    }

    var layer: KeyLayer {
        var layer = KeyLayer.keys(tr(.layerRating), Self.keys, readOnly: false) { [unowned self] action in
            .run { [unowned self] in act(action) }
        }
        layer.isModal = true
        layer.help.insert(HelpEntry(keys: "1–5", text: tr(.ratingStarsHelp)), at: 0)
        let keysRoute = layer.route
        layer.route = { [unowned self] event, frame in
            if case .key(.char(let digit)) = event, let count = digit.wholeNumberValue, (1...5).contains(count) {
                stars = count
                return .handled
            }
            return keysRoute(event, frame)
        }
        return layer
    }

    private func act(_ action: Action) {
        switch action {
        case .fewer: stars = max(1, stars - 1)
        case .more: stars = min(5, stars + 1)
        case .send:
            guard stars > 0 else { return effects.show(Toast(tr(.ratingChooseFirst), kind: .note)) }
            usage.record(UsageEvent(.rate, .rating, stars: stars))
            answer(.stars(stars))
            effects.show(Toast(tr(.ratingThanks, stars)))
        case .notNow:
            usage.click(.notNow)
            answer(.notNow)
        case .never:
            usage.click(.never)
            answer(.never)
        }
    }

    private func answer(_ answer: RatingSchedule.Answer) {
        schedule.answered(answer)
        record.save(schedule)
        isShown = false
    }

    /// Draws the prompt centred in `area`: the question, the stars (each clickable as its
    /// digit) and the three buttons, in a row where they fit, else one under another.
    func render(in area: Rect, buffer: inout Buffer) {
        guard isShown else { return }
        let block = Block(title: tr(.ratingTitle), style: .accent)
        let width = min(area.width - 2, 64), inner = block.inner(Rect(x: 0, y: 0, width: width, height: 3)).width
        let keys = Self.keys
        let buttons: [Span] = [
            (tr(.ratingSend), keys.key(for: .send)), (tr(.ratingNotNow), keys.key(for: .notNow)),
            (tr(.ratingNever), keys.key(for: .never)),
        ].enumerated().map { index, button in
            .button(
                "[ \(button.0) (\(button.1?.description ?? "")) ]", style: index == 0 && stars > 0 ? .selected : .bold,
                key: button.1)
        }
        let spaced = buttons.flatMap { [$0, .gap(2)] }.dropLast()
        let starSpans = (1...5).flatMap { star -> [Span] in
            let button = Span.button(
                star <= stars ? "★" : "☆", style: star <= stars ? .accent : .dim, key: .char(Character("\(star)")),
                isFocus: star == 1)
            return star < 5 ? [button, Span(" ")] : [button]
        }
        // the buttons in a row where they fit, else one under another
        let row = Paragraph([Line(Array(spaced))])
        let buttonLines = row.height(width: inner) == 1 ? [Line(Array(spaced))] : buttons.map { Line([$0]) }
        let text = Paragraph(
            [Line(tr(.ratingQuestion)), .blank, Line(starSpans, alignment: .center), .blank] + buttonLines)
        let rect = area.centered(width: width, height: min(area.height, 2 + text.height(width: inner)))
        guard rect.width >= 12, rect.height >= 5 else { return }
        buffer.clear(rect)
        buffer.render(block, in: rect)
        buffer.render(text, in: block.inner(rect))
    }
}
