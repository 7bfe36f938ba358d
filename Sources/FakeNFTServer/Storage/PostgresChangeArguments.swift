import Foundation

/// One change's arguments to `fakenft_change` (``PostgresChangeFunction/sql``): bound one by one
/// for a lone change, or in the JSON of a batch for `fakenft_change_batch` (keyed by its
/// columns, ``CodingKeys``). The owner's rows as ``Store``'s rules made them from `before`, with
/// what changed marked (a NULL version or `spent`, or `usersChanged` false: not written), and
/// `rowsJSON`, what its notification carries (``NotifiedChange/payload(_:)``; nil when too large).
struct PostgresChangeArguments: Encodable, Sendable {
    /// The change's place in its batch, from 1 (set by the batch).
    var nth = 0
    var ownerID: String
    var expectedProfile: Int
    var expectedOrder: Int
    var pName: String
    var pAvatar: String
    var pDescription: String
    var pWebsite: String
    var pNfts: String
    var pLikes: String
    var pVersion: Int?
    var oNfts: String
    var oVersion: Int?
    var aSpent: Double?
    var uName: String?
    var uAvatar: String?
    var uDescription: String?
    var uWebsite: String?
    var uNfts: String?
    var uCount: Int?
    var uRating: String?
    var usersChanged: Bool
    var rowsJSON: String?

    /// The batch's JSON keys: the columns `fakenft_change_batch` reads
    /// (``PostgresChangeFunction/batchSQL``).
    enum CodingKeys: String, CodingKey {
        case nth
        case ownerID = "owner_id"
        case expectedProfile = "expected_profile"
        case expectedOrder = "expected_order"
        case pName = "p_name"
        case pAvatar = "p_avatar"
        case pDescription = "p_description"
        case pWebsite = "p_website"
        case pNfts = "p_nfts"
        case pLikes = "p_likes"
        case pVersion = "p_version"
        case oNfts = "o_nfts"
        case oVersion = "o_version"
        case aSpent = "a_spent"
        case uName = "u_name"
        case uAvatar = "u_avatar"
        case uDescription = "u_description"
        case uWebsite = "u_website"
        case uNfts = "u_nfts"
        case uCount = "u_count"
        case uRating = "u_rating"
        case usersChanged = "users_changed"
        case rowsJSON = "rows_json"
    }

    /// `rows`, made from `before`, its notification carrying `shown`.
    init(_ rows: OwnerRows, over before: OwnerRows, shown: ChangedRows) throws {
        let profile = rows.profile, order = rows.order, user = rows.user
        ownerID = profile.id
        expectedProfile = before.profile.version
        expectedOrder = before.order.version
        pName = profile.name
        pAvatar = profile.avatar
        pDescription = profile.description
        pWebsite = profile.website
        pNfts = try IDListText.text(profile.nfts)
        pLikes = try IDListText.text(profile.likes)
        pVersion = profile != before.profile ? profile.version : nil
        oNfts = try IDListText.text(order.nfts)
        oVersion = order != before.order ? order.version : nil
        aSpent = rows.account != before.account ? rows.account?.spent : nil
        uName = user?.name
        uAvatar = user?.avatar
        uDescription = user?.description
        uWebsite = user?.website
        uNfts = try user.map { try IDListText.text($0.nfts) }
        uCount = user?.nftCount
        uRating = user?.rating
        usersChanged = rows.user != before.user
        rowsJSON = NotifiedChange.payload(shown)
    }
}
