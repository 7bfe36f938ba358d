import Foundation

/// Every way a request can fail, each with a message fit for the user.
public enum APIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server cannot be reached (refused, no route, DNS).
    case offline(String)
    case timeout
    /// A missing or wrong token (401/403).
    case unauthorized
    case notFound
    /// Any other error status, with the server's own message when it sent one.
    case server(status: Int, message: String?)
    /// The resource changed on the server since this client read it (412 to an If-Match).
    case versionConflict
    /// Too many attempts (a 429 to a change, which is never retried), and the seconds the
    /// server asked to wait.
    case rateLimited(retryAfter: Int?)
    /// The server cannot store changes now (its disk is full, its database read-only): a 503
    /// saying so (``APIProblem``); nothing was changed.
    case cannotStore
    /// The answer was larger than the client reads (an endless or huge body).
    case tooLarge(limitBytes: Int)
    /// The server answered something that is not the expected JSON.
    case undecodable(String)
    case cancelled

    /// The API error `error` is, or what it stands for (cancelled, or not understood).
    public init(thrown error: any Error) {
        switch error {
        case let error as APIError: self = error
        case is CancellationError: self = .cancelled
        default: self = .undecodable(String(describing: error))
        }
    }

    public var description: String { userMessage }

    /// The server's own message, when it sent one.
    public var serverMessage: String? {
        if case .server(_, let message) = self { return message }
        return nil
    }

    public var userMessage: String {
        switch self {
        case .offline(let host): return "Can't reach the server at \(host). Check that it is running."
        case .timeout: return "The server took too long to answer."
        case .unauthorized: return "The server refused the token (401). Check --token or FAKENFT_TOKEN."
        case .notFound: return "Not found on the server."
        case .server(let status, let message):
            if let message, !message.isEmpty { return "Server error \(status): \(message)" }
            return "Server error \(status)."
        case .versionConflict: return "Changed elsewhere at the same time. Try again."
        case .rateLimited(let seconds):
            return "Too many attempts; try again\(seconds.map { " in \($0) s" } ?? " later")."
        case .tooLarge(let limit):
            return "The server's answer is larger than \(limit / (1024 * 1024)) MB; it was not loaded."
        case .cannotStore: return "The server cannot save changes now (its disk is full or read-only)."
        case .undecodable: return "The server sent an answer this app does not understand."
        case .cancelled: return "Cancelled."
        }
    }
}

extension APIError {
    /// True when the server could not be reached (no answer at all): changes wait for it.
    public var isUnreachable: Bool {
        switch self {
        case .offline, .timeout: true
        default: false
        }
    }
}
