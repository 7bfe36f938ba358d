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
        let width = min(area.width - 2, 64), inner = width - 4
        let question = DisplayWidth.wrap(tr(.ratingQuestion), width: max(1, inner))
        let keys = Self.keys
        let buttons: [(label: String, key: Key?)] = [
            (tr(.ratingSend), keys.key(for: .send)), (tr(.ratingNotNow), keys.key(for: .notNow)),
            (tr(.ratingNever), keys.key(for: .never)),
        ].map { ("[ \($0.0) (\($0.1?.description ?? "")) ]", $0.1) }
        let inRow = buttons.map { DisplayWidth.of($0.label) }.reduce(0, +) + 2 * (buttons.count - 1) <= inner
        let buttonRows = inRow ? 1 : buttons.count
        let rect = area.centered(width: width, height: min(area.height, 6 + question.count + buttonRows))
        guard rect.width >= 12, rect.height >= 5 else { return }
        buffer.clear(rect)
        buffer.box(rect, title: tr(.ratingTitle), style: .accent)
        var y = rect.y + 1
        for line in question {
            buffer.draw(line, at: Point(x: rect.x + 2, y: y), style: .plain, maxWidth: inner)
            y += 1
        }
        y += 1
        var x = rect.x + (rect.width - 9) / 2
        buffer.focus = Point(x: x, y: y)
        for star in 1...5 {
            let glyph = star <= stars ? "★" : "☆"
            x += buffer.button(
                glyph, at: Point(x: x, y: y), style: star <= stars ? .accent : .dim, key: .char(Character("\(star)")))
            x += star < 5 ? 1 : 0
        }
        y += 2
        x = rect.x + 2
        for (index, button) in buttons.enumerated() {
            let used = buffer.button(
                button.label, at: Point(x: x, y: y), style: index == 0 && stars > 0 ? .selected : .bold,
                maxWidth: rect.maxX - 2 - x, key: button.key)
            if inRow { x += used + 2 } else { y += 1 }
        }
    }
}
