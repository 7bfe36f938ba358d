import FakeNFTCore
import Foundation
import Glibc
import Testing
import FakeNFTTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension EndToEnd {
    /// The shop over SSH with OpenSSH's own client: `fakenft serve --ssh-port`, a visitor's key, the
    /// app in their terminal. Each step is checked on the visitor's screen and on the server.
    @Suite(.timeLimit(.minutes(5))) struct SSHEndToEndTests {
        /// A fresh key walks in (onboarding, then the catalog, no sign-in), fills its cart, sees its
        /// name and key in Profile, is redrawn at a new size and leaves; it comes back to the same
        /// cart without the onboarding; a second key has an account of its own (not listed in
        /// `/users` while it has done nothing); Russian on request.
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

            // alice filled her cart: listed; bob did nothing: not listed.
            let users = try await api.users(page: 0, size: 10_000)
            #expect(users.count == usersBefore + 1)
            #expect(users.filter { $0.name == "alice" }.count == 1 && !users.contains { $0.name == "bob" })
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
            try await tmux.keys("End", "Enter")  // Log out, the last row
            let question = try await tmux.waitFor("Log out of")
            #expect(question.contains("Log out of alice, by your SSH key?"), "the account in whole words: \(question)")
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

        /// Log out in a session, then on without an account: back in the key's own account, its
        /// cart as it was, never a word about `--token`; logging out again works the same way.
        @Test func loggingOutOfASessionGoesBackToTheKeysAccount() async throws {
            let shop = try await SSHShopUnderTest(keys: ["dora"])
            let tmux = shop.tmux
            try await tmux.type(shop.ssh(key: "dora", user: "dora"))
            try await tmux.waitFor("Welcome to FakeNFT")
            try await tmux.keys("s")
            try await tmux.waitFor("9 collections")
            try await tmux.keys("Enter")
            try await tmux.waitFor("[+ cart]")
            try await tmux.keys("c")
            try await tmux.waitFor("Cart [1]")
            for round in 1...2 {
                try await tmux.keys("3")
                try await tmux.waitFor("dora")
                try await tmux.keys("End", "Enter")  // Log out, the last row
                try await tmux.waitFor("Log out of")
                try await tmux.keys("y")
                try await tmux.waitFor("Continue without an account")
                try await tmux.keys("Escape")
                let back = try await tmux.waitUntil("round \(round): the key's account again") {
                    $0.contains("dora") && $0.contains("Cart [1]")
                }
                #expect(!back.contains("--token") && !back.contains("refused"), "\(back)")
            }
            try await tmux.keys("2")
            let cart = try await tmux.waitFor("Cart [1]")
            #expect(!cart.contains("--token") && !cart.contains("401"), "\(cart)")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
        }

        /// A 100,000-character paste over SSH (bracketed, as tmux pastes it) is cut with its notice
        /// and the next key acts at once: the relay paused for it reads on (NIOSSH starts no read when
        /// reading is turned back on, and the session waited for ever).
        @Test func aHugePasteIsCutAndTheNextKeyActs() async throws {
            let shop = try await SSHShopUnderTest(keys: ["erin"])
            let tmux = shop.tmux
            try await tmux.type(shop.ssh(key: "erin", user: "erin"))
            try await tmux.waitFor("Welcome to FakeNFT")
            try await tmux.keys("s")
            try await tmux.waitFor("9 collections")
            try await tmux.keys("/")
            let text = tmux.directory.appendingPathComponent("paste.txt")
            try String(repeating: "pasted words ", count: 7_700).write(to: text, atomically: true, encoding: .utf8)
            _ = try await tmux.run(["load-buffer", "-b", "huge", text.path])
            _ = try await tmux.run(["paste-buffer", "-p", "-b", "huge", "-t", tmux.session])
            try await tmux.waitFor("The paste was cut to its first 64 K characters", timeout: 30)
            // as a person would, after the notice: what comes within 30 ms of a paste's end is its own
            // tail (KeyDecoder.burstGap), and a test that saw the frame can answer that fast
            try await Task.sleep(for: .milliseconds(200))
            try await tmux.keys("Escape", "Escape", "q")
            try await tmux.waitFor("EXIT=0", timeout: 10)
        }

        /// 400 KB of keys typed into one session (a stuck key, a script: pasted unbracketed, so every
        /// character is a key) cannot hold `q` behind them, nor a second visitor's tab switch.
        @Test func aFloodedSessionEndsOnQBesideAVisitorWhoseKeysAct() async throws {
            let shop = try await SSHShopUnderTest(keys: ["fay", "gus"])
            let tmux = shop.tmux
            try await tmux.newWindow("gus", shop.ssh(key: "gus", user: "gus") + "; sleep 600")
            try await shop.waitFor("Welcome to FakeNFT", in: "gus", timeout: 60)
            try await tmux.run(["send-keys", "-t", "\(tmux.session):gus", "s"])
            try await shop.waitFor("9 collections", in: "gus", timeout: 60)
            try await tmux.type(shop.ssh(key: "fay", user: "fay"))
            try await tmux.waitFor("Welcome to FakeNFT")
            try await tmux.keys("s")
            try await tmux.waitFor("9 collections")
            let keys = tmux.directory.appendingPathComponent("keys.txt")
            try String(repeating: "jk", count: 200_000).write(to: keys, atomically: true, encoding: .utf8)
            try await tmux.run(["load-buffer", "-b", "flood", keys.path])
            try await tmux.run(["paste-buffer", "-b", "flood", "-t", "\(tmux.session):0"])
            try await tmux.run(["send-keys", "-t", "\(tmux.session):gus", "4"])
            try await shop.waitFor("Users by rating", in: "gus", timeout: 30)
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0", timeout: 30)
            try await tmux.run(["send-keys", "-t", "\(tmux.session):gus", "1"])
            try await shop.waitFor("9 collections", in: "gus", timeout: 30)
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

        /// `serve --config FILE`: SIGHUP reads the file again with sessions open; a lowered
        /// `ssh-max-per-visitor` turns the next session of the key away while those open go on; a
        /// port changed in the file is said to take a restart; a file that cannot be used is said, and
        /// what runs is kept.
        @Test func aHangUpAppliesTheFileWithEverySessionKept() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-config-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let config = folder.appendingPathComponent("serve.toml")
            try Data("ssh-max-per-visitor = 4\n".utf8).write(to: config)
            let shop = try await SSHShopUnderTest(keys: ["alice"], arguments: "--config \(config.path)")
            for window in ["one", "two"] {
                try await shop.tmux.newWindow(window, shop.ssh(key: "alice", user: "alice") + "; sleep 600")
                try await shop.waitFor("Welcome to FakeNFT", in: window, timeout: 60)
            }
            let server = try await spawned("/usr/bin/pgrep", ["-f", "serve --port \(shop.server.port ?? 0) "]).output
            let pid = try #require(Int32(server.split(separator: "\n").first ?? ""))
            /// Another session of the key, in window `index`: turned away with the limit's words.
            func thirdSessionTurnedAway(in index: Int) async throws {
                try await shop.tmux.newWindow("w\(index)", shop.ssh(key: "alice", user: "alice") + "; sleep 600")
                try await shop.waitFor("EXIT=1", in: "w\(index)", timeout: 60)
                try await shop.waitFor("This key has as many sessions open as it may", in: "w\(index)", timeout: 1)
            }

            try Data("ssh-max-per-visitor = 2\nidle-timeout = 60\n".utf8).write(to: config)
            #expect(kill(pid, SIGHUP) == 0)
            try await eventually("the reload said") {  // its last line
                (try? shop.tmux.file("server.log"))?.contains("cannot change while the server runs") ?? false
            }
            let log = try shop.tmux.file("server.log")
            #expect(log.contains("reloaded \(config.path): applied ssh-max-per-visitor"), "\(log)")
            #expect(log.contains("idle-timeout cannot change while the server runs"), "\(log)")
            try await thirdSessionTurnedAway(in: 8)
            for window in ["one", "two"] {  // the sessions open before the reload go on
                try await shop.tmux.run(["send-keys", "-t", "\(shop.tmux.session):\(window)", "s"])
                try await shop.waitFor("9 collections", in: window, timeout: 30)
            }

            try Data("ssh-max-per-visitor = \"many\"\n".utf8).write(to: config)
            #expect(kill(pid, SIGHUP) == 0)
            try await eventually("the bad file said") {
                (try? shop.tmux.file("server.log"))?.contains("everything kept as it runs") ?? false
            }
            let refusedLog = try shop.tmux.file("server.log")
            #expect(refusedLog.contains("many"), "the file's problem named: \(refusedLog)")
            try await thirdSessionTurnedAway(in: 9)
            #expect(kill(pid, 0) == 0, "the server runs on")
        }

        /// A terminal resized as its session starts (a phone turned while it connects): the app takes
        /// the new size whenever the change came, before the app ran (it was lost then) or after.
        @Test func aResizeAsTheSessionStartsIsTaken() async throws {
            let shop = try await SSHShopUnderTest(keys: ["alice"])
            let tmux = shop.tmux
            try await tmux.type(shop.ssh(key: "alice", user: "alice"))
            try await tmux.resize(width: 60, height: 20)
            try await tmux.waitFor("Welcome to FakeNFT")
            try await tmux.keys("s")
            try await tmux.waitUntil("the catalog drawn 60 wide and 20 high") { screen in
                let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
                let top = lines.first.map { String($0) } ?? ""
                return top.trimmingCharacters(in: .whitespaces).hasSuffix("FakeNFT") && top.count <= 60
                    && screen.contains("9 collections") && lines.prefix(20).contains { $0.contains("q quit") }
            }
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
        }

        /// A client without a terminal (a script's `ssh -tt host < /dev/null`) hears a refusal as one
        /// in a terminal does: the key's session limit in words, status 1 (the end of its input had
        /// closed the channel before the refusal was decided: status 255 and nothing said). A client
        /// let in whose input ends is ended as a shell would be, status 0; the session in the terminal
        /// goes on.
        @Test func aRefusalReachesAClientWithoutATerminal() async throws {
            let shop = try await SSHShopUnderTest(keys: ["alice"], arguments: "--ssh-max-per-visitor 2")
            func visitInTerminal(_ window: String) async throws {
                try await shop.tmux.newWindow(window, shop.ssh(key: "alice", user: "alice") + "; sleep 600")
                try await shop.waitFor("Welcome to FakeNFT", in: window, timeout: 60)
            }
            try await visitInTerminal("one")
            let ended = try await shop.run(["-tt", "alice@127.0.0.1"], key: "alice")
            #expect(ended.status == 0, "\(ended.output)")
            try await visitInTerminal("two")
            let refused = try await shop.run(["-tt", "alice@127.0.0.1"], key: "alice")
            #expect(refused.status == 1, "\(refused.output)")
            #expect(refused.output.contains("has as many sessions open as it may"), "\(refused.output)")
            try await shop.tmux.run(["send-keys", "-t", "\(shop.tmux.session):one", "s"])
            try await shop.waitFor("9 collections", in: "one", timeout: 30)
        }

        /// Twenty visitors in at once, each with a key of their own, all reach the catalog; the one
        /// past the shop's limit is told it is full. They come five at a time (twenty handshakes and
        /// app starts in one moment beside the whole suite on two busy cores could outlast the
        /// handshake's 10 s), and each window stays after its visit ends, showing why.
        @Test func twentyVisitorsAtOnce() async throws {
            let visitors = (1...21).map { "v\($0)" }
            let shop = try await SSHShopUnderTest(
                keys: visitors, arguments: "--ssh-max-sessions 20 --ssh-max-per-visitor 25 --ssh-new-keys-per-hour 30")
            for wave in stride(from: 0, to: 20, by: 5) {
                let arriving = visitors[wave..<wave + 5]
                for visitor in arriving {
                    try await shop.tmux.newWindow(visitor, shop.ssh(key: visitor, user: visitor) + "; sleep 600")
                }
                for visitor in arriving {
                    try await shop.waitFor("Welcome to FakeNFT", in: visitor, timeout: 60)
                    try await shop.tmux.run(["send-keys", "-t", "\(shop.tmux.session):\(visitor)", "s"])
                }
            }
            for visitor in visitors.prefix(20) { try await shop.waitFor("9 collections", in: visitor, timeout: 60) }
            try await shop.tmux.newWindow("v21", shop.ssh(key: "v21", user: "v21") + "; sleep 60")
            try await shop.waitFor("EXIT=1", in: "v21", timeout: 30)
            try await shop.waitFor("The shop is full", in: "v21", timeout: 1)
            #expect(try await shop.appProcesses().count == 20)
        }

        /// What the shop is not: a shell (a command line is one of its own commands, nothing else), a
        /// file server, a tunnel (either way). Each is refused with its reason; a visitor who drops
        /// the connection leaves no app behind.
        @Test func whatItRefusesAndWhatItCleansUp() async throws {
            let shop = try await SSHShopUnderTest()
            let command = try await shop.run(["alice@127.0.0.1", "ls"], key: "alice")
            #expect(command.status == 64 && command.output.contains("'ls' is not a command"), "\(command.output)")
            let noTerminal = try await shop.run(["alice@127.0.0.1"], key: "alice")
            #expect(noTerminal.status == 1 && noTerminal.output.contains("use ssh -t"), "\(noTerminal.output)")
            // A guest (any password, given by SSH_ASKPASS) is no more a shell's user than a key's.
            let askpass = shop.tmux.directory.appendingPathComponent("askpass").path
            try "#!/bin/sh\necho any\n".write(toFile: askpass, atomically: true, encoding: .utf8)
            chmod(askpass, 0o755)
            // OpenSSH takes an option's first value: BatchMode=no before the shared options.
            let guestLine =
                [
                    "SSH_ASKPASS=\(askpass)", "SSH_ASKPASS_REQUIRE=force", "ssh", "-p", "\(shop.sshPort)", "-o",
                    "BatchMode=no",
                ]
                + shop.clientOptions(key: nil) + ["-o", "PubkeyAuthentication=no", "bob@127.0.0.1"]
            let guestCommand = try await spawned(
                "/bin/sh", ["-c", guestLine.joined(separator: " ") + " true < /dev/null"])
            #expect(
                guestCommand.status == 64 && guestCommand.output.contains("'true' is not a command"),
                "\(guestCommand.output)")
            let sftp = try await spawned(
                "/usr/bin/sftp", ["-P", "\(shop.sshPort)"] + shop.clientOptions(key: "alice") + ["alice@127.0.0.1"])
            #expect(sftp.status != 0 && sftp.output.contains("This shop has no sftp"), "\(sftp.output)")
            let forwardPort = try Tmux.freePort()
            let forward = try await shop.run(
                ["-N", "-o", "ExitOnForwardFailure=yes", "-R", "\(forwardPort):127.0.0.1:22", "alice@127.0.0.1"],
                key: "alice")
            #expect(forward.status == 255 && forward.output.contains("forwarding failed"), "\(forward.output)")

            // Local forwarding: the tunnel's channel is refused when something connects through it.
            let tmux = shop.tmux
            let local = try Tmux.freePort()
            let tunnel = (["ssh", "-N", "-p", "\(shop.sshPort)"] + shop.clientOptions(key: "alice")).joined(
                separator: " ")
            try await tmux.newWindow(
                "tunnel", "\(tunnel) -L \(local):127.0.0.1:\(shop.server.port ?? 0) alice@127.0.0.1; sleep 60")
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
}

extension EndToEnd {
    /// What a stranger at the door can and cannot do: mint accounts, freeze a session, start a
    /// program on the server, have their terminal's wishes ignored, or be left on a frozen screen.
    @Suite(.timeLimit(.minutes(5))) struct SSHStrangerEndToEndTests {
        /// Thirty new keys from one address, ten at a time: the first ten make accounts (not listed in
        /// `/users`: they have done nothing), the other twenty are told why not and when to come
        /// back; `/metrics` counts both.
        @Test func aFloodOfNewKeysMakesTenAccounts() async throws {
            let keys = (1...30).map { "k\($0)" }
            let shop = try await SSHShopUnderTest(
                keys: keys, arguments: "--ssh-max-sessions 100 --ssh-max-per-visitor 40")
            let api = APIClient(APIConfiguration(baseURL: shop.server))
            let usersBefore = try await api.users(page: 0, size: 10_000).count
            var outcomes: [(status: Int32, output: String)] = []
            for wave in stride(from: 0, to: 30, by: 10) {
                // Each visit holds its terminal until `timeout` ends it: the first ten are in at once.
                outcomes += try await withThrowingTaskGroup(of: (status: Int32, output: String).self) { group in
                    for key in keys[wave..<wave + 10] {
                        // Its input stays open (an input at its end closes the session) until `timeout` ends it.
                        let visit =
                            (["timeout", "20", "ssh", "-tt", "-p", "\(shop.sshPort)"] + shop.clientOptions(key: key))
                            .joined(separator: " ")
                        group.addTask {
                            try await spawned("/bin/bash", ["-c", "\(visit) \(key)@127.0.0.1 < <(sleep 25)"])
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            let refused = outcomes.filter {
                $0.status == 1 && $0.output.contains("Too many new visitors from your address")
            }
            #expect(refused.count == 20, "\(outcomes.map { "\($0.status): \($0.output.suffix(200))" })")
            #expect(refused.allSatisfy { $0.output.contains("come back in 60 min") })
            // None of the ten has done anything: none is listed among the users.
            let users = try await api.users(page: 0, size: 10_000)
            #expect(users.count == usersBefore)
            let metrics = try await fetchText(shop.server.appendingPathComponent("metrics"))
            #expect(metrics.contains("fakenft_ssh_new_keys_total 10"), "\(metrics)")
            #expect(metrics.contains(#"fakenft_ssh_refusals_total{reason="new_keys"} 20"#))
            #expect(metrics.contains("fakenft_ssh_sessions_started_total 10"))
            // ten apps end and are closed one after another: on a loaded machine that has taken over 20 s
            try await eventually("the ten sessions counted as ended", timeout: .seconds(60)) {
                let metrics = try await fetchText(shop.server.appendingPathComponent("metrics"))
                return metrics.contains(#"fakenft_ssh_sessions_ended_total{reason="left"} 10"#)
                    && metrics.contains("fakenft_ssh_sessions_open 0")
            }
        }

        /// Ctrl-Z does not stop the app of a session (no shell could resume it): the next key acts.
        /// An app stopped from elsewhere is continued at once. Its sign-in's secrets are not in its
        /// environment (which `/proc` shows), yet it is signed in.
        @Test func ctrlZNeverFreezesASession() async throws {
            let shop = try await SSHShopUnderTest(keys: ["alice"])
            let tmux = shop.tmux
            try await tmux.type(shop.ssh(key: "alice", user: "alice"))
            try await tmux.waitFor("Welcome to FakeNFT")
            try await tmux.keys("C-z")
            try await tmux.keys("s")
            try await tmux.waitFor("9 collections")
            let app = try #require(try await shop.appProcesses().first)
            #expect(try processState(app) != "T")
            let environment = try String(contentsOfFile: "/proc/\(app)/environ", encoding: .utf8)
            #expect(!environment.contains("FAKENFT_TOKEN") && !environment.contains("FAKENFT_SSH_SESSION"))
            #expect(environment.contains("FAKENFT_SSH_SECRETS_FD=3"))
            kill(app, SIGSTOP)
            try await tmux.keys("3")
            try await tmux.waitFor(try await shop.fingerprint(of: "alice"))  // signed in with the key's account
            #expect(try processState(app) != "T")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
        }

        /// `o` on a reader shows the address to open on the visitor's machine (and copies it);
        /// nothing is started on the server.
        @Test func aLinkIsShownNotOpenedOnTheServer() async throws {
            let shop = try await SSHShopUnderTest(keys: ["alice"])
            let tmux = shop.tmux
            let api = APIClient(APIConfiguration(baseURL: shop.server))
            let collection = try await api.collectionsInCatalogOrder()[0]
            let author = try await api.user(id: collection.author)
            let website = author.website
            let link = try SafeLink.check(website).get()
            try await tmux.resize(width: 200, height: 30)
            try await PixelStreamEndToEndTests.record(tmux)
            try await tmux.type(shop.ssh(key: "alice", user: "alice"))
            try await tmux.waitFor("Welcome to FakeNFT")
            try await tmux.keys("s")
            try await tmux.waitFor("9 collections")
            try await tmux.keys("Enter")
            try await tmux.waitFor("[+ cart]")  // the collection's grid
            try await tmux.waitFor("Collection author: \(author.name)")  // `a` before it is known finds no page
            // The author's name is an OSC 8 hyperlink to their page: the visitor's terminal opens it.
            let esc = PixelStreamEndToEndTests.esc
            let opened = "\(esc)]8;;\(link)\(esc)\\"
            let named = await PixelStreamEndToEndTests.output(tmux, after: 0, holding: opened + "\(esc)[0;4;")
            #expect(named.contains(opened), "no hyperlink to \(link)")
            #expect(named.components(separatedBy: opened).dropFirst().contains { $0.contains(author.name) })
            let mark = PixelStreamEndToEndTests.output(tmux).utf8.count
            try await tmux.keys("a")
            try await tmux.waitFor(String(website.prefix(40)))
            // So is the page's address at the top of the reader.
            let page = await PixelStreamEndToEndTests.output(tmux, after: mark, holding: opened)
            let linked = page.components(separatedBy: opened).dropFirst().first?.components(separatedBy: "\(esc)]8;;")
                .first
            #expect(linked.map { $0.contains(String(website.prefix(30))) } == true, "\(linked ?? "no link")")
            try await tmux.keys("o")
            let screen = try await tmux.waitFor("Open on your machine")
            #expect(screen.contains(website), "\(screen)")
            let app = try #require(try await shop.appProcesses().first)
            let children = try await spawned("/usr/bin/pgrep", ["-P", "\(app)"])
            #expect(children.output.isEmpty, "the app started \(children.output)")
            try await tmux.keys("q", "q", "q")
            try await tmux.waitFor("EXIT=0")
        }

        /// NO_COLOR sent by the client (SendEnv/SetEnv) gets a screen without colours.
        @Test func theVisitorsNoColorIsTaken() async throws {
            let shop = try await SSHShopUnderTest(keys: ["alice"])
            let tmux = shop.tmux
            for noColor in [false, true] {
                let options = noColor ? "-o SetEnv=NO_COLOR=1" : ""
                try await tmux.type("clear; " + shop.ssh(key: "alice", user: "alice", options: options))
                try await tmux.passWelcome(waitingFor: "9 collections")
                let catalog = try await tmux.waitUntil("the catalog", colors: true) { $0.contains("9 collections") }
                #expect(Self.hasColors(catalog) != noColor, "NO_COLOR \(noColor):\n\(catalog)")
                try await tmux.keys("q")
                try await tmux.waitFor("EXIT=0")
            }
        }

        /// A server stopped under a visitor: the app gives the terminal back (its screen left),
        /// and the visitor reads why the session ended.
        @Test func aServerThatStopsTellsItsVisitors() async throws {
            let shop = try await SSHShopUnderTest(keys: ["alice"])
            let tmux = shop.tmux
            try await tmux.type(shop.ssh(key: "alice", user: "alice"))
            try await tmux.waitFor("Welcome to FakeNFT")
            try await tmux.keys("s")
            try await tmux.waitFor("9 collections")
            #expect(
                try await tmux.run(["display-message", "-p", "-t", tmux.session, "#{alternate_on}"]).hasPrefix("1"))
            _ = try await spawned("/usr/bin/pkill", ["-TERM", "-f", "serve --port \(shop.server.port ?? 0) "])
            let screen = try await tmux.waitFor("EXIT=", timeout: 20)
            #expect(screen.contains("The shop is closing"), "\(screen)")
            #expect(!screen.contains("9 collections"), "the app's screen is left: \(screen)")
            #expect(
                try await tmux.run(["display-message", "-p", "-t", tmux.session, "#{alternate_on}"]).hasPrefix("0"))
        }

        /// A visitor whose only key is RSA (which the server cannot verify) is asked for a password by
        /// their client: any password lets them in as a guest, told how to get an account, with a
        /// cart of their own that lasts the session; no account is listed, and the next guest starts
        /// with an empty cart; `/metrics` counts the guests.
        @Test func anRSAVisitorComesInAsAGuest() async throws {
            let shop = try await SSHShopUnderTest(keys: [])
            let tmux = shop.tmux
            let api = APIClient(APIConfiguration(baseURL: shop.server))
            let usersBefore = try await api.users(page: 0, size: 10_000).count
            let sharedCart = try await api.order().nfts
            let rsa = tmux.directory.appendingPathComponent("rsa_key").path
            let made = try await spawned("/usr/bin/ssh-keygen", ["-q", "-t", "rsa", "-b", "2048", "-N", "", "-f", rsa])
            #expect(made.status == 0)
            // OpenSSH takes an option's first value: BatchMode=no before the shared options.
            let options = (["-o", "BatchMode=no"] + shop.clientOptions(key: nil) + ["-i", rsa]).joined(separator: " ")
            for visit in 1...2 {
                try await tmux.type("clear; ssh -t -p \(shop.sshPort) \(options) rosa@127.0.0.1; echo \"EX\"\"IT=$?\"")
                // The prompt of this visit: the last line (the last visit's is still on screen until `clear`).
                try await tmux.waitUntil("the password prompt") { screen in
                    screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?
                        .hasSuffix("password:") ?? false
                }
                try await tmux.type("anything")
                try await tmux.waitFor("Welcome to FakeNFT", timeout: 60)  // beside other suites' sessions
                try await tmux.keys("s")
                let catalog = try await tmux.waitFor("9 collections")
                #expect(catalog.contains("Guest visit") && catalog.contains("ssh-keygen -t ed25519"), "\(catalog)")
                #expect(!catalog.contains("Cart ["), "visit \(visit): the guest's cart starts empty")
                try await tmux.keys("Enter")
                try await tmux.waitFor("[+ cart]")
                try await tmux.keys("c")
                try await tmux.waitFor("Cart [1]")
                try await tmux.keys("3")  // Profile: the account named as a guest visit, never its address
                let profile = try await tmux.waitFor("this guest visit")
                #expect(!profile.contains("ssh.invalid"), "\(profile)")
                if visit == 1 {  // log out, and on without an account: a fresh guest visit, its cart empty
                    try await tmux.keys("End", "Enter")
                    try await tmux.waitFor("Log out of this guest visit?")
                    try await tmux.keys("y")
                    try await tmux.waitFor("Continue without an account")
                    try await tmux.keys("Escape")
                    let fresh = try await tmux.waitUntil("the guest's tabs again") {
                        $0.contains("this guest visit") && !$0.contains("Continue without")
                    }
                    #expect(!fresh.contains("Cart [") && !fresh.contains("--token"), "\(fresh)")
                }
                try await tmux.keys("q")
                try await tmux.waitFor("EXIT=0")
            }
            #expect(try await api.users(page: 0, size: 10_000).count == usersBefore, "a guest is not listed")
            #expect(try await api.order().nfts == sharedCart, "the shared cart is not the guest's")
            let metrics = try await fetchText(shop.server.appendingPathComponent("metrics"))
            #expect(metrics.contains("fakenft_ssh_guests_total 2"), "\(metrics)")
        }

        /// Whether a screen captured with its escapes sets any colour.
        private static func hasColors(_ screen: String) -> Bool {
            screen.range(
                of: #"\x{1B}\[([0-9]+;)*(3[0-7]|4[0-7]|9[0-7]|38;[25]|48;[25])(;|m)"#, options: .regularExpression)
                != nil
        }
    }
}

/// The state letter of process `pid` (`R`, `S`, `T` for stopped, …).
private func processState(_ pid: Int32) throws -> String {
    let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    guard let close = stat.lastIndex(of: ")") else { throw E2EError("no state in \(stat)") }
    return String(stat[stat.index(close, offsetBy: 2)])
}

/// The body of a GET to `url`.
private func fetchText(_ url: URL) async throws -> String {
    let (data, _) = try await URLSession.shared.data(from: url)
    return String(decoding: data, as: UTF8.self)
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
        var port = try Tmux.freePort()
        while port == sshPort { port = try Tmux.freePort() }  // a port just freed may be given again
        server = try await tmux.startServer(arguments: "--ssh-port \(sshPort) \(arguments)", port: port)
        // The SSH front listens a moment after the API (which startServer waits for): a client
        // sooner is refused, as one was on a busy machine.
        let tmux = tmux
        guard
            await polled(within: .seconds(30), { (try? tmux.file("server.log"))?.contains("shop over SSH") ?? false })
        else { throw E2EError("the shop did not open; server.log:\n\((try? tmux.file("server.log")) ?? "")") }
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
        let servers = try await spawned("/usr/bin/pgrep", ["-f", "serve --port \(server.port ?? 0) "]).output
        var apps: [Int32] = []
        for server in servers.split(separator: "\n") {
            let children = try await spawned("/usr/bin/pgrep", ["-P", String(server)]).output
            apps += children.split(separator: "\n").compactMap { Int32($0) }
        }
        return apps
    }
}
