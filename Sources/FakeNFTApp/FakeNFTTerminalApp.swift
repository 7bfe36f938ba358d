import Localization
import FakeNFTCore
import FakeNFTModels
import Foundation
import Logging
import ShopCommands
import TerminalUI

/// Builds the app on a server and runs it in the terminal.
@MainActor
public enum FakeNFTTerminalApp {
    /// The four tabs on `context`, showing tab `selectedTab`; `reload` reads the settings again.
    public static func makeShell(
        context: AppContext, selectedTab: Int = 0, rating: RatingPrompt? = nil, reload: @escaping () -> Void = {}
    ) -> AppShell {
        let state = context.state
        return AppShell(
            tabs: [
                AppShell.Tab(title: tr(.tabCatalog), root: CatalogScreen(model: CatalogViewModel(context: context))),
                AppShell.Tab(
                    title: tr(.tabCart), root: CartScreen(model: CartViewModel(context: context)),
                    badge: { state.cart?.count }),
                AppShell.Tab(title: tr(.tabProfile), root: ProfileScreen(model: ProfileViewModel(context: context))),
                AppShell.Tab(
                    title: tr(.tabStatistics), root: StatisticsScreen(model: StatisticsViewModel(context: context))),
            ], selectedTab: selectedTab, effects: context.effects, pictures: context.pictures,
            goTo: GoToFinder(load: { await GoToIndex.load(context.services) }, clock: context.services.clock) {
                target in
                switch target {
                case .screen(let place): place.command(context: context)
                case .collection(let collection):
                    .push(CollectionScreen(model: CollectionViewModel(collection: collection, context: context)))
                case .nft(let nft, let collection):
                    .push(NFTScreen(model: NFTViewModel(nft: nft, collectionName: collection, context: context)))
                case .user(let user): .push(UserScreen(user: user, context: context))
                }
            },
            rating: rating, undo: { state.undo() }, reload: reload,
            status: { state.status }, readOnly: context.readOnly)
    }

