import FakeNFTCore
import FakeNFTModels
import FakeNFTTesting
import Foundation
import ShopCommands
import Testing

/// The shop's commands (``ShopCommand/all``) through the API client against a server's real
/// routes in this process: each figure and name printed is the API's, after each step.
@Suite struct ShopCommandsTests {
    /// Runs `line` (split as a shell would) as an account, for a script (plain lines) unless asked.
    private func run(
        _ line: String, _ api: any ShopAPI, caller: CommandRunner.Caller = .account, terminal: Bool = false
    ) async throws -> CommandRunner.Outcome {
        await CommandRunner.run(try CommandLineWords.split(line), api: api, caller: caller, terminal: terminal)
    }

    private func json<T: Decodable>(_ server: InProcessTestServer, _ path: String, as: T.Type) async throws -> T {
        let answer = try await server.answer("GET", "/api/v1/" + path, body: nil, contentType: nil, headers: [:])
        #expect(answer.status == 200)
        return try JSONDecoder().decode(T.self, from: answer.body)
    }

    /// The rows of plain output, as cells.
    private func rows(_ outcome: CommandRunner.Outcome) -> [[String]] {
        outcome.stdout.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
    }

    @Test func theCatalogsCommandsPrintWhatTheAPIAnswers() async throws {
        try await InProcessTestServer.with { server in
            let api = server.client()
            let collections = try await json(server, "collections", as: [NFTCollection].self)
            let listed = try await run("collections", api)
            #expect(listed.status == 0 && listed.stderr.isEmpty)
            #expect(rows(listed) == collections.map { [$0.id, $0.name, String($0.nfts.count), $0.author] })

            let nft = try await json(server, "nft/1", as: NFT.self)
            let shown = try await run("nft 1", api)
            #expect(rows(shown).first { $0.first == "name" } == ["name", nft.name])
            #expect(rows(shown).first { $0.first == "price" } == ["price", String(format: "%.2f", nft.price)])
            let asJSON = try await run("nft 1 --json", api)
            #expect(try JSONDecoder().decode(NFT.self, from: Data(asJSON.stdout.utf8)) == nft)

            let users = try await json(server, "users?sortBy=rating&order=desc", as: [User].self)
            #expect(rows(try await run("users", api)).map(\.[1]) == users.map(\.name))
            #expect(users.map(\.ratingValue) == users.map(\.ratingValue).sorted(by: >))

            let found = try await json(server, "nft?name=ar", as: [NFT].self)
            #expect(!found.isEmpty)
            #expect(rows(try await run("search ar", api)).map(\.[0]) == found.map(\.id))

            let currencies = try await json(server, "currencies", as: [Currency].self)
            #expect(rows(try await run("currencies", api)) == currencies.map { [$0.id, $0.name, $0.title] })
        }
    }

    /// Likes, the cart, the profile and a payment: after each step the command's output and the
    /// API agree, and the paid order's total is the sum of its NFTs' prices.
    @Test func anAccountsJourneyThroughItsCommands() async throws {
        try await InProcessTestServer.with { server in
            let api = server.client()
            #expect(try await run("cart clear", api).status == 0)
            #expect(try await json(server, "orders/1", as: Order.self).nfts.isEmpty)
            #expect(try await run("cart add 1 2 3", api).status == 0)
            #expect(try await json(server, "orders/1", as: Order.self).nfts == ["1", "2", "3"])
            let removed = try await run("cart remove 2", api)
            #expect(try await json(server, "orders/1", as: Order.self).nfts == ["1", "3"])
            #expect(rows(removed).map(\.[0]) == ["1", "3"])
            let prices = [
                try await json(server, "nft/1", as: NFT.self).price,
                try await json(server, "nft/3", as: NFT.self).price,
            ]
            let cart = try await run("cart", api, terminal: true)
            #expect(
                cart.stdout.contains("2 NFTs, total \(String(format: "%.2f", prices.reduce(0, +)))"), "\(cart.stdout)")
            #expect(cart.stdout.hasPrefix("ID"), "a terminal gets the columns' names")

            let likesBefore = try await json(server, "profile/1", as: Profile.self).likes
            #expect(try await run("like 7 8", api).status == 0)
            #expect(
                try await json(server, "profile/1", as: Profile.self).likes == likesBefore
                    + ["7", "8"].filter { !likesBefore.contains($0) })
            #expect(try await run("unlike 7", api).status == 0)
            let likes = try await json(server, "profile/1", as: Profile.self).likes
            #expect(!likes.contains("7") && likes.contains("8"))
            #expect(rows(try await run("likes", api)).map(\.[0]) == likes)

            #expect(try await run("profile set --name 'Ada L' --website=https://ada.example", api).status == 0)
            let profile = try await json(server, "profile/1", as: Profile.self)
            #expect(profile.name == "Ada L" && profile.website == "https://ada.example")
            #expect(rows(try await run("profile", api)).first == ["name", "Ada L"])

