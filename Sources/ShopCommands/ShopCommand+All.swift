import FakeNFTModels
import Foundation

extension ShopCommand {
    /// Every command, in the order `help` lists them.
    public static let all: [ShopCommand] = catalog + account + access

    private static let catalog: [ShopCommand] = [
        ShopCommand(
            name: "collections", argument: nil, options: [], summary: "List the collections.", access: .anyone,
            screen: nil
        ) { _, api in
            let read = try await ShopCalls(api: api).get("collections", as: [NFTCollection].self)
            return CommandOutput(
                json: read.answer.body, header: ["ID", "NAME", "NFTS", "AUTHOR"],
                rows: read.value.map { [$0.id, $0.name, String($0.nfts.count), $0.author] })
        },
        ShopCommand(
            name: "collection", argument: .init(name: "ID", repeats: false), options: [],
            summary: "Show a collection and its NFTs.", access: .anyone,
            screen: { ScreenLink("collection/" + $0.argument) }
        ) { invocation, api in
            let calls = ShopCalls(api: api)
            let read = try await calls.get(
                "collections/\(ShopCalls.pathID(invocation.argument))", as: NFTCollection.self)
            let collection = read.value
            return CommandOutput(
                json: read.answer.body, header: nil,
                rows: [
                    ["id", collection.id], ["name", collection.name], ["author", collection.author],
                    ["website", collection.website ?? ""], ["created", collection.createdAt],
                    ["description", collection.description], ["nfts", collection.nfts.joined(separator: " ")],
                ])
        },
        ShopCommand(
            name: "nft", argument: .init(name: "ID", repeats: false), options: [], summary: "Show an NFT.",
            access: .anyone, screen: { ScreenLink("nft/" + $0.argument) }
        ) { invocation, api in
            let read = try await ShopCalls(api: api).get("nft/\(ShopCalls.pathID(invocation.argument))", as: NFT.self)
            let nft = read.value
            return CommandOutput(
                json: read.answer.body, header: nil,
                rows: [
                    ["id", nft.id], ["name", nft.name], ["price", Amount.text(nft.price)],
                    ["rating", String(nft.rating)],
                    ["author", nft.author], ["website", nft.website ?? ""], ["created", nft.createdAt],
                    ["description", nft.description],
                ])
        },
        ShopCommand(
            name: "search", argument: .init(name: "TEXT", repeats: true), options: [],
            summary: "Find NFTs whose name holds TEXT (case and accents aside).", access: .anyone, screen: nil
        ) { invocation, api in
            let text = invocation.arguments.joined(separator: " ")
            let query = FormEncoding.encode([("name", text), ("size", String(ShopCalls.listedAtMost))])
            let read = try await ShopCalls(api: api).get("nft?" + query, as: [NFT].self)
            return nftTable(read.value, json: read.answer.body)
        },
        ShopCommand(
            name: "users", argument: nil, options: [], summary: "List the users, the best rated first.",
            access: .anyone, screen: nil
        ) { _, api in
            let read = try await ShopCalls(api: api).get("users?sortBy=rating&order=desc", as: [User].self)
            return CommandOutput(
                json: read.answer.body, header: ["ID", "NAME", "RATING", "NFTS"],
                rows: read.value.map { [$0.id, $0.name, String($0.ratingValue), String($0.nfts.count)] })
        },
        ShopCommand(
            name: "user", argument: .init(name: "ID", repeats: false), options: [], summary: "Show a user.",
            access: .anyone, screen: { ScreenLink("user/" + $0.argument) }
        ) { invocation, api in
            let read = try await ShopCalls(api: api).get(
                "users/\(ShopCalls.pathID(invocation.argument))", as: User.self)
            let user = read.value
            return CommandOutput(
                json: read.answer.body, header: nil,
                rows: [
                    ["id", user.id], ["name", user.name], ["rating", String(user.ratingValue)],
                    ["website", user.website], ["description", user.description ?? ""],
                    ["nfts", user.nfts.joined(separator: " ")],
                ])
        },
        ShopCommand(
            name: "currencies", argument: nil, options: [], summary: "List the currencies one can pay in.",
            access: .anyone, screen: nil
        ) { _, api in
            let read = try await ShopCalls(api: api).get("currencies", as: [Currency].self)
            return CommandOutput(
                json: read.answer.body, header: ["ID", "CODE", "NAME"],
                rows: read.value.map { [$0.id, $0.name, $0.title] })
        },
    ]

