import FakeNFTCore
import Foundation
import Testing
import FakeNFTTesting

/// The shop over SSH with OpenSSH's own client: `fakenft serve --ssh-port`, a visitor's key, the
/// app in their terminal. Each step is checked on the visitor's screen and on the server.
@Suite(.serialized, .timeLimit(.minutes(5))) struct SSHEndToEndTests {
    /// A fresh key walks in (onboarding, then the catalog, no sign-in), fills its cart, sees its
    /// name and key in Profile, is redrawn at a new size and leaves; it comes back to the same
    /// cart without the onboarding; a second key has an account of its own; Russian on request.
    @Test func aKeyIsAnAccountThatComesBack() async throws {
        let shop = try await SSHShopUnderTest()
        let tmux = shop.tmux
        let api = APIClient(APIConfiguration(baseURL: shop.server))
        let usersBefore = try await api.users(page: 0, size: 10_000).count

        try await tmux.type(shop.ssh(key: "alice", user: "alice"))
        var screen = try await tmux.waitFor("Welcome to FakeNFT")
        try await tmux.keys("s")
        screen = try await tmux.waitFor("9 collections")
        #expect(!screen.contains("Continue without an account"), "a key signs in by itself")
        #expect(screen.contains("2 Cart ") && !screen.contains("Cart ["), "a new account's cart is empty")
        try await tmux.keys("Enter")  // the biggest collection
        let first = try await api.nft(id: try await api.collectionsInCatalogOrder()[0].nfts[0])
        try await tmux.waitFor(first.name)
        try await tmux.keys("c")
        try await tmux.waitFor("Cart [1]")
        try await tmux.keys("3")
        screen = try await tmux.waitFor("alice")
        let fingerprint = try await shop.fingerprint(of: "alice")
        #expect(screen.contains(fingerprint), "Profile shows the key: \(screen)")
        try await tmux.resize(width: 70, height: 20)
        try await tmux.waitUntil("the tabs redrawn 70 wide") { screen in
            let top = screen.split(separator: "\n").first.map { String($0) } ?? ""
            return top.trimmingCharacters(in: .whitespaces).hasSuffix("FakeNFT") && top.count <= 70
                && top.contains("3 Profile")
        }
        try await tmux.keys("q")
        try await tmux.waitFor("EXIT=0")

        // The same key again: its cart, no onboarding; one account for it in /users.
        try await tmux.resize(width: 100, height: 30)
        try await tmux.type("clear; " + shop.ssh(key: "alice", user: "alice"))
        screen = try await tmux.waitUntil("the catalog with alice's cart") {
            $0.contains("9 collections") && $0.contains("Cart [1]")
        }
        #expect(!screen.contains("Welcome to FakeNFT"))
        try await tmux.keys("q")
        try await tmux.waitFor("EXIT=0")

        // Another key: its own account, its own onboarding, in Russian as its client asks.
        try await tmux.type("clear; " + shop.ssh(key: "bob", user: "bob", options: "-o SetEnv=LANG=ru_RU.UTF-8"))
        try await tmux.waitFor("Добро пожаловать в FakeNFT")
        try await tmux.keys("s")
        screen = try await tmux.waitFor("Каталог")
        #expect(!screen.contains("["), "bob's cart is empty: \(screen)")
        try await tmux.keys("q")
        try await tmux.waitFor("EXIT=0")

        let users = try await api.users(page: 0, size: 10_000)
        #expect(users.count == usersBefore + 2)
        #expect(users.filter { $0.name == "alice" }.count == 1 && users.filter { $0.name == "bob" }.count == 1)
    }

    /// Signing in with an e-mail and password from a session (Profile, Log out, the sign-in
    /// screen) moves the key to that account: its next visit opens it.
    @Test func signingInFromASessionMovesTheKey() async throws {
        let shop = try await SSHShopUnderTest()
        let tmux = shop.tmux
        let api = APIClient(APIConfiguration(baseURL: shop.server))
        let carol = try await api.signUp(name: "Carol Mail", email: "carol@example.com", password: "secret 12")
        try await tmux.type(shop.ssh(key: "alice", user: "alice"))
        try await tmux.waitFor("Welcome to FakeNFT")
        try await tmux.keys("s")
        try await tmux.waitFor("9 collections")
        try await tmux.keys("3")
        try await tmux.waitFor("alice")
        for _ in 0..<4 { try await tmux.keys("Down") }
        try await tmux.keys("Enter")
        let question = try await tmux.waitFor("Log out of")
        #expect(question.contains(String(try await shop.fingerprint(of: "alice").prefix(30))))
        try await tmux.keys("y")
        try await tmux.waitFor("Signed out")
        try await tmux.run(["send-keys", "-t", tmux.session, "-l", "carol@example.com"])
        try await tmux.keys("Enter")
        try await tmux.run(["send-keys", "-t", tmux.session, "-l", "secret 12"])
        try await tmux.keys("Enter")
        try await tmux.waitFor("Signed in as Carol Mail")
        try await tmux.keys("q")
        try await tmux.waitFor("EXIT=0")

        try await tmux.type("clear; " + shop.ssh(key: "alice", user: "alice"))
        try await tmux.waitFor("9 collections")
        try await tmux.keys("3")
        let screen = try await tmux.waitFor("Carol Mail")
        #expect(!screen.contains("alice"))
        #expect(try await api.users(page: 0, size: 10_000).contains { $0.id == carol.userId })
        try await tmux.keys("q")
        try await tmux.waitFor("EXIT=0")
    }

    /// A session without a key pressed for `--ssh-idle-minutes` is closed with its reason.
    @Test func anIdleSessionIsClosed() async throws {
        let shop = try await SSHShopUnderTest(keys: ["alice"], arguments: "--ssh-idle-minutes 1")
        try await shop.tmux.type(shop.ssh(key: "alice", user: "alice"))
        try await shop.tmux.waitFor("Welcome to FakeNFT")
        let closed = try await shop.tmux.waitFor("EXIT=1", timeout: 120)
        #expect(closed.contains("Closed: no key was pressed for 1 min."), "\(closed)")
        #expect(try await shop.appProcesses().isEmpty)
    }

    /// Twenty visitors in at once, each with a key of their own, all reach the catalog; the one
    /// past the shop's limit is told it is full. They come five at a time (twenty handshakes and
    /// app starts in one moment beside the whole suite on two busy cores could outlast the
    /// handshake's 10 s), and each window stays after its visit ends, showing why.
    @Test func twentyVisitorsAtOnce() async throws {
        let visitors = (1...21).map { "v\($0)" }
        let shop = try await SSHShopUnderTest(
            keys: visitors, arguments: "--ssh-max-sessions 20 --ssh-max-per-visitor 25")
        for wave in stride(from: 0, to: 20, by: 5) {
            let arriving = visitors[wave..<wave + 5]
            for visitor in arriving {
                try await shop.tmux.run(
                    [
                        "new-window", "-d", "-t", shop.tmux.session, "-n", visitor,
                        shop.ssh(key: visitor, user: visitor) + "; sleep 600",
                    ])
            }
            for visitor in arriving {
                try await shop.waitFor("Welcome to FakeNFT", in: visitor, timeout: 60)
                try await shop.tmux.run(["send-keys", "-t", "\(shop.tmux.session):\(visitor)", "s"])
            }
        }
        for visitor in visitors.prefix(20) { try await shop.waitFor("9 collections", in: visitor, timeout: 60) }
        try await shop.tmux.run(
            [
                "new-window", "-d", "-t", shop.tmux.session, "-n", "v21",
                shop.ssh(key: "v21", user: "v21") + "; sleep 60",
            ])
        try await shop.waitFor("EXIT=1", in: "v21", timeout: 30)
        try await shop.waitFor("The shop is full", in: "v21", timeout: 1)
        #expect(try await shop.appProcesses().count == 20)
    }

    /// What the shop is not: a shell, a file server, a tunnel (either way), a password prompt. Each is refused
    /// with its reason; a visitor who drops the connection leaves no app behind.
    @Test func whatItRefusesAndWhatItCleansUp() async throws {
        let shop = try await SSHShopUnderTest()
        let command = try await shop.run(["alice@127.0.0.1", "ls"], key: "alice")
        #expect(command.status == 1 && command.output.contains("not a shell"), "\(command.output)")
        let noTerminal = try await shop.run(["alice@127.0.0.1"], key: "alice")
        #expect(noTerminal.status == 1 && noTerminal.output.contains("use ssh -t"), "\(noTerminal.output)")
        let password = try await shop.run(
            ["-o", "PubkeyAuthentication=no", "-o", "PasswordAuthentication=yes", "bob@127.0.0.1", "true"], key: nil)
        #expect(password.status == 255 && password.output.contains("Permission denied (publickey)"))
        let sftp = try await spawned(
            "/usr/bin/sftp", ["-P", "\(shop.sshPort)"] + shop.clientOptions(key: "alice") + ["alice@127.0.0.1"])
        #expect(sftp.status != 0 && sftp.output.contains("subsystem request failed"), "\(sftp.output)")
        let forwardPort = try Tmux.freePort()
        let forward = try await shop.run(
            ["-N", "-o", "ExitOnForwardFailure=yes", "-R", "\(forwardPort):127.0.0.1:22", "alice@127.0.0.1"],
            key: "alice")
        #expect(forward.status == 255 && forward.output.contains("forwarding failed"), "\(forward.output)")

        // Local forwarding: the tunnel's channel is refused when something connects through it.
        let tmux = shop.tmux
        let local = try Tmux.freePort()
        let tunnel = (["ssh", "-N", "-p", "\(shop.sshPort)"] + shop.clientOptions(key: "alice")).joined(separator: " ")
        try await tmux.run([
            "new-window", "-d", "-t", tmux.session, "-n", "tunnel",
            "\(tunnel) -L \(local):127.0.0.1:\(shop.server.port ?? 0) alice@127.0.0.1; sleep 60",
        ])
        var connection: RawConnection?
        _ = await polled(within: .seconds(10)) {  // once the tunnel listens
            connection = try? RawConnection(port: local)
            return connection != nil
        }
        let tunnelled = try #require(connection)
        tunnelled.send("GET /api/v1/nft/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let answer = await tunnelled.receive(timeout: 5)
        #expect(answer.closed && !answer.text.contains("HTTP/1.1"), "\(answer)")
        try await shop.waitFor("open failed", in: "tunnel", timeout: 5)
        try await tmux.run(["kill-window", "-t", "\(tmux.session):tunnel"])
        try await tmux.run(["select-window", "-t", "\(tmux.session):0"])

        // A visitor whose client is killed: the session's app ends within 3 s.
        try await tmux.type(shop.ssh(key: "alice", user: "alice"))
        try await tmux.waitFor("Welcome to FakeNFT")
        let apps = try await shop.appProcesses()
        #expect(apps.count == 1)
        _ = try await spawned("/usr/bin/pkill", ["-KILL", "-f", "ssh -t -p \(shop.sshPort) "])
        let gone = await polled(within: .seconds(3)) { ((try? await shop.appProcesses()) ?? apps).isEmpty }
        #expect(gone, "the app outlived its visitor")
    }
}

/// `fakenft serve --ssh-port` in a tmux of its own, and keys made with ssh-keygen in its folder.
struct SSHShopUnderTest {
    let tmux: Tmux
    let server: URL
    let sshPort: Int

    /// With `keys` (alice and bob, and more when asked for) and more server `arguments`.
    init(keys: [String] = ["alice", "bob"], arguments: String = "") async throws {
        tmux = try await Tmux(width: 100, height: 30)
        sshPort = try Tmux.freePort()
        server = try await tmux.startServer(arguments: "--ssh-port \(sshPort) \(arguments)")
        for name in keys {
            let made = try await spawned(
                "/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", keyPath(name)])
            guard made.status == 0 else { throw E2EError("ssh-keygen: \(made.output)") }
        }
    }

    private func keyPath(_ name: String) -> String { tmux.directory.appendingPathComponent("\(name)_key").path }

    /// The options that make OpenSSH's client ask nothing and sign in with `key`'s file only.
    func clientOptions(key: String?) -> [String] {
        [
            "-F", "/dev/null", "-o", "StrictHostKeyChecking=no", "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes",
            "-o", "UserKnownHostsFile=\(tmux.directory.appendingPathComponent("known_hosts").path)",
        ] + (key.map { ["-i", keyPath($0)] } ?? [])
    }

    /// The shell line that visits the shop as `user` with `key`, then prints its exit status.
    func ssh(key: String, user: String, options: String = "") -> String {
        let line = (["ssh", "-t", "-p", "\(sshPort)"] + clientOptions(key: key)).joined(separator: " ")
        return "\(line) \(options) \(user)@127.0.0.1; echo \"EX\"\"IT=$?\""
    }

    /// Runs `ssh` with `arguments` (without a terminal), for its status and what it printed.
    func run(_ arguments: [String], key: String?) async throws -> (status: Int32, output: String) {
        try await spawned("/usr/bin/ssh", ["-p", "\(sshPort)"] + clientOptions(key: key) + arguments)
    }

    /// `SHA256:…` of a key, as ssh-keygen prints it.
    func fingerprint(of key: String) async throws -> String {
        let printed = try await spawned("/usr/bin/ssh-keygen", ["-l", "-f", keyPath(key) + ".pub"]).output
        guard let fingerprint = printed.split(separator: " ").first(where: { $0.hasPrefix("SHA256:") }) else {
            throw E2EError("no fingerprint in \(printed)")
        }
        return String(fingerprint)
    }

    /// Waits for `text` in the tmux window `window`.
    func waitFor(_ text: String, in window: String, timeout: TimeInterval) async throws {
        var last = ""
        let shown = try await polled(every: .milliseconds(100), within: .seconds(timeout)) {
            last = try await tmux.run(["capture-pane", "-p", "-t", "\(tmux.session):\(window)"])
            return last.contains(text)
        }
        guard shown else { throw E2EError("timed out waiting for '\(text)' in \(window); screen was:\n\(last)") }
    }

    /// The pids of the apps the server runs for SSH sessions.
    func appProcesses() async throws -> [Int32] {
        let servers = try await spawned("/usr/bin/pgrep", ["-f", "serve --port \(server.port ?? 0)"]).output
        var apps: [Int32] = []
        for server in servers.split(separator: "\n") {
            let children = try await spawned("/usr/bin/pgrep", ["-P", String(server)]).output
            apps += children.split(separator: "\n").compactMap { Int32($0) }
        }
        return apps
    }
}