    /// Runs until the user quits; returns the signal that ended it, if one did: the launch
    /// screen while `connect` starts the server, onboarding on the first start, the sign-in
    /// screen when the server offers accounts, then the tabs (and back to signing in after a
    /// sign-out).
    /// - Parameters:
    ///   - server: the server `connect` reaches, when it is not the embedded one (the launch screen names it).
    ///   - look: what the terminal shows pictures with and its theme, for its answers so far
    ///     (nil: none yet); decided at once from the environment, and again when the terminal answers.
    ///   - askTerminal: whether to ask the terminal (``TerminalProbe/queries(inTmux:)``): the
    ///     app never waits for the answers.
    ///   - environment: what the terminal layer reads (`TERM`, `NO_COLOR` as `--color` leaves it).
    ///   - notices: problems to show once the app is up (a configuration value that was ignored).
    ///   - accessible: for screen readers: the cursor on the selection, spinners still.
    ///   - readOnly: nothing may be changed (``AppContext/readOnly``).
    ///   - analytics: usage events are recorded and sent to the server (``UsageRecorder``).
    ///   - reload: reads the settings again (SIGUSR1, Ctrl-R, `:reload`); nil: they cannot be.
    ///   - opening: the screen the tabs first open on (``ScreenLinks``).
    public static func run(
        connect: @escaping @Sendable () async throws -> ServerConnection, server: URL? = nil, mouse: Bool,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        look: @escaping @MainActor (TerminalReplies?) -> (graphics: TerminalGraphics, theme: Theme),
        askTerminal: Bool, inTmux: Bool = false, symbols: CharacterArt.Symbols = .blocks, notices: [String] = [],
        accessible: Bool = false, readOnly: Bool = false, analytics: Bool = false,
        reload: (@Sendable () async -> ReloadedSettings)? = nil, opening: ScreenLink? = nil,
        logger: Logger = Logger(label: "fakenft") { _ in SwiftLogNoOpLogHandler() }
    ) async throws -> Int32? {
        // In an SSH session of the shop: no shell to resume a stop, no browser of the visitor's here.
        let remote = SSHSessionVariables.isRemote(environment)
        // A guest of the shop over SSH (no key) is told how to get an account of their own.
        let guest = SSHSessionVariables.isGuest(environment)
        // The server starts at once, while the terminal is set up and asked what it can do (off
        // the main actor, which the set-up keeps busy).
        let started = Task.detached { try await connect() }
        let session: TerminalSession
        do {
            session = try TerminalSession(
                options: .init(
                    mouse: mouse, theme: look(nil).theme, environment: environment, accessible: accessible,
                    jobControl: !remote))
        } catch {
            started.cancel()
            throw error
        }
        defer { session.shutdown() }
        let fit = TerminalFit(session: session, decide: look, logger: logger)
        if askTerminal { session.askTerminal(inTmux: inTmux) }
        let loop = AppLoop(session: session)
        loop.onTerminalReplies = { fit.take($0) }
        let browser: ((String) -> Bool)? = remote ? nil : { Browser.open($0) }
        let effects = Effects(clipboard: { session.copyToClipboard($0) }, browser: browser)
        let reloads = TaskBag()
        let readAgain = {
            guard let reload else { return }
            reloads.run {
                let fresh = await reload()
                // on the footer the file by its name (its whole path is in the log): a phone's 40
                // columns then still show why
                let name = URL(fileURLWithPath: fresh.file).lastPathComponent
                func short(_ problem: String) -> String { problem.replacingOccurrences(of: fresh.file, with: name) }
                if let reason = fresh.unreadable {
                    logger.warning("configuration not reloaded: \(reason)")
                    return effects.show(Toast(tr(.settingsNotReloaded, short(reason)), kind: .error))
                }
                KeyRemap.replace(fresh.keys)
                Language.setProcessLanguage(fresh.language)
                fit.redecide(fresh.look)
                for problem in fresh.problems { logger.warning("configuration: \(problem)") }
                logger.info("settings reloaded from \(fresh.file)")
                effects.show(
                    fresh.problems.first.map {
                        Toast(tr(.settingsReloadProblem, short($0), fresh.problems.count), kind: .error)
                    }
                        ?? Toast(tr(.settingsReloaded, name)))
            }
        }
        loop.onReload = readAgain
        // Under the launch screen: the server starts, and whether a sign-in is needed is found out.
        let launch = LaunchScene(server: server)
        let accounts = AccountStore(fileURL: AccountStore.defaultURL())
        let connecting = Task { @MainActor in
            defer { launch.finish() }
            let connection = try await started.value
            let gate = SignInGate(
                connection: connection, accounts: accounts, logger: logger, inSSHSession: remote)
            return (gate, await gate.decide(), await gate.givenTokenIsRefused())
        }
        guard await loop.run(launch) == .finished else {
            connecting.cancel()
            started.cancel()
            return session.exitSignal
        }
        var (gate, decision, tokenRefused) = try await connecting.value
        let onboarding = OnboardingRecord(fileURL: OnboardingRecord.defaultURL())
        let palette = fit.graphics.mode == .off ? nil : CharacterArt.Palette.for(session.colors)
        if !onboarding.isDone {
            guard await loop.run(OnboardingScene(palette: palette)) == .finished else { return session.exitSignal }
            onboarding.markDone()
        }
        let pictures = Pictures(
            loader: ImageLoader(disk: ImageDiskCache(directory: ImageDiskCache.defaultDirectory())),
            palette: palette, symbols: symbols,
            cellAspect: fit.cellAspect, pixels: fit.pixels)
        fit.pictures = pictures
        // Each was said on stderr before the screen was taken; here they can be read; `fakenft config` says them again.
        let problems = notices + (tokenRefused ? [tr(.tokenRefused)] : [])
        if !problems.isEmpty, await loop.run(ConfigProblemsScene(problems: problems)) != .finished {
            return session.exitSignal
        }
        var notice: String?
        var guestToldOnce = !guest
        var lastTab = 0  // after the sign-in screen, the tabs open where they were left
        var opening = opening  // the first tabs only
        // how a link to a screen is typed: over SSH the shop's door, here this binary on its server
        let linkCommand =
            remote
            ? environment[SSHSessionVariables.door] ?? "ssh -t"
            : "fakenft" + (server.map { " --server " + $0.absoluteString } ?? "")
        while true {
            let access: SignInGate.Access =
                switch decision {
                case .account(let account): .account(account)
                case .shared(let offers): .shared(offersAccounts: offers)
                case .ask: await gate.ask(loop: loop, notice: notice)
                }
            let account: Account?, offersAccounts: Bool
            switch access {
            case .quit: return session.exitSignal
            case .shared(let offers): (account, offersAccounts) = (nil, offers)
            case .account(let signedIn): (account, offersAccounts) = (signedIn, true)
            }
            var configuration = gate.connection.api
            if let token = account?.token { configuration.token = token }
            let services = Services(
                api: APIClient(configuration, logger: logger),
                preferences: PreferencesStore(fileURL: PreferencesStore.defaultURL()),
                kept: KeptChanges(
                    directory: KeptChanges.defaultDirectory(), server: gate.connection.accountKey,
                    account: account?.userId))
            let context = AppContext(
                services: services, effects: effects, pictures: pictures, account: account,
                offersAccounts: offersAccounts, signInKey: account == nil ? nil : environment[SSHSessionVariables.key],
                guestVisit: account.map(gate.isSessionsOwn) == true && guest,
                readOnly: readOnly, linkCommand: linkCommand)
            let lastSeen = LastSeenStore(
                directory: LastSeenStore.defaultDirectory(), server: gate.connection.accountKey,
                account: account?.userId)
            await context.state.start(remembering: lastSeen.load())  // before the first screen loads
            let usage =
                analytics
                ? UsageRecorder(
                    reporter: UsageReporter(api: APIClient(configuration), server: gate.connection.accountKey))
                : nil
            // The rating prompt hears what the user does through the usage events; never read-only, never a guest's.
            let rating = usage.flatMap { usage in
                readOnly || guest
                    ? nil
                    : RatingPrompt(
                        record: RatingRecord(server: gate.connection.accountKey, account: account?.userId),
                        usage: usage, effects: effects)
            }
            usage?.heard = { [weak rating] in rating?.heard($0) }
            let shell = makeShell(context: context, selectedTab: lastTab, rating: rating, reload: readAgain)
            if let link = opening {
                opening = nil
                await ScreenLinks.open(link, in: shell, context: context)
            }
            // news only when just signed in; a guest's first screen says what a guest visit is
            if let account, case .ask = decision { effects.show(Toast(tr(.signedInAs, account.name))) }
            if !guestToldOnce {
                let words =
                    SSHSessionVariables.keyWaitsForAccount(environment) ? tr(.guestUntilAccount) : tr(.guestVisit)
                effects.show(Toast(words, duration: 15))
                guestToldOnce = true
            }
            let ending = await UsageRecorder.$current.withValue(usage) { await loop.run(shell) }
            await usage?.finish()
            rating?.finish()
            lastTab = shell.selectedTab
            shell.close()
            await context.state.finishWrites()
            context.state.stop()
            await keep(services, in: lastSeen, logger: logger)
            guard ending == .finished else { return session.exitSignal }
            // Signed out (or asked to sign in): the token ends on the server and here, then back to
            // the sign-in screen (an SSH session's own token lasts the session: it is gone back to;
            // a guest's sign-out clears its account instead, for a fresh guest visit).
            if let account, !gate.isSessionsOwn(account) || guest {
                do { try await APIClient(configuration, logger: logger).signOut() } catch {
                    logger.warning("sign-out: \(error)")
                }
            }
            gate.accounts.delete()
            notice = account == nil ? nil : tr(.signedOut)
            decision = .ask
        }
    }
}

