import FakeNFTModels
import Foundation

/// The API calls commands make, their answers read and their refusals said in words.
struct ShopCalls: Sendable {
    let api: any ShopAPI

    /// `GET path`, its body read as `T`.
    func get<T: Decodable>(_ path: String, as type: T.Type = T.self) async throws(CommandFailure) -> Read<T> {
        try await read(try await send(ShopRequest("GET", path)))
    }

    /// `request`'s answer, when it is a success.
    func send(_ request: ShopRequest) async throws(CommandFailure) -> ShopAnswer {
        let answer = try await api.send(request)
        guard (200..<300).contains(answer.status) else { throw Self.refusal(answer, of: request) }
        return answer
    }

    /// An answer's body read as `T`, with its bytes and version.
    func read<T: Decodable>(_ answer: ShopAnswer) throws(CommandFailure) -> Read<T> {
        do {
            return Read(value: try JSONDecoder().decode(T.self, from: answer.body), answer: answer)
        } catch {
            throw .failed("the server's answer could not be read")
        }
    }

    /// A value read, and the answer it came in.
    struct Read<T> {
        let value: T
        let answer: ShopAnswer
    }

    /// Changes the list `field` of the resource at `path` (a profile's likes, an order's NFTs)
    /// as `change` says, against the version read: another change in between is read again and
    /// the change made on it (up to three times).
    func change<T: Decodable>(
        _ path: String, field: String, list: KeyPath<T, [String]>, _ change: ([String]) -> [String]
    ) async throws(CommandFailure) -> Read<T> {
        for _ in 0..<Self.attempts {
            let current: Read<T> = try await get(path)
            let request = ShopRequest(
                "PUT", path, form: [(field, IDList.formValue(change(current.value[keyPath: list])))],
                ifMatch: current.answer.entityTag)
            let answer = try await api.send(request)
            if answer.status == 412 { continue }
            guard (200..<300).contains(answer.status) else { throw Self.refusal(answer, of: request) }
            return try read(answer)
        }
        throw .failed("the \(field) kept changing under this command: try again")
    }

    static let attempts = 3

    /// The NFTs of `ids`, each read; one that is not there is named as such.
    func nfts(_ ids: [String]) async throws(CommandFailure) -> [(id: String, nft: NFT?)] {
        var result: [(String, NFT?)] = []
        for id in ids.prefix(Self.listedAtMost) {
            let request = ShopRequest("GET", "nft/\(Self.pathID(id))")
            let answer = try await api.send(request)
            if answer.status == 404 {
                result.append((id, nil))
                continue
            }
            guard (200..<300).contains(answer.status) else { throw Self.refusal(answer, of: request) }
            let read: Read<NFT> = try self.read(answer)
            result.append((id, read.value))
        }
        return result
    }

    /// The most NFTs a list reads one by one.
    static let listedAtMost = 200

    /// Each of `ids` is an NFT of the shop (else the failure names the first that is not).
    func requireNFTs(_ ids: [String]) async throws(CommandFailure) {
        for id in ids { _ = try await get("nft/\(Self.pathID(id))", as: NFT.self) }
    }

    /// An id as one segment of a path: anything but letters, digits, `-`, `_` and `.` escaped.
    static func pathID(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    private static let allowed = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")

    /// A refused request in words: the server's own reason where it gave one.
    static func refusal(_ answer: ShopAnswer, of request: ShopRequest) -> CommandFailure {
        let reason = (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
            .flatMap { ($0["error"] ?? $0["message"]) as? String }
            .map { String($0.prefix(300)) }
        switch answer.status {
        case 404: return .failed("not found: \(reason ?? request.path)")
        case 401, 403: return .failed("refused: \(reason ?? "this needs an account")")
        case 429: return .failed("too many requests: \(reason ?? "try again in a minute")")
        case 400..<500: return .failed("refused: \(reason ?? "status \(answer.status)")")
        default: return .failed("the server failed (status \(answer.status))\(reason.map { ": " + $0 } ?? "")")
        }
    }
}

/// Prices and totals as people read them: two decimals, nothing for what is not a number.
enum Amount {
    static func text(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "?" }
        return String(format: "%.2f", value)
    }

    /// The sum of the finite `values` (one that is not a number, or huge, is left out).
    static func total(_ values: [Double]) -> Double {
        values.filter { $0.isFinite && abs($0) < 1e15 }.reduce(0, +)
    }
}
