import FakeNFTModels

/// The shapes the API sends and takes, as the served OpenAPI document names them
/// (`#/components/schemas/…`). A field a server may leave out, or send as `null`, is not required.
enum APISchemas {
    static let all: [String: APISchema] = [
        "Error": .object([("error", .string)], required: ["error"]),
        "NFT": .object(
            [
                ("id", .string), ("name", .string), ("images", .array(.string)), ("rating", .integer),
                ("description", .string), ("price", .number), ("author", .string), ("website", .optionalString),
                ("createdAt", .string),
            ], required: ["id", "name", "price"]),
        "Collection": .object(
            [
                ("id", .string), ("name", .string), ("cover", .string), ("nfts", .ids), ("description", .string),
                ("author", .string), ("website", .optionalString), ("createdAt", .string),
            ], required: ["id", "name", "nfts"]),
        "User": .object(
            [
                ("id", .string), ("name", .string), ("avatar", .string), ("description", .optionalString),
                ("website", .string), ("nfts", .ids), ("rating", .string),
            ], required: ["id", "name", "nfts", "rating"]),
        "Profile": .object(
            [
                ("id", .string), ("name", .string), ("avatar", .string), ("description", .string),
                ("website", .string), ("nfts", .ids), ("likes", .ids),
            ], required: ["id", "name", "nfts", "likes"]),
        "Order": .object([("id", .string), ("nfts", .ids)], required: ["id", "nfts"]),
        "Currency": .object(
            [("id", .string), ("title", .string), ("name", .string), ("image", .string)], required: ["id", "name"]),
        "PaymentResult": .object(
            [("success", .boolean), ("orderId", .string), ("id", .string)], required: ["success", "orderId"]),
        "PaidOrder": .object(
            [
                ("id", .string), ("paidAt", .string), ("currencyId", .string), ("currencyName", .string),
                ("items", .array(.object([("nft", .string), ("price", .number)], required: ["nft", "price"]))),
                ("total", .number),
            ], required: ["id", "paidAt", "items", "total"]),
        "SignedIn": .object(
            [("token", .string), ("userId", .string), ("name", .string), ("email", .string)],
            required: ["token", "userId", "name", "email"]),
        "Session": .object(
            [("userId", .string), ("name", .string), ("email", .string)], required: ["userId", "name", "email"]),
        "Token": .object(
            [
                ("id", .string), ("name", .string), ("createdAt", .string), ("lastUsedAt", .string),
                ("expiresAt", .optionalString),
            ], required: ["id", "name", "createdAt"]),
        "NewToken": .object(
            [
                ("id", .string), ("name", .string), ("token", .string), ("createdAt", .string),
                ("lastUsedAt", .string), ("expiresAt", .optionalString),
            ], required: ["id", "name", "token", "createdAt"]),
        "Key": .object([("fingerprint", .string), ("createdAt", .string)], required: ["fingerprint", "createdAt"]),
        "UsageBatch": .object(
            [
                (
                    "events",
                    .array(
                        .object(
                            [
                                ("event", .string), ("screen", .string), ("action", .optionalString),
                                ("item", .optionalString), ("stars", .integer),
                            ], required: ["event", "screen"]))
                )
            ], required: ["events"]),
    ]

    /// A page of a list: `page` (from 0), `size` (or `limit`, at most 10,000), `sortBy=field[,desc]`,
    /// `order`, and `name` (the names that hold it).
    static let listQuery: [APIDoc.Field] = [
        .init(name: "page", schema: .integer, about: "the page, from 0"),
        .init(name: "size", schema: .integer, about: "items per page (at most 10,000); the whole list without"),
        .init(name: "sortBy", schema: .string, about: "a field, and ',desc' for the largest first"),
        .init(name: "order", schema: .string, about: "asc or desc"),
        .init(name: "name", schema: .string, about: "only names that hold this, case and accents aside"),
    ]
}