    private static let account: [ShopCommand] = [
        ShopCommand(
            name: "profile", argument: nil, options: [], summary: "Show your profile.", access: .account, screen: nil
        ) { _, api in
            let read = try await ShopCalls(api: api).get("profile/1", as: Profile.self)
            return profileOutput(read.value, json: read.answer.body)
        },
        ShopCommand(
            name: "profile set", argument: nil,
            options: [
                .init(name: "name", value: "NAME", help: "your name"),
                .init(name: "description", value: "TEXT", help: "a few words about you"),
                .init(name: "website", value: "URL", help: "an http(s) address"),
            ],
            summary: "Change your name, description or website.", access: .account, screen: nil
        ) { invocation, api in
            let fields = ["name", "description", "website"].compactMap { name in
                invocation.options[name].map { (name, $0) }
            }
            guard !fields.isEmpty else {
                throw CommandFailure.usage(
                    "say what to change: usage: \(ShopCommand.named("profile set")?.usage ?? "")")
            }
            let calls = ShopCalls(api: api)
            let read: ShopCalls.Read<Profile> = try calls.read(
                try await calls.send(ShopRequest("PUT", "profile/1", form: fields)))
            return profileOutput(read.value, json: read.answer.body)
        },
        ShopCommand(
            name: "likes", argument: nil, options: [], summary: "List the NFTs you like.", access: .account, screen: nil
        ) {
            _, api in
            let calls = ShopCalls(api: api)
            let likes = try await calls.get("profile/1", as: Profile.self).value.likes
            let found = try await calls.nfts(likes)
            var output = listed(found)
            output.json = encode(found.compactMap(\.nft))
            return output
        },
        likeCommand(name: "like", summary: "Like NFTs.", adding: true),
        likeCommand(name: "unlike", summary: "Stop liking NFTs.", adding: false),
        ShopCommand(
            name: "cart", argument: nil, options: [], summary: "List what is in your cart, and its total.",
            access: .account, screen: { _ in .cart }
        ) { _, api in
            let calls = ShopCalls(api: api)
            let read = try await calls.get("orders/1", as: Order.self)
            return try await cartOutput(read.value, json: read.answer.body, calls)
        },
        cartCommand(name: "cart add", summary: "Put NFTs in your cart.", argument: true) { ids in
            { cart in cart + ids.filter { !cart.contains($0) } }
        },
        cartCommand(name: "cart remove", summary: "Take NFTs out of your cart.", argument: true) { ids in
            { cart in cart.filter { !ids.contains($0) } }
        },
        cartCommand(name: "cart clear", summary: "Empty your cart.", argument: false) { _ in { _ in [] } },
        ShopCommand(
            name: "pay", argument: nil,
            options: [.init(name: "currency", value: "CODE", help: "the currency's code, name or id (see currencies)")],
            summary: "Pay for your cart.", access: .account, screen: nil
        ) { invocation, api in
            guard let code = invocation.options["currency"] else {
                throw CommandFailure.usage("say which currency: usage: \(ShopCommand.named("pay")?.usage ?? "")")
            }
            let calls = ShopCalls(api: api)
            let currencies = try await calls.get("currencies", as: [Currency].self).value
            let wanted = code.lowercased()
            guard
                let currency = currencies.first(where: {
                    [$0.id, $0.name, $0.title].map { $0.lowercased() }.contains(wanted)
                })
            else { throw CommandFailure.failed("no currency '\(code)': 'currencies' lists them") }
            guard !(try await calls.get("orders/1", as: Order.self).value.nfts.isEmpty) else {
                throw CommandFailure.failed("your cart is empty: nothing to pay for")
            }
            let read = try await calls.get("orders/1/payment/\(ShopCalls.pathID(currency.id))", as: PaymentResult.self)
            guard read.value.success else {
                throw CommandFailure.failed("the payment in \(currency.name) did not go through: try again")
            }
            return CommandOutput(
                json: read.answer.body, header: nil,
                rows: [["order", read.value.orderId], ["currency", currency.name]],
                note: "Paid in \(currency.name).")
        },
        ShopCommand(
            name: "orders", argument: nil, options: [], summary: "List your paid orders.", access: .account,
            screen: { _ in .orders }
        ) {
            _, api in
            let read = try await ShopCalls(api: api).get("auth/orders", as: [PaidOrder].self)
            return CommandOutput(
                json: read.answer.body, header: ["ID", "PAID", "CURRENCY", "NFTS", "TOTAL"],
                rows: read.value.map {
                    [$0.id, $0.paidAt, $0.currencyName, String($0.items.count), Amount.text($0.total)]
                })
        },
        ShopCommand(
            name: "order", argument: .init(name: "ID", repeats: false), options: [], summary: "Show a paid order.",
            access: .account, screen: nil
        ) { invocation, api in
            let path = "auth/orders/\(ShopCalls.pathID(invocation.argument))"
            let read = try await ShopCalls(api: api).get(path, as: PaidOrder.self)
            let order = read.value
            return CommandOutput(
                json: read.answer.body, header: nil,
                rows: [["id", order.id], ["paid", order.paidAt], ["currency", order.currencyName]]
                    + order.items.map { ["nft \($0.nft)", Amount.text($0.price)] } + [
                        ["total", Amount.text(order.total)]
                    ])
        },
    ]

