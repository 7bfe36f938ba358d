import Foundation
import NIOCore

/// One `NOTIFY fakenft_changes` payload: `"<generation>"` (a change every server reads back),
/// `"<generation> <writer>"`, or `"<generation> <writer> <rows>"` (``ChangedRows``), which
/// `fakenft_apply` sends when the writer gave it rows small enough for a notification. The rows
/// are `<owner> <profile version> <order version> <profile bytes> <order bytes> <user bytes> ` and
/// then the profile's JSON, the order's, the row in `/users` (JSON, or nothing) and the account's
/// sign-ins (a JSON array, or nothing): the profile and the order are served as they came (once
/// checked to be JSON objects), the row in `/users` and the sign-ins are decoded, as the
/// notification arrives (into the ``ChangeLog``).
struct NotifiedChange: Sendable, Equatable {
    /// `Int.max` (read everything changed) when the payload does not start with one.
    var generation: Int
    var writer: String?
    var rowsText: Substring?

    /// The largest rows a notification carries, in bytes of JSON: PostgreSQL refuses payloads
    /// of 8,000 bytes or more, and the generation and the writer's name come first.
    static let largestRows = 7_800

    /// `rows` as a notification carries them; nil when they are too large to (or their owner's
    /// name could not be read back).
    static func payload(_ rows: ChangedRows) -> String? {
        guard !rows.owner.isEmpty, rows.owner.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        var user = ByteBuffer(), sessions = ByteBuffer()
        do {
            if let record = rows.user { user = try JSONBody.encode(record) }
            if let records = rows.sessions { sessions = try JSONBody.encode(records) }
        } catch {
            return nil
        }
        let profile = rows.profile.json, order = rows.order.json
        let numbers = [
            rows.profile.version, rows.order.version, profile.readableBytes, order.readableBytes, user.readableBytes,
        ]
        let head = ([rows.owner] + numbers.map(String.init)).joined(separator: " ") + " "
        let bytes = [profile, order, user, sessions].map(\.readableBytes).reduce(head.utf8.count, +)
        guard bytes <= largestRows else { return nil }
        return head + [profile, order, user, sessions].map { String(buffer: $0) }.joined()
    }

    /// The rows a payload carried; nil when they do not read (they are read back from the database).
    static func rows(_ text: Substring) -> ChangedRows? {
        let parts = text.split(separator: " ", maxSplits: 6, omittingEmptySubsequences: false)
        guard parts.count == 7, let profileVersion = Int(parts[1]), let orderVersion = Int(parts[2]) else { return nil }
        let lengths = parts[3...5].compactMap { Int($0) }.filter { $0 >= 0 }
        let json = parts[6].utf8
        guard lengths.count == 3, lengths[0] <= json.count, lengths[1] <= json.count - lengths[0],
            lengths[2] <= json.count - lengths[0] - lengths[1]
        else { return nil }
        let orderStart = json.index(json.startIndex, offsetBy: lengths[0])
        let userStart = json.index(orderStart, offsetBy: lengths[1])
        let sessionsStart = json.index(userStart, offsetBy: lengths[2])
        // served as they came: JSON objects, whoever sent them
        guard JSONSyntax.isObject(json[..<orderStart]), JSONSyntax.isObject(json[orderStart..<userStart]) else {
            return nil
        }
        func decoded<Value: Decodable>(_ bytes: Substring.UTF8View.SubSequence) -> Value?? {
            if bytes.isEmpty { return .some(nil) }
            return (try? JSONDecoder().decode(Value.self, from: Data(bytes))).map { .some($0) }
        }
        guard let user: UserRecord? = decoded(json[userStart..<sessionsStart]),
            let sessions: [SessionRecord]? = decoded(json[sessionsStart...])
        else { return nil }
        return ChangedRows(
            owner: String(parts[0]),
            profile: .init(version: profileVersion, json: ByteBuffer(bytes: json[..<orderStart])),
            order: .init(version: orderVersion, json: ByteBuffer(bytes: json[orderStart..<userStart])), user: user,
            sessions: sessions)
    }
}

extension NotifiedChange {
    /// Reads a payload; what it cannot read is left out (a generation that is not one means
    /// read everything).
    init(_ payload: String) {
        let parts = payload.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard let first = parts.first, let generation = Int(first), generation >= 0 else {
            self.init(generation: .max, writer: nil, rowsText: nil)
            return
        }
        self.init(
            generation: generation, writer: parts.count > 1 ? String(parts[1]) : nil,
            rowsText: parts.count > 2 ? parts[2] : nil)
    }
}
