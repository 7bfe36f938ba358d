import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An answer larger than the caller allows (an endless or huge body).
public struct ResponseTooLarge: Error, Sendable, Equatable {
    public let limit: Int
}

/// A URLSession that stops reading an answer as soon as it passes a size limit, so a huge or
/// endless body fails fast with ``ResponseTooLarge`` instead of filling memory.
///
/// A caller's cancellation does not reach URLSession: on Linux, FoundationNetworking can trap in
/// `URLSession.behaviour(for:)` when a task is cancelled while its connection fails (seen when
/// the server was still starting). A cancelled caller waits for the answer or the timeout.
final class BoundedSession: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct Transfer {
        var continuation: CheckedContinuation<(Data, URLResponse), any Error>
        var limit: Int
        var data = Data()
        var response: URLResponse?
        var tooLarge = false
    }

    private let lock = NSLock()
    /// Guarded by `lock`.
    private var transfers: [Int: Transfer] = [:]
    private var session: URLSession?

    init(configuration: URLSessionConfiguration) {
        super.init()
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    /// The whole answer, or ``ResponseTooLarge`` once it passes `limit` bytes.
    func data(for request: URLRequest, limit: Int) async throws -> (Data, URLResponse) {
        guard let session else { throw URLError(.unknown) }
        return try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: request)
            lock.withLock { transfers[task.taskIdentifier] = Transfer(continuation: continuation, limit: limit) }
            task.resume()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let allowed = lock.withLock { () -> Bool in
            guard var transfer = transfers[dataTask.taskIdentifier] else { return false }
            transfer.response = response
            if response.expectedContentLength > Int64(transfer.limit) { transfer.tooLarge = true }
            transfers[dataTask.taskIdentifier] = transfer
            return !transfer.tooLarge
        }
        completionHandler(allowed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overLimit = lock.withLock { () -> Bool in
            guard var transfer = transfers[dataTask.taskIdentifier], !transfer.tooLarge else { return false }
            if transfer.data.count + data.count > transfer.limit {
                transfer.tooLarge = true
                transfer.data = Data()
            } else {
                transfer.data.append(data)
            }
            transfers[dataTask.taskIdentifier] = transfer
            return transfer.tooLarge
        }
        if overLimit { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = lock.withLock({ transfers.removeValue(forKey: task.taskIdentifier) }) else { return }
        if transfer.tooLarge {
            transfer.continuation.resume(throwing: ResponseTooLarge(limit: transfer.limit))
        } else if let error {
            transfer.continuation.resume(throwing: error)
        } else if let response = transfer.response ?? task.response {
            transfer.continuation.resume(returning: (transfer.data, response))
        } else {
            transfer.continuation.resume(throwing: URLError(.badServerResponse))
        }
    }
}