extension FakeNFTTerminalApp {
    /// Keeps what the services saw for the next start (``LastSeen``).
    static func keep(_ services: Services, in store: LastSeenStore, logger: Logger) async {
        let (collections, nfts) = await services.catalog.seen()
        let (firstPages, people, places, userCount) = await services.users.seen()
        let seen = LastSeen(
            collections: collections, nfts: nfts, profile: services.profile.current, order: services.order.current,
            firstPages: firstPages, people: people, paidOrders: await services.paidOrders.seen(),
            ratingPlaces: places, userCount: userCount)
        guard !seen.isEmpty else { return }
        do { try store.save(seen) } catch {
            logger.warning("could not keep what was seen in \(store.file.path): \(error)")
        }
    }
}

/// The server the app talks to, once it answers.
public struct ServerConnection: Sendable {
    public var api: APIConfiguration
    /// Which server a saved sign-in belongs to: its URL, or the embedded server's data folder.
    public var accountKey: String

    public init(api: APIConfiguration, accountKey: String) {
        self.api = api
        self.accountKey = accountKey
    }
}

/// The settings read again from the configuration file (under the environment and the command
/// line, as at start): what the running app takes from them.
public struct ReloadedSettings: Sendable {
    /// The file read.
    public var file: String
    /// Why it could not be read at all: then nothing changes.
    public var unreadable: String?
    /// The keys `[keys]` gives actions, checked.
    public var keys: [String: [Key]]
    public var language: Language
    /// Pictures and theme for the terminal's answers so far (`images`, `theme`, `[colors]`).
    public var look: @MainActor @Sendable (TerminalReplies?) -> (graphics: TerminalGraphics, theme: Theme)
    /// What was wrong in them (that value left at its default, the rest applied).
    public var problems: [String]

    public init(
        file: String, unreadable: String?, keys: [String: [Key]], language: Language,
        look: @escaping @MainActor @Sendable (TerminalReplies?) -> (graphics: TerminalGraphics, theme: Theme),
        problems: [String]
    ) {
        self.file = file
        self.unreadable = unreadable
        self.keys = keys
        self.language = language
        self.look = look
        self.problems = problems
    }
}
