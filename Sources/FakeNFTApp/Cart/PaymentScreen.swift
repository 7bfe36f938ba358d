import FakeNFTCore
import TerminalUI

/// "Choose a payment method": a grid of currencies, the terms link, and Pay.
@MainActor
public final class PaymentScreen: Screen {
    enum Action: Sendable { case pay, terms, retry }

    static let keys = KeyMap<Action>([
        KeyBinding([.char("p"), .enter], "Pay with the selected currency", .pay),
        KeyBinding([.char("t")], "Read the Terms of Use", .terms),
        KeyBinding([.char("r")], "Reload the currencies", .retry),
    ])
    static let cellSize = Size(width: 26, height: 4)

    public var title: String { model.outcome == .succeeded ? "Payment complete" : "Choose a payment method" }
    let model: PaymentViewModel
    private var grid = GridState()
    private var failure: ConfirmDialog?
    private var firstAppearance = FirstAppearance()
    private var lastCurrency: Currency?

    public init(model: PaymentViewModel) { self.model = model }

    public var keyHelp: [HelpEntry] {
        failure != nil ? ConfirmDialog.keyHelp : Self.keys.helpEntries + [HelpEntry(keys: "← → ↑ ↓", text: "Choose a currency")]
    }
    public var hints: [(key: String, label: String)] {
        model.outcome == .succeeded ? [("Enter", "back to the catalog")] : [("p", "pay"), ("t", "terms")]
    }
    public var isAnimating: Bool { model.state == .loading || model.outcome == .paying }

    public func didAppear() { firstAppearance.load { await self.model.load() } }

    public func handle(_ event: TerminalEvent) -> ScreenCommand {
        guard case .key(let key) = event else { return .ignored }
        if model.outcome == .succeeded {
            return key == .enter || key == .escape ? .finish(showingTab: 0) : .handled
        }
        if case .failed(let message) = model.outcome {
            var dialog = failure ?? Self.failureDialog(message)
            let result = dialog.handle(key)
            failure = result == nil ? dialog : nil
            if result != nil { model.dismissFailure() }
            if result == .confirmed, let currency = lastCurrency { pay(currency) }
            return .handled
        }
        if model.outcome == .paying { return .handled }   // one payment at a time: keys wait for the answer
        if let action = Self.keys.action(for: key) {
            switch action {
            case .pay:
                guard model.state == .loaded, grid.selected < model.currencies.count else { return .handled }
                pay(model.currencies[grid.selected])
            case .terms:
                return .push(ReaderScreen(url: PaymentViewModel.termsURL, context: model.context))
            case .retry:
                Task { await model.load() }
            }
            return .handled
        }
        return grid.handle(key) ? .handled : .ignored
    }

    /// "Could not complete the payment" with Retry (focused) and Cancel.
    static func failureDialog(_ message: String) -> ConfirmDialog {
        ConfirmDialog(title: "Could not complete the payment", message: message, confirmLabel: "Retry", cancelLabel: "Cancel",
                      confirmFocused: true)
    }

    private func pay(_ currency: Currency) {
        lastCurrency = currency
        failure = nil
        Task { await model.pay(with: currency) }
    }

    public func render(in rect: Rect, surface: any Surface) {
        if model.outcome == .succeeded {
            renderSuccess(in: rect, surface: surface)
            return
        }
        let (body, footer) = rect.splitBottom(3)
        if StatusView.render(model.state, what: "the currencies", in: body, surface: surface) { return }
        grid.count = model.currencies.count
        let currencies = model.currencies, colors = model.context.colors
        GridView.render(&grid, in: body.splitTop(1).1, cellSize: Self.cellSize, surface: surface) { index, cell, selected in
            let currency = currencies[index]
            let inner = cell.inset(dx: 1, dy: 0)
            surface.box(Rect(x: inner.x, y: cell.y, width: inner.width, height: 4), style: selected ? .accent : .dim)
            PictureView.render(seed: currency.image, label: currency.title, in: Rect(x: inner.x + 2, y: cell.y + 1, width: 4, height: 2),
                               colors: colors, surface: surface)
            surface.draw(currency.title, at: Point(x: inner.x + 8, y: cell.y + 1), style: selected ? .selected : .bold, maxWidth: inner.width - 10)
            surface.draw(currency.name, at: Point(x: inner.x + 8, y: cell.y + 2), style: .success, maxWidth: inner.width - 10)
        }
        let used = surface.draw("By purchasing you agree to the ", at: Point(x: footer.x, y: footer.y + 1), style: .dim, maxWidth: footer.width)
        surface.draw("Terms of Use (t)", at: Point(x: footer.x + used, y: footer.y + 1), style: .link, maxWidth: footer.width - used)
        if model.outcome == .paying {
            Spinner.render("Paying…", at: Point(x: footer.x, y: footer.y + 2), maxWidth: footer.width, surface: surface)
        } else {
            surface.draw("[  Pay (p)  ]", at: Point(x: footer.x, y: footer.y + 2), style: .selected, maxWidth: footer.width)
        }
        if case .failed(let message) = model.outcome {
            let dialog = failure ?? Self.failureDialog(message)
            dialog.render(in: rect, surface: surface)
        }
    }

    private func renderSuccess(in rect: Rect, surface: any Surface) {
        let lines = ["Success! Payment completed,", "congratulations on your purchase!"]
        let top = rect.y + max(1, rect.height / 2 - 3)
        for (i, line) in lines.enumerated() {
            surface.draw(line, at: Point(x: rect.x + (rect.width - DisplayWidth.of(line)) / 2, y: top + i), style: .success, maxWidth: rect.width)
        }
        let button = "[  Back to the catalog (Enter)  ]"
        surface.draw(button, at: Point(x: rect.x + (rect.width - DisplayWidth.of(button)) / 2, y: top + 3), style: .selected, maxWidth: rect.width)
    }
}