            let paid = try await run("pay --currency btc", api)
            #expect(paid.status == 0, "\(paid.stderr)")
            #expect(try await json(server, "orders/1", as: Order.self).nfts.isEmpty)
            let orders = rows(try await run("orders", api))
            #expect(orders.count == 1)
            let order = try await run("order \(orders[0][0])", api)
            #expect(rows(order).last == ["total", String(format: "%.2f", prices.reduce(0, +))])
            #expect(orders[0][4] == String(format: "%.2f", prices.reduce(0, +)))

            let again = try await run("pay --currency BTC", api)
            #expect(again.status == 1 && again.stderr.contains("cart is empty"))
        }
    }

    @Test func failuresSayWhyWithTheirStatus() async throws {
        try await InProcessTestServer.with { server in
            let api = server.client()
            let missing = try await run("nft 999999", api)
            #expect(missing.status == 1 && missing.stdout.isEmpty && missing.stderr.hasPrefix("not found"))
            let likeMissing = try await run("like 999999", api)
            #expect(likeMissing.status == 1 && likeMissing.stderr.hasPrefix("not found"))
            let badSite = try await run("profile set --website ftp://x", api)
            #expect(badSite.status == 1 && badSite.stderr.contains("website"), "\(badSite.stderr)")
            let noCurrency = try await run("pay --currency XYZ", api)
            #expect(noCurrency.status == 1 && noCurrency.stderr.contains("no currency 'XYZ'"))
            let cart = try await json(server, "orders/1", as: Order.self).nfts
            let visitor = try await run("cart add 1", api, caller: .visitor(reason: "needs a key"))
            #expect(visitor.status == 1 && visitor.stderr.contains("needs a key"))
            #expect(
                try await json(server, "orders/1", as: Order.self).nfts == cart, "a visitor's write changed nothing")
            #expect(try await run("nft 1", api, caller: .visitor(reason: "needs a key")).status == 0)
        }
    }

    @Test(arguments: [
        ("crat", "did you mean 'cart'"), ("nft", "usage: nft ID"), ("nft 1 2", "usage: nft ID"),
        ("cart --bogus", "has no option --bogus"), ("profile set", "say what to change"),
        ("pay", "say which currency"), ("pay --currency", "wants a value"), ("", "no command"),
        ("zzzzzzzz", "'help' lists them"),
    ])
    func wrongCommandLinesAreUsageErrors(line: String, says: String) async throws {
        let outcome = try await run(line, NoShop())
        #expect(outcome.status == 64 && outcome.stdout.isEmpty && outcome.stderr.contains(says), "\(outcome.stderr)")
    }

    @Test func helpComesFromTheTable() async throws {
        let all = try await run("help", NoShop())
        for command in ShopCommand.all { #expect(all.stdout.contains(command.name + " ")) }
        let one = try await run("help profile set", NoShop())
        #expect(one.status == 0 && one.stdout.hasPrefix("usage: profile set [--name NAME]"))
        #expect(try await run("cart add --help", NoShop()).stdout.hasPrefix("usage: cart add ID…"))
    }

    /// Names and numbers from a hostile server never reach the terminal as they came: escape
    /// sequences and direction overrides are dropped, a price that is no number prints as `?`.
    @Test func hostileAnswersArePrintedInert() async throws {
        let nft =
            #"{"id":"1","name":"\u001b]52;c;cm0gLXJm\u0007Evil\u001b[2J\u202Egnp.exe","images":[],"rating":-5,"#
            + #""description":"line\nbreak\tand\r","price":1e300,"author":"a","createdAt":"x"}"#
        let api = FixedShop(body: nft)
        for terminal in [true, false] {
            let outcome = try await run("nft 1", api, terminal: terminal)
            #expect(
                !outcome.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
            #expect(outcome.stdout.contains("Evil"))
            #expect(outcome.stdout.contains("price") && outcome.stdout.contains("?"))
            #expect(outcome.stdout.split(separator: "\n").count == 8, "\(outcome.stdout)")
        }
        let broken = try await run("nft 1", FixedShop(body: "{\"id\": [unterminated"))
        #expect(broken.status == 1 && broken.stderr.contains("could not be read"))
    }

    @Test func commandLinesSplitAsAShellSplitsThem() throws {
        #expect(try CommandLineWords.split(#"search "big  cat" it\'s\ ok"#) == ["search", "big  cat", "it's ok"])
        #expect(try CommandLineWords.split("profile set --name 'A \"B\"'") == ["profile", "set", "--name", "A \"B\""])
        #expect(try CommandLineWords.split("  nft\t1  ") == ["nft", "1"])
        #expect(try CommandLineWords.split("''") == [""])
        #expect(throws: CommandFailure.self) { try CommandLineWords.split("search 'open") }
        #expect(throws: CommandFailure.self) { try CommandLineWords.split("search \\") }
    }
}

/// A shop that is never reached: for command lines refused before any request.
private struct NoShop: ShopAPI {
    func send(_ request: ShopRequest) async throws(CommandFailure) -> ShopAnswer {
        throw .failed("no request was expected: \(request.path)")
    }
}

/// A shop that answers every request with `body`.
private struct FixedShop: ShopAPI {
    let body: String
    func send(_ request: ShopRequest) async throws(CommandFailure) -> ShopAnswer {
        ShopAnswer(status: 200, body: Data(body.utf8), entityTag: nil)
    }
}
