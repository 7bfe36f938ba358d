import Localization
import FakeNFTCore
import TerminalUI

/// "Choose a payment method": a grid of currencies, the terms link, and Pay.
@MainActor
final class PaymentScreen: Screen {
    enum Action: Sendable { case pay, terms, retry }

    static var keys: KeyMap<Action> {
        KeyMap(
            "payment",
            [
                KeyBinding([.char("p"), .enter], tr(.payWithCurrency), hint: tr(.hintPay), changesData: true, .pay),
                KeyBinding([.char("t")], tr(.readTerms), hint: tr(.hintTerms), .terms),
                KeyBinding([.char("r")], tr(.reloadCurrencies), hint: tr(.hintRetry), .retry),
            ])
    }
    enum SuccessAction: Sendable { case catalog, cart }
    static var successKeys: KeyMap<SuccessAction> {
        KeyMap(
            "payment-done",
            [
                KeyBinding([.enter], tr(.backToCatalog), hint: tr(.hintBackToCatalog), .catalog),
                KeyBinding([.escape], tr(.backToCart), hint: tr(.hintCart), .cart),
            ])
    }
    static let cellSize = Size(width: 26, height: 4)

    var title: String { model.outcome == .succeeded ? tr(.paymentComplete) : tr(.choosePayment) }
    var usage: UsageEvent.Screen { model.outcome == .succeeded ? .success : .payment }
    let tasks = TaskBag()
    let model: PaymentViewModel
    private let grid: GridPane<Currency>
    /// The failure dialog as the user moved its focus; nil shows it fresh for a new failure.
    private var failure: ConfirmDialog?
    private var lastCurrency: Currency?

    init(model: PaymentViewModel) {
        self.model = model
        grid = GridPane(area: "grid") { model.currencies.value ?? [] }
    }

    var isAnimating: Bool { model.currencies.isLoading || model.outcome == .paying }

    func didAppear() { tasks.once { [model] in await model.load() } }

    var layers: [KeyLayer] {
        switch model.outcome {
        case .succeeded:
            return [
                .keys(tr(.layerPayment), Self.successKeys, readOnly: model.context.readOnly) { action in
                    .command { action == .catalog ? .finish(showingTab: 0) : .popToRoot }
                }
            ]
        case .paying:  // one payment at a time: keys wait for the answer
            return [KeyLayer(title: tr(.paying), help: [], isModal: true) { _ in .handled }]
        case .failed(let reason):
            return [
                .dialog(
                    tr(.paymentFailed), failure ?? Self.failureDialog(reason.message),
                    update: { [unowned self] in failure = $0 }
                ) { [unowned self] result in
                    failure = nil
                    model.dismissFailure()
                    if result == .confirmed, let currency = lastCurrency { pay(currency) }
                    return .handled
                }
            ]
        case .none:
            return grid.layers(with: [
                .keys(tr(.layerPayment), Self.keys, readOnly: model.context.readOnly) { [unowned self] action in
                    switch action {
                    case .pay:
                        // while the currencies load there is nothing to select yet: that is the reason
                        return .on(
                            grid.selected,
                            otherwise: tr(model.currencies.isLoading ? .loadingCurrencies : .nothingSelected)
                        ) { [unowned self] currency in
                            pay(currency)
                            return .handled
                        }
                    case .retry:
                        return .run(hinted: model.currencies.failure != nil) { [unowned self] in
                            tasks.run { [model] in await model.load() }
                        }
                    case .terms:
                        let effects = model.context.effects
                        return .command {
                            .push(
                                ReaderScreen(model: ReaderViewModel(url: PaymentViewModel.termsURL, effects: effects)))
                        }
                    }
                }
            ])
        }
    }

    /// "Could not complete the payment" with Retry (focused; also `r`, the retry key) and Cancel.
    static func failureDialog(_ message: String) -> ConfirmDialog {
        ConfirmDialog(
            title: tr(.paymentNotCompleted), message: message, confirmLabel: tr(.retry), cancelLabel: tr(.dialogCancel),
            confirmFocused: true, confirmKey: keys.key(for: .retry))
    }