    /// The account's ways in: tokens for scripts and clients, and SSH keys.
    private static let access: [ShopCommand] = [
        ShopCommand(
            name: "token create", argument: nil,
            options: [
                .init(name: "name", value: "NAME", help: "what it is for (default: token)"),
                .init(name: "expires", value: "WHEN", help: "its lifetime: 12h, 30d, 8w or 1y (default: never)"),
            ],
            summary: "Make a token for scripts and other clients (X-Practicum-Mobile-Token, --token): shown once.",
            access: .account, screen: nil
        ) { invocation, api in
            let fields = ["name", "expires"].compactMap { name in invocation.options[name].map { (name, $0) } }
            let calls = ShopCalls(api: api)
            let read: ShopCalls.Read<NewToken> = try calls.read(
                try await calls.send(ShopRequest("POST", "auth/tokens", form: fields)))
            let token = read.value
            return CommandOutput(
                json: read.answer.body, header: nil,
                rows: [
                    ["token", token.token], ["id", token.id], ["name", token.name],
                    ["expires", token.expiresAt ?? "never"],
                ],
                note: "Keep the token now: it is not shown again.")
        },
        ShopCommand(
            name: "token list", argument: nil, options: [], summary: "List your tokens (never the tokens themselves).",
            access: .account, screen: nil
        ) { _, api in
            let read = try await ShopCalls(api: api).get("auth/tokens", as: [ListedToken].self)
            return CommandOutput(
                json: read.answer.body, header: ["ID", "NAME", "CREATED", "EXPIRES", "LAST USED"],
                rows: read.value.map { [$0.id, $0.name, $0.createdAt, $0.expiresAt ?? "never", $0.lastUsedAt ?? ""] })
        },
        ShopCommand(
            name: "token revoke", argument: .init(name: "ID", repeats: false), options: [],
            summary: "End one of your tokens.", access: .account, screen: nil
        ) { invocation, api in
            _ = try await ShopCalls(api: api).send(
                ShopRequest("DELETE", "auth/tokens/\(ShopCalls.pathID(invocation.argument))"))
            return CommandOutput(
                json: Data("{}".utf8), header: nil, rows: [], note: "Token \(invocation.argument) ended.")
        },
        ShopCommand(
            name: "keys", argument: nil, options: [], summary: "List the SSH keys that open your account.",
            access: .account, screen: nil
        ) { _, api in
            let read = try await ShopCalls(api: api).get("auth/keys", as: [AccountKey].self)
            return CommandOutput(
                json: read.answer.body, header: ["FINGERPRINT", "ADDED"],
                rows: read.value.map { [$0.fingerprint, $0.createdAt] })
        },
        ShopCommand(
            name: "keys add", argument: .init(name: "PUBLIC-KEY", repeats: true), options: [],
            summary: "Link another SSH key (an Ed25519 or ECDSA public key line, as in ~/.ssh/id_ed25519.pub).",
            access: .account, screen: nil
        ) { invocation, api in
            let line = invocation.arguments.joined(separator: " ")
            let calls = ShopCalls(api: api)
            let read: ShopCalls.Read<AccountKey> = try calls.read(
                try await calls.send(ShopRequest("POST", "auth/keys", form: [("key", line)])))
            return CommandOutput(
                json: read.answer.body, header: nil, rows: [["fingerprint", read.value.fingerprint]],
                note: "The key opens your account now.")
        },
        ShopCommand(
            name: "keys remove", argument: .init(name: "FINGERPRINT", repeats: false), options: [],
            summary: "Unlink an SSH key (never your account's last way in).", access: .account, screen: nil
        ) { invocation, api in
            let query = FormEncoding.encode([("fingerprint", invocation.argument)])
            _ = try await ShopCalls(api: api).send(ShopRequest("DELETE", "auth/keys?" + query))
            return CommandOutput(
                json: Data("{}".utf8), header: nil, rows: [], note: "Key \(invocation.argument) unlinked.")
        },
    ]

