import FakeNFTCore
import Foundation
import Hummingbird
import Localization
import Testing
import TerminalUI
import FakeNFTTesting
@testable import FakeNFTApp

/// My orders against servers that are not `fakenft serve`: one without order history says so,
/// one that answers a number that is none fails with a reason; what was read stays readable
/// while the server cannot be reached.
@MainActor @Suite struct OrdersTests {
    static func serving(orders body: String?) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("api/v1/auth/orders") { _, _ in
            guard let body else { return Response(status: .notFound) }
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        return router
    }

    static func shown(_ model: OrdersViewModel) -> String {
        var buffer = Buffer(size: Size(width: 40, height: 20))
        OrdersScreen(model: model).render(in: Rect(size: buffer.size), buffer: &buffer)
        return buffer.text()
    }

    @Test func aServerWithoutOrderHistorySaysSo() async throws {
        try await withRouter(Self.serving(orders: nil)) { url in
            let model = OrdersViewModel(context: makeContext(nil, baseURL: url))
            await model.load()
            #expect(model.notKept && model.orders.value == [])
            #expect(Self.shown(model).contains("This server keeps no order history"))
        }
    }

    /// No orders: the message is whole at a phone's width, wrapped at its words.
    @Test func noOrdersSaysSoWholeOnAPhone() async throws {
        try await withRouter(Self.serving(orders: "[]")) { url in
            let model = OrdersViewModel(context: makeContext(nil, baseURL: url))
            await model.load()
            let lines = Self.shown(model).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            #expect(lines.joined(separator: " ") == tr(.noOrdersYet), "\(lines)")
            #expect(lines.count > 1 && !lines.contains { $0.hasSuffix("…") })
        }
    }

    @Test func anOrderWithANumberThatIsNoneIsAFailure() async throws {
        let body = #"[{"id":"a","paidAt":"2026-11-29T03:41:00Z","items":[{"nft":"1","price":1}],"total":"nan"}]"#
        try await withRouter(Self.serving(orders: body)) { url in
            let model = OrdersViewModel(context: makeContext(nil, baseURL: url))
            await model.load()
            #expect(model.orders.failure != nil && !model.notKept)
            #expect(Self.shown(model).contains("Could not load your orders."))
        }
    }

    @Test func whatWasReadStaysWhileTheServerCannotBeReached() async throws {
        let body =
            #"[{"id":"a","paidAt":"2026-11-29T03:41:00Z","currencyName":"BTC","items":[{"nft":"1","price":1.5}],"#
            + #""total":1.5}]"#
        var service: PaidOrderService?
        try await withRouter(Self.serving(orders: body)) { url in
            let context = makeContext(nil, baseURL: url)
            service = context.services.paidOrders
            let totals = try await context.services.paidOrders.latest().map(\.total)
            #expect(totals == [1.5])
        }
        let kept = try #require(service)
        #expect(try await kept.latest().map(\.currencyName) == ["BTC"], "the server is gone: as last read")
    }
}
