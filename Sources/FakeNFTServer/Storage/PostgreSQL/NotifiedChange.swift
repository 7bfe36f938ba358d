import Foundation
import NIOCore

/// One `NOTIFY fakenft_changes` payload: `"<generation>"` (a change every server reads back),
/// `"<generation> <writer>"`, or `"<generation> <writer> <rows>"` (``ChangedRows``), which
/// `fakenft_change` sends when the writer gave it rows small enough for a notification. The rows
/// are `<owner> <profile version> <order version> <profile bytes> <order bytes> ` and then the
/// profile's JSON, the order's and the row in `/users` (JSON, or nothing): the profile and the
/// order are served as they came (once checked to be JSON objects), and the row in `/users` is
/// decoded, as the notification arrives (into the ``ChangeLog``).
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
        var user = ByteBuffer()
        if let record = rows.user {
            guard let json = try? JSONBody.encode(record) else { return nil }
            user = json
        }
        let profile = rows.profile.json, order = rows.order.json
        let numbers = [rows.profile.version, rows.order.version, profile.readableBytes, order.readableBytes]
        let head = ([rows.owner] + numbers.map(String.init)).joined(separator: " ") + " "
        guard head.utf8.count + profile.readableBytes + order.readableBytes + user.readableBytes <= largestRows else {
            return nil
        }
        return head + String(buffer: profile) + String(buffer: order) + String(buffer: user)
    }

    /// The rows a payload carried; nil when they do not read (they are read back from the database).
    static func rows(_ text: Substring) -> ChangedRows? {
        let parts = text.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: false)
        guard parts.count == 6, let profileVersion = Int(parts[1]), let orderVersion = Int(parts[2]),
            let profileBytes = Int(parts[3]), let orderBytes = Int(parts[4]), profileBytes >= 0, orderBytes >= 0
        else { return nil }
        let json = parts[5].utf8
        guard profileBytes <= json.count, orderBytes <= json.count - profileBytes else { return nil }
        let orderStart = json.index(json.startIndex, offsetBy: profileBytes)
        let userStart = json.index(orderStart, offsetBy: orderBytes)
        // served as they came: JSON objects, whoever sent them
        guard JSONSyntax.isObject(json[..<orderStart]), JSONSyntax.isObject(json[orderStart..<userStart]) else {
            return nil
        }
        var user: UserRecord?
        if userStart != json.endIndex {
            guard let decoded = try? JSONDecoder().decode(UserRecord.self, from: Data(json[userStart...])) else {
                return nil
            }
            user = decoded
        }
        return ChangedRows(
            owner: String(parts[0]),
            profile: .init(version: profileVersion, json: ByteBuffer(bytes: json[..<orderStart])),
            order: .init(version: orderVersion, json: ByteBuffer(bytes: json[orderStart..<userStart])), user: user)
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
