import FakeNFTCore
import Foundation
import Logging

/// Which profile the tabs open on: a signed-in account's or the shared one. A sign-in saved for
/// this server is used while it lasts (in an SSH session, the key's account instead), and so is the
/// choice to go on without one; a server that
/// offers accounts (`GET /auth/session` answers 401) gets the sign-in screen; any other server
/// goes straight to the tabs.
@MainActor
struct SignInGate {
    enum Access { case account(Account), shared(offersAccounts: Bool), quit }

    let connection: ServerConnection
    let accounts: AccountStore
    let logger: Logger
    /// Whether the app runs in an SSH session of the shop, whose token is the session's account
    /// (the key's, or a guest's): it lasts the session, whatever the visitor signs out of.
    var inSSHSession = false

    /// Whether `account` is signed in with the SSH session's own token, which only the session's end ends.
    func isSessionsOwn(_ account: Account) -> Bool {
        inSSHSession && account.token != nil && account.token == connection.api.token
    }

    /// What to do before any screen is needed (under the launch screen): a saved sign-in that
    /// still holds, the shared profile, or ask.
    enum Decision { case account(Account), shared(offersAccounts: Bool), ask }

    /// The checks take at most this long each (a server that hangs is taken for one without accounts).
    static let timeout: TimeInterval = 5

    func decide() async -> Decision {
        var configuration = connection.api
        configuration.timeout = Self.timeout
        configuration.retries = 0
        // In an SSH session of the shop, the token given is the visitor's key's account (or the
        // guest's): that account, whatever was saved (an earlier session's token has ended).
        if inSSHSession, let token = configuration.token,
            let session = try? await APIClient(configuration, logger: logger).session()
        {
            return .account(Account(token: token, userId: session.userId, name: session.name, email: session.email))
        }
        if let saved = accounts.load(server: connection.accountKey) {
            guard let account = saved.account, let token = account.token else { return .shared(offersAccounts: true) }
            configuration.token = token
            do {
                let session = try await APIClient(configuration, logger: logger).session()
                return .account(Account(token: token, userId: session.userId, name: session.name, email: session.email))
            } catch APIError.unauthorized {
                logger.info("the saved sign-in has ended")
                accounts.delete()
                return .ask
            } catch APIError.notFound {
                accounts.delete()  // the server no longer offers accounts
                return .shared(offersAccounts: false)
            } catch {  // offline or slow: the tabs say what is wrong; the sign-in stays
                return .account(account)
            }
        }
        do {
            _ = try await APIClient(configuration, logger: logger).session()
            return .ask
        } catch APIError.unauthorized {
            return .ask  // accounts are offered
        } catch {
            return .shared(offersAccounts: false)  // no accounts here (404), or the server cannot tell
        }
    }

    /// True when a token was given (`--token`, `FAKENFT_TOKEN`, config.toml) and the server refuses
    /// it: said before any screen, instead of after the first requests fail.
    func givenTokenIsRefused() async -> Bool {
        guard connection.api.token != nil else { return false }
        var configuration = connection.api
        configuration.timeout = Self.timeout
        configuration.retries = 0
        do {
            _ = try await APIClient(configuration, logger: logger).currencies()
            return false
        } catch APIError.unauthorized {
            return true
        } catch {
            return false  // offline or slow: the tabs say what is wrong
        }
    }

    /// The sign-in screen; what was chosen is saved for this server. In an SSH session, going on
    /// without an account goes back to the session's own (the key's, or the guest's).
    /// - Parameter notice: what the sign-in screen says first (that the user signed out).
    func ask(loop: AppLoop, notice: String? = nil) async -> Access {
        let model = SignInModel(api: APIClient(connection.api, logger: logger), notice: notice)
        guard await loop.run(SignInScene(model: model)) == .finished, let outcome = model.outcome else { return .quit }
        let account: Account?
        switch outcome {
        case .withoutAccount:
            if inSSHSession, case .account(let own) = await decide() { return .account(own) }
            account = nil
        case .signedIn(let signedIn): account = signedIn
        }
        do {
            try accounts.save(SavedSignIn(server: connection.accountKey, account: account))
        } catch {
            logger.warning("the sign-in could not be saved: \(error)")
        }
        return account.map { .account($0) } ?? .shared(offersAccounts: true)
    }
}
