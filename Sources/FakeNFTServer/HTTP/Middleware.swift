import FakeNFTModels
import FakeNFTRequests
import HTTPTypes
import Foundation
import Hummingbird

/// Turns every error into `{"error": "..."}` with a proper status; answers 405 (with `Allow`)
/// for a known path with another method. Client input never becomes a 5xx; a 5xx is logged
/// with its cause.
struct JSONErrorMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let routes: [Route]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as ServerError {
            var response = Responses.error(error.status, error.message)
            for field in error.headers { response.headers.append(field) }
            return response
        } catch let error as RequestError {
            return Responses.error(.badRequest, error.message)
        } catch let error as StoreError {
            switch error {
            case .unknownNFT: return Responses.error(.badRequest, error.description)
            case .unknownCurrency: return Responses.error(.notFound, error.description)
            case .versionMismatch: return Responses.error(.preconditionFailed, error.description)
            case .emailTaken, .alreadyOwned: return Responses.error(.conflict, error.description)
            case .damaged, .newerDatabase: return internalError(error, request, context)
            case .unavailable:
                context.logger.warning("503 for \(request.method) \(request.uri.path): \(error)")
                var response = Responses.error(.serviceUnavailable, "the database is not answering: try again")
                response.headers[.retryAfter] = "2"
                return response
            case .cannotWrite:
                context.logger.error("503 for \(request.method) \(request.uri.path): \(error)")
                var response = Responses.error(
                    .serviceUnavailable,
                    "the server cannot store changes now (its disk is full or its database is read-only): "
                        + "nothing was changed; try again later")
                response.headers[.retryAfter] = "60"
                response.headers[HTTPField.Name(APIProblem.header)!] = APIProblem.cannotStore
                return response
            }
        } catch let error as HTTPError where error.status == .notFound {
            let segments = request.uri.path.split(separator: "/")
            let allowed = Self.allowedMethods(routes.filter { $0.matches(segments) })
            guard !allowed.isEmpty else { return Responses.error(.notFound, "no such path: \(request.uri.path)") }
            var response = Responses.error(.methodNotAllowed, "\(request.method) is not allowed on \(request.uri.path)")
            response.headers[.allow] = allowed.joined(separator: ", ")
            return response
        } catch let error as HTTPError where error.status.code < 500 {
            return Responses.error(error.status, error.body ?? error.status.reasonPhrase)
        } catch {
            return internalError(error, request, context)
        }
    }

    /// The methods of `routes`, with HEAD wherever a GET changes nothing.
    static func allowedMethods(_ routes: [Route]) -> [String] {
        var methods = routes.map(\.method.rawValue)
        if routes.contains(where: { $0.method == .get && !$0.changesState }) { methods.append("HEAD") }
        return methods
    }

    private func internalError(_ error: any Error, _ request: Request, _ context: Context) -> Response {
        context.logger.error("500 for \(request.method) \(request.uri.path): \(error)")
        return Responses.error(.internalServerError, "internal error")
    }
}

/// Refuses state changes that a web page on another site makes the user's browser send:
/// an `Origin` other than the server's own, or `Sec-Fetch-Site: cross-site` (or `same-site`,
/// another origin all the same). A browser's request must also name a host this server serves
/// (loopback, the host it listens on, the public URL's): a page whose name was rebound to this
/// server's address (DNS rebinding) sends its own name in a matching `Host` and `Origin`. The
/// iOS apps and curl send neither header.
struct CrossSiteGuard: Sendable {
    /// Lower-cased host names (without port) a browser may name; loopback ones always pass.
    let servedHosts: Set<String>

    init(configuration: ServerConfiguration) {
        var hosts: Set<String> = []
        if !["0.0.0.0", "::", ""].contains(configuration.host) { hosts.insert(configuration.host.lowercased()) }
        if case .local(let publicURL?) = configuration.imageLinks, let host = publicURL.host {
            hosts.insert(host.lowercased())
        }
        servedHosts = hosts
    }

    func check(_ request: Request) throws {
        let site = request.headers.first(where: { $0.name.canonicalName == "sec-fetch-site" })?.value.lowercased()
        if let site, site == "cross-site" || site == "same-site" {
            throw ServerError(
                .forbidden, "refused: a request from another site (Sec-Fetch-Site: \(site)) may not change data")
        }
        let origin = request.headers[.origin]
        guard origin != nil || site != nil else { return }  // not a browser
        let authority = request.head.authority ?? ""
        if let origin {
            guard !authority.isEmpty, origin == "http://\(authority)" || origin == "https://\(authority)" else {
                throw ServerError(.forbidden, "refused: a request from another origin may not change data")
            }
        }
        guard serves(authority) else {
            throw ServerError(
                .forbidden, "refused: a browser's request for a host this server does not serve may not change data")
        }
    }

    /// Whether `authority` (`host[:port]`) names loopback or one of ``servedHosts``.
    func serves(_ authority: String) -> Bool {
        var host = authority.lowercased()
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            host = String(host[host.index(after: host.startIndex)..<close])
        } else if let colon = host.lastIndex(of: ":") {
            host = String(host[..<colon])
        }
        if host.hasSuffix(".") { host.removeLast() }
        if host == "localhost" || host.hasSuffix(".localhost") || IPAddressRange.isLoopback(host) { return true }
        return servedHosts.contains(host)
    }
}

/// Checks `X-Practicum-Mobile-Token` when a server-wide token is configured: that token, or an
/// account's signed-in token, passes; signing up takes that token, signing in none.
struct TokenMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let token: String
    let store: Store

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        // Images are public, as on the real backend: the apps load them without the token.
        // (a command over SSH acts for its key's account, signed in by the key)
        if request.uri.path.hasPrefix("/images/") || AuthRoutes.isOpen(request.uri.path)
            || OperationsRoutes.paths.contains(request.uri.path) || context.actingOwner != nil
        {
            return try await next(request, context)
        }
        guard let sent = request.headers[AuthRoutes.tokenHeader] else {
            throw ServerError(.unauthorized, "missing X-Practicum-Mobile-Token header")
        }
        if sent != token {
            // an account's token opens the API, not the making of further accounts
            guard request.uri.path != AuthRoutes.signUpPath,
                try await store.signedIn(tokenHash: Tokens.hash(sent)) != nil
            else { throw ServerError(.unauthorized, "wrong token") }
        }
        return try await next(request, context)
    }
}

/// Delays every answer by the latency set (none by default), to test clients against a slow server.
struct LatencyMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let settings: LiveSettings

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let milliseconds = settings.latencyMilliseconds
        if milliseconds > 0 { try await Task.sleep(for: .milliseconds(milliseconds)) }
        return try await next(request, context)
    }
}
