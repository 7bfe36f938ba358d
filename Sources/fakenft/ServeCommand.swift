import LineLog
import Logging
import ArgumentParser
import FakeNFTCore
import FakeNFTServer
import Foundation

/// `fakenft serve`: the offline FakeNFT server alone.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the offline FakeNFT server (API v1.1.0 under /api/v1) until Ctrl-C.")

    @Option(
        help: ArgumentHelp(
            """
            Read options from this TOML file, each key a long option's name (ssh-max-per-visitor = 3), under \
            the environment's and the command line's; SIGHUP reads it again (default $FAKENFT_CONFIG).
            """,
            valueName: "file"))
    var config: String?

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port; 0 picks a free one.")
    var port = 8080

    @Option(help: ArgumentHelp("Folder of the SQLite database (default $XDG_DATA_HOME/fakenft).", valueName: "dir"))
    var data: String?

    @Option(
        help: ArgumentHelp(
            """
            Use this PostgreSQL database instead of SQLite (default $FAKENFT_DATABASE), for several servers on one \
            database; 
            """
                + "?sslmode=disable|prefer|require|verify-ca|verify-full, ?sslrootcert=FILE and "
                + "?keepalives_idle=SECONDS (ping idle connections) as libpq reads them, "
                + "?pool_max_conns=N (connections at most, default 20) as pgx does, "
                + "?query_timeout=SECONDS (a query's longest wait before a 503, default 10) as PgBouncer does, "
                + "a host starting with / is a Unix socket's folder, and what the address leaves out comes from "
                + "PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE, PGSSLMODE, PGSSLROOTCERT.",
            valueName: "postgres://[user[:password]@][host][:port][/db][?param=value…]"))
    var database: String?

    @Option(help: "Require this X-Practicum-Mobile-Token on every request (better: --token-file, $FAKENFT_TOKEN).")
    var token: String?

    @Option(
        help: ArgumentHelp(
            "Require the token in this file (its first line), which keeps it out of the process list.",
            valueName: "file"))
    var tokenFile: String?

    @Option(help: ArgumentHelp("Delay every answer by this many milliseconds (to test clients).", valueName: "ms"))
    var latency = 0

    @Flag(help: "Reseed the database.")
    var reset = false

    @Option(
        help: ArgumentHelp(
            "Seed this many users and NFTs (implies --reset), e.g. 10000,100000.", valueName: "users,nfts"),
        transform: LargeSeed.parse)
    var large: LargeSeed?

    @Option(
        help: ArgumentHelp("Payment outcome per currency id, e.g. 2=ok,5=fail.", valueName: "list"),
        transform: PaymentOutcomes.parse)
    var payments: PaymentOutcomes?

    @Option(help: ArgumentHelp("Close a connection that sends nothing for this many seconds.", valueName: "seconds"))
    var idleTimeout = 30

    @Flag(help: "Log only failures, not every request.")
    var quiet = false

    @Flag(help: "Refuse every change (likes, cart, payments, profile edits, sign-ups and sign-ins) with 403.")
    var readOnly = false

    @Option(
        help: ArgumentHelp(
            """
            Base of the image links the API gives (default: the host each request names), e.g. \
            http://192.168.1.5:8080.
            """,
            valueName: "url"))
    var publicURL: String?

    @Flag(help: "Give the real data set's image URLs instead of this server's /images/.")
    var upstreamImages = false

    @Option(help: ArgumentHelp("Sign-ups one client address may make per hour; 0: no limit.", valueName: "n"))
    var signUpsPerHour = 20

    @Option(help: ArgumentHelp("A sign-in unused this many days expires.", valueName: "days"))
    var sessionIdleDays = 30

    @Option(
        help: ArgumentHelp(
            """
            A change to likes or the cart sent without If-Match: replace the list (as the real backend), or merge the \
            ids the client added and removed since it read it.
            """,
            valueName: "replace|merge"))
    var listsWithoutIfMatch: ServerConfiguration.ListWrites = .replace

    @Option(
        help: ArgumentHelp(
            "Serve /metrics on this listener instead of the API's port (where only loopback clients get it), or off.",
            valueName: "host:port|off"))
    var metricsAddress: String?

    @Option(help: ArgumentHelp("How log lines are written: text, or json (one object per line).", valueName: "format"))
    var logFormat: LineLogHandler.Format = .text

    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            """
            A proxy (IP address or CIDR network) whose X-Forwarded-For (HTTP) or PROXY protocol line (SSH) names \
            the client, as limits count clients; repeatable.
            """,
            valueName: "address"))
    var trustedProxies: [String] = []

    @Option(
        help: ArgumentHelp(
            "Serve the app over SSH on this port too (off when not given): ssh -p PORT HOST.",
            valueName: "port"))
    var sshPort: Int?

    @Option(help: ArgumentHelp("Address the SSH front listens on (default: --host).", valueName: "host"))
    var sshHost: String?

    @Option(
        help: ArgumentHelp(
            "The SSH host key (an unencrypted Ed25519 key from ssh-keygen, mode 0600; default: made on the first "
                + "start as ssh_host_ed25519_key in the data folder).",
            valueName: "file"))
    var sshHostKey: String?

    @Option(help: ArgumentHelp("SSH sessions at once, in all.", valueName: "n"))
    var sshMaxSessions = 200

    @Option(help: ArgumentHelp("SSH sessions at once of one key, and of one address.", valueName: "n"))
    var sshMaxPerVisitor = 4

    @Option(help: ArgumentHelp("Close an SSH session after this many minutes without a key pressed.", valueName: "n"))
    var sshIdleMinutes = 60

    @Option(
        help: ArgumentHelp(
            "Accounts made for new SSH keys per hour from one address (ten times as many in all; 0: no limit).",
            valueName: "n"))
    var sshNewKeysPerHour = 10

    @Option(
        help: ArgumentHelp(
            "Commands over SSH (ssh host cart) per minute, per key and per address (three times as many per network).",
            valueName: "n"))
    var sshCommandsPerMinute = 60

    @Option(
        help: ArgumentHelp(
            """
            Print the apps' usage on this day (today, yesterday or YYYY-MM-DD, in UTC) as the database holds it, \
            every server of it added up, then exit: screens opened, the funnel catalog → NFT → cart → paid, the \
            actions, the most opened and liked NFTs, the rating prompt's answers.
            """,
            valueName: "day"))
    var usageSummary: String?

    func validate() throws {
        if let usageSummary, FakeNFTServer.usageDay(usageSummary) == nil {
            throw ValidationError("--usage-summary wants today, yesterday or a day as YYYY-MM-DD, not \(usageSummary)")
        }
        if let sshPort, !(0...65535).contains(sshPort) {
            throw ValidationError("--ssh-port wants a number in 0...65535, not \(sshPort)")
        }
        guard (1...100_000).contains(sshMaxSessions) else {
            throw ValidationError("--ssh-max-sessions wants a number in 1...100000, not \(sshMaxSessions)")
        }
        guard (1...1_000).contains(sshMaxPerVisitor) else {
            throw ValidationError("--ssh-max-per-visitor wants a number in 1...1000, not \(sshMaxPerVisitor)")
        }
        guard (1...10_080).contains(sshIdleMinutes) else {
            throw ValidationError("--ssh-idle-minutes wants a number in 1...10080, not \(sshIdleMinutes)")
        }
        guard (0...100_000).contains(sshNewKeysPerHour) else {
            throw ValidationError("--ssh-new-keys-per-hour wants a number in 0...100000, not \(sshNewKeysPerHour)")
        }
        guard (1...100_000).contains(sshCommandsPerMinute) else {
            throw ValidationError("--ssh-commands-per-minute wants a number in 1...100000, not \(sshCommandsPerMinute)")
        }
        guard (0...65535).contains(port) else {
            throw ValidationError("--port wants a number in 0...65535, not \(port)")
        }
        guard (0...60_000).contains(latency) else {
            throw ValidationError("--latency wants a number in 0...60000, not \(latency)")
        }
        guard (0...1_000_000).contains(signUpsPerHour) else {
            throw ValidationError("--sign-ups-per-hour wants a number in 0...1000000, not \(signUpsPerHour)")
        }
        guard (1...3650).contains(sessionIdleDays) else {
            throw ValidationError("--session-idle-days wants a number in 1...3650, not \(sessionIdleDays)")
        }
        guard (1...86_400).contains(idleTimeout) else {
            throw ValidationError("--idle-timeout wants a number in 1...86400, not \(idleTimeout)")
        }
        if token != nil && tokenFile != nil { throw ValidationError("--token and --token-file exclude each other") }
        if let metricsAddress, metricsAddress != "off", ListenAddress(metricsAddress) == nil {
            throw ValidationError(
                "--metrics-address wants host:port (e.g. 127.0.0.1:9464) or off, not \(metricsAddress)")
        }
        if let bad = trustedProxies.first(where: { IPAddressRange($0) == nil }) {
            throw ValidationError(
                "--trusted-proxy wants an IP address or network such as 127.0.0.1 or 10.0.0.0/8, not \(bad)")
        }
        if let database {
            do { _ = try PostgresAddress(database) } catch { throw ValidationError("--database: \(error)") }
        }
        if let publicURL {
            guard !upstreamImages else {
                throw ValidationError("--public-url and --upstream-images exclude each other")
            }
            guard let url = URL(string: publicURL), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host?.isEmpty == false,
                url.query == nil, url.fragment == nil
            else {
                throw ValidationError(
                    "--public-url wants an http(s) URL such as http://192.168.1.5:8080, not \(publicURL)")
            }
        }
    }

    /// What the options ask for; throws when the token file cannot be read.
    func serverConfiguration(environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> ServerConfiguration
    {
        var configuration = ServerConfiguration(
            host: host, port: port,
            dataDirectory: data.map { URL(fileURLWithPath: $0) }
                ?? ServerConfiguration.defaultDataDirectory(environment: environment),
            token: try tokenFile.map(Self.readToken) ?? token, latencyMilliseconds: latency,
            reset: reset || large != nil,
            paymentOutcomes: payments?.outcomes ?? [:], logRequests: !quiet, log: .standardError,
            idleTimeout: idleTimeout,
            imageLinks: upstreamImages ? .upstream : .local(publicURL: publicURL.flatMap(URL.init(string:))))
        configuration.signUpsPerHour = signUpsPerHour
        configuration.sessionIdleLimit = TimeInterval(sessionIdleDays) * 86_400
        configuration.listWrites = listsWithoutIfMatch
        configuration.readOnly = readOnly
        configuration.trustedProxies = trustedProxies.compactMap(IPAddressRange.init)
        if let large { configuration.seed = .large(users: large.users, nfts: large.nfts) }
        configuration.postgresURL = database
        configuration.metrics =
            switch metricsAddress {
            case nil: .loopbackOnAPIPort
            case "off": .off
            case let address?: ListenAddress(address).map { .listener(host: $0.host, port: $0.port) } ?? .off
            }
        configuration.logFormat = logFormat
        if let sshPort {
            var ssh = SSHConfiguration(
                host: sshHost ?? host, port: sshPort, hostKeyPath: sshHostKey, appExecutable: Self.executable)
            ssh.limits.maxSessions = sshMaxSessions
            ssh.limits.maxSessionsPerVisitor = sshMaxPerVisitor
            ssh.limits.idleLimit = .seconds(60 * sshIdleMinutes)
            ssh.limits.newKeysPerHour = sshNewKeysPerHour
            ssh.limits.commandsPerMinute = sshCommandsPerMinute
            ssh.trustedProxies = configuration.trustedProxies
            configuration.ssh = ssh
        }
        return configuration
    }

    /// This very binary, which each SSH session runs as `fakenft app`.
    private static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// The first line of `path`, trimmed; a file others may read is refused.
    static func readToken(from path: String) throws -> String {
        guard let data = RegularFile.read(URL(fileURLWithPath: path), maxBytes: 4096),
            let line = String(data: data, encoding: .utf8)?.split(whereSeparator: \.isNewline).first?
                .trimmingCharacters(in: .whitespaces), !line.isEmpty,
            line.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F })  // no NUL, no controls
        else { throw Failure("--token-file \(path): not a readable file whose first line is the token") }
        if let mode = PrivateFile.exposedMode(of: path) {
            throw Failure(
                "--token-file \(path): other users can read it (mode \(String(mode, radix: 8))): run chmod 600 \(path)"
            )
        }
        return line
    }

    func run() async throws {
        let configuration = try serverConfiguration()
        if let usageSummary, let day = FakeNFTServer.usageDay(usageSummary) {
            return print(try await FakeNFTServer.usageSummary(configuration, day: day))
        }
        // A closed stdout or stderr (`fakenft serve | true`) must not end the server: writes to it
        // fail quietly instead of raising SIGPIPE, and go through a writer that never blocks.
        signal(SIGPIPE, SIG_IGN)
        ProcessLimits.raiseOpenFileLimit()
        // The start is said on stdout in the log's format, so a collector reading the process's
        // output as JSON lines reads this one too.
        let started = Logger(label: "fakenft.server") {
            LineLogHandler(label: $0, writer: .standardOutput, logLevel: .info, format: configuration.logFormat)
        }
        let commandLine = Array(CommandLine.arguments.dropFirst()), environment = ProcessInfo.processInfo.environment
        let reload = ServeLayers.configPath(commandLine, environment: environment).map { path in
            ServeReload(
                commandLine: commandLine, environment: environment, path: path,
                file: try? ServeLayers.file(commandLine, environment: environment), log: started)
        }
        do {
            try await FakeNFTServer.serve(
                configuration,
                reload: {
                    guard let reload else {
                        started.info("SIGHUP: there is no --config file to read again")
                        return nil
                    }
                    return reload.configuration()
                }
            ) { port in
                let data =
                    configuration.postgresURL.flatMap { try? PostgresAddress($0) }.map(\.description)
                    ?? configuration.dataDirectory.path
                started.info(
                    "FakeNFT server listening on http://\(configuration.host):\(port)/api/v1 (data: \(data))")
            } onSSHListening: { port, fingerprint in
                let address = "\(configuration.ssh?.host ?? host):\(port)"
                started.info("FakeNFT shop over SSH on \(address): ssh -p \(port) HOST (host key \(fingerprint))")
            }
        } catch {
            LineWriter.flush()
            throw Failure("server stopped: \(error)")
        }
        LineWriter.flush()
    }
}

/// `--large USERS,NFTS`.
struct LargeSeed {
    let users: Int
    let nfts: Int

    static func parse(_ argument: String) throws -> LargeSeed {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let users = parts[0], let nfts = parts[1], (0...1_000_000).contains(users),
            (0...1_000_000).contains(nfts)
        else {
            throw ValidationError("--large wants USERS,NFTS, each 0...1000000, e.g. 10000,100000 (not '\(argument)')")
        }
        return LargeSeed(users: users, nfts: nfts)
    }
}

/// `--payments ID=ok|fail,...`.
struct PaymentOutcomes {
    let outcomes: [String: Bool]

    static func parse(_ argument: String) throws -> PaymentOutcomes {
        guard let outcomes = ServerConfiguration.parsePaymentOutcomes(argument) else {
            throw ValidationError("--payments wants ID=ok|fail pairs, e.g. 2=ok,5=fail (not '\(argument)')")
        }
        return PaymentOutcomes(outcomes: outcomes)
    }
}
