import FakeNFTCore
import Localization

// The app's words for the failures the core reports. The server's own message is never shown
// (it is in the log): each failure is said in the catalog's language.

extension APIError {
    /// What went wrong, in the current language.
    var message: String {
        switch self {
        case .offline(let host): tr(.errorOffline, host)
        case .timeout: tr(.errorTimeout)
        case .unauthorized: tr(.errorUnauthorized)
        case .notFound: tr(.errorNotFound)
        case .server(let status, _): status == 429 || status == 503 ? tr(.errorBusy, status) : tr(.errorServer, status)
        case .versionConflict: tr(.errorConflict)
        case .rateLimited(let seconds):
            seconds.map { tr(.errorRateLimited, max(1, ($0 + 59) / 60)) } ?? tr(.errorRateLimitedLater)
        case .tooLarge(let limit): tr(.errorTooLarge, limit / (1024 * 1024))
        case .cannotStore: tr(.errorCannotStore)
        case .undecodable: tr(.errorUndecodable)
        case .cancelled: tr(.errorCancelled)
        }
    }
}

extension WebPageError {
    /// Why the page cannot be shown, in the current language.
    var message: String {
        switch self {
        case .notWeb: tr(.pageNotWeb)
        case .invalidAddress: tr(.pageInvalidAddress)
        case .status(let status): tr(.pageStatus, status)
        case .tooLarge(let megabytes): tr(.pageTooLarge, megabytes)
        case .timedOut: tr(.pageTimedOut)
        case .cancelled: tr(.errorCancelled)
        case .unreachable(let reason):
            Self.why(unreachable: reason).map { tr(.pageUnreachable) + " " + tr($0) } ?? tr(.pageUnreachable)
        case .other: tr(.pageOther)
        }
    }

    /// The kind of reason the transport gave for not reaching a site, when it is one the app can
    /// word (the transport's own text goes to the log only).
    static func why(unreachable reason: String) -> TextKey? {
        let reason = reason.lowercased()
        if ["dns", "resolve", "nodename", "name or service", "no address"].contains(where: reason.contains) {
            return .reasonNoSuchHost
        }
        if reason.contains("refused") { return .reasonRefused }
        if reason.contains("unreachable") || reason.contains("no route") { return .reasonNoNetwork }
        if reason.contains("reset") || reason.contains("closed") { return .reasonClosed }
        return nil
    }
}

extension SafeLink.Refusal {
    /// Why a link is not copied or opened, in the current language.
    var message: String {
        switch self {
        case .empty: tr(.linkEmpty)
        case .notWeb(let scheme): scheme.isEmpty ? tr(.linkNotWeb) : tr(.linkNotWebScheme, scheme)
        case .malformed: tr(.linkMalformed)
        }
    }
}

/// Why a payment did not go through, and on which attempt with that currency.
enum PaymentFailure: Error, Equatable {
    /// The server said no for `currency`.
    case declined(currency: String, attempt: Int)
    /// The request failed.
    case failed(APIError, attempt: Int)

    /// What the failure dialog says, in the current language (a repeated answer says its attempt).
    var message: String {
        switch self {
        case .declined(let currency, let attempt): tr(.paymentDeclined, currency, Self.again(attempt))
        case .failed(let error, let attempt): error.message + Self.again(attempt)
        }
    }

    private static func again(_ attempt: Int) -> String { attempt > 1 ? tr(.attempt, attempt) : "" }
}

/// Why the profile form was not saved.
enum FormProblem: Error, Equatable {
    /// A field breaks its rule (each says which under it).
    case invalidFields
    /// The server could not take the change.
    case notSaved(APIError)

    /// What the form says under its buttons, in the current language.
    var message: String {
        switch self {
        case .invalidFields: tr(.fixFields)
        case .notSaved(let error): tr(.notSaved, error.message)
        }
    }
}

/// Why a sign-in or sign-up did not go through.
enum SignInFailure: Error, Equatable {
    /// A field breaks its rule.
    case invalidFields
    /// The server answered without a session.
    case noSession
    /// The request failed.
    case refused(APIError)

    /// What the sign-in screen says under its button, in the current language.
    var message: String {
        switch self {
        case .invalidFields: tr(.fixFields)
        case .noSession: tr(.errorUndecodable)
        case .refused(.unauthorized): tr(.wrongCredentials)
        case .refused(.server(409, _)): tr(.emailTaken)
        case .refused(.server(400, _)): tr(.checkFields)
        case .refused(.notFound): tr(.noAccountsHere)
        case .refused(let error): error.message
        }
    }
}
