import Foundation

/// The answer to a payment.
public struct PaymentResult: Codable, Sendable, Hashable {
    public var success: Bool
    public var orderId: String
    /// The currency id.
    public var id: String

    public init(success: Bool, orderId: String, id: String) {
        self.success = success
        self.orderId = orderId
        self.id = id
    }

    enum CodingKeys: String, CodingKey { case success, orderId, id }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let b = try? c.decode(Bool.self, forKey: .success) {
            success = b
        } else {
            success = (try c.lenientString(.success)).map { $0 == "true" || $0 == "1" } ?? false
        }
        orderId = try c.lenientString(.orderId) ?? "1"
        id = try c.lenientString(.id) ?? ""
    }
}