    /// A token as `token create` is answered it.
    private struct NewToken: Decodable {
        let id: String, name: String, token: String
        let expiresAt: String?
    }

    /// A token as `token list` reads it.
    private struct ListedToken: Decodable {
        let id: String, name: String, createdAt: String
        let expiresAt: String?, lastUsedAt: String?
    }

    private static func likeCommand(name: String, summary: String, adding: Bool) -> ShopCommand {
        ShopCommand(
            name: name, argument: .init(name: "ID", repeats: true), options: [], summary: summary, access: .account,
            screen: nil
        ) { invocation, api in
            let calls = ShopCalls(api: api), ids = invocation.arguments
            if adding { try await calls.requireNFTs(ids) }
            let read: ShopCalls.Read<Profile> = try await calls.change("profile/1", field: "likes", list: \.likes) {
                likes in adding ? likes + ids.filter { !likes.contains($0) } : likes.filter { !ids.contains($0) }
            }
            return CommandOutput(
                json: read.answer.body, header: nil, rows: [["likes", read.value.likes.joined(separator: " ")]],
                note: "\(adding ? "Liked" : "No longer liked"): \(ids.joined(separator: " ")).")
        }
    }

    private static func cartCommand(
        name: String, summary: String, argument: Bool, change: @escaping @Sendable ([String]) -> ([String]) -> [String]
    ) -> ShopCommand {
        ShopCommand(
            name: name, argument: argument ? .init(name: "ID", repeats: true) : nil, options: [], summary: summary,
            access: .account, screen: nil
        ) { invocation, api in
            let calls = ShopCalls(api: api), ids = invocation.arguments
            if name == "cart add" { try await calls.requireNFTs(ids) }
            let read: ShopCalls.Read<Order> = try await calls.change(
                "orders/1", field: "nfts", list: \.nfts, change(ids))
            return try await cartOutput(read.value, json: read.answer.body, calls)
        }
    }

    /// NFTs as rows of their id, name, price and rating.
    private static func nftTable(_ nfts: [NFT], json: Data) -> CommandOutput {
        CommandOutput(
            json: json, header: ["ID", "NAME", "PRICE", "RATING"],
            rows: nfts.map { [$0.id, $0.name, Amount.text($0.price), String($0.rating)] })
    }

    /// NFTs read by id as rows; one no longer in the shop says so.
    private static func listed(_ found: [(id: String, nft: NFT?)]) -> CommandOutput {
        var output = nftTable(found.compactMap(\.nft), json: Data())
        output.rows += found.filter { $0.nft == nil }.map { [$0.id, "(no longer in the shop)", "", ""] }
        return output
    }

    /// An order's NFTs as rows, its total as the note, and the order as the API says it as JSON.
    private static func cartOutput(_ order: Order, json: Data, _ calls: ShopCalls) async throws(CommandFailure)
        -> CommandOutput
    {
        let found = try await calls.nfts(order.nfts)
        var output = listed(found)
        output.json = json
        let total = Amount.text(Amount.total(found.compactMap { $0.nft?.price }))
        output.note = "\(order.nfts.count) NFTs, total \(total)"
        return output
    }

    private static func profileOutput(_ profile: Profile, json: Data) -> CommandOutput {
        CommandOutput(
            json: json, header: nil,
            rows: [
                ["name", profile.name], ["description", profile.description], ["website", profile.website],
                ["nfts", String(profile.nfts.count)], ["likes", String(profile.likes.count)],
            ])
    }

    private static func encode<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)) ?? Data("null".utf8)
    }
}