    private func pay(_ currency: Currency) {
        lastCurrency = currency
        failure = nil
        tasks.run { [model] in await model.pay(with: currency) }
    }

    func render(in rect: Rect, buffer: inout Buffer) {
        if model.outcome == .succeeded {
            renderSuccess(in: rect, buffer: &buffer)
            return
        }
        let (body, footer) = rect.rows(.fill, .length(3))
        if let status = StatusView(model.currencies, what: .currencies, retry: Self.keys.key(for: .retry)) {
            buffer.render(status, in: body)
            return
        }
        let pictures = model.context.pictures
        let (_, cells) = body.rows(.length(1), .fill)
        grid.render(in: cells, cellSize: Self.cellSize, buffer: &buffer) {
            currency, _, cell, selected, buffer in
            let (card, _) = cell.inset(dx: 1, dy: 0).rows(.length(4), .fill)
            buffer.render(Block(style: selected ? .accent : .dim), in: card)
            let (icon, _, text) = card.inset(dx: 2, dy: 1).columns(.length(4), .length(2), .fill)
            buffer.render(PictureView(currency.image, label: currency.title, pictures: pictures), in: icon)
            buffer.draw(
                currency.title, at: Point(x: text.x, y: text.y), style: selected ? .selected : .bold,
                maxWidth: text.width)
            buffer.draw(currency.name, at: Point(x: text.x, y: text.y + 1), style: .success, maxWidth: text.width)
        }
        let (gap, terms, pay) = footer.rows(.length(1), .length(1), .fill)
        let agree = tr(.termsAgree), link = tr(.termsLink, Self.keys.keyLabel(for: .terms))
        // On a narrow screen the link takes a line of its own (the one above the terms).
        let oneLine = DisplayWidth.of(agree) + DisplayWidth.of(link) <= terms.width
        let used = buffer.draw(
            agree, at: Point(x: terms.x, y: oneLine ? terms.y : gap.y), style: .dim, maxWidth: terms.width)
        buffer.button(
            link, at: Point(x: terms.x + (oneLine ? used : 0), y: terms.y), style: .link,
            maxWidth: terms.width - (oneLine ? used : 0), key: Self.keys.key(for: .terms))
        if model.outcome == .paying {
            buffer.render(Spinner(tr(.payingNow)), in: pay)
        } else {
            buffer.button(
                tr(.payAmountButton, Format.price(model.total), Self.keys.keyLabel(for: .pay)),
                at: Point(x: pay.x, y: pay.y),
                style: .selected, maxWidth: footer.width, key: Self.keys.key(for: .pay))
        }
        if case .failed(let reason) = model.outcome {
            let dialog = failure ?? Self.failureDialog(reason.message)
            buffer.render(dialog, in: rect)
        }
    }

    private func renderSuccess(in rect: Rect, buffer: inout Buffer) {
        let lines = [tr(.successLine1), tr(.successLine2)]
        // The first NFT bought above the words, as large as the height leaves room for.
        let pictureRows = min(8, max(0, rect.height - 8))
        let top = rect.y + max(1, (rect.height - pictureRows - 4) / 2) + pictureRows
        if pictureRows > 1, let nft = model.items.first {
            let width = pictureRows * 2
            buffer.render(
                PictureView(nft.images.first ?? "", label: nft.name, pictures: model.context.pictures),
                in: Rect(
                    x: rect.x + (rect.width - width) / 2, y: top - pictureRows - 1, width: width, height: pictureRows))
        }
        let words = Paragraph(
            lines.map { Line($0, style: .success, alignment: .center) } + [
                .blank, Line([.button(tr(.backToCatalogButton), style: .selected, key: .enter)], alignment: .center),
            ])
        buffer.render(words, in: rect.rows(.length(top - rect.y), .fill).1)
    }
}
