import FakeNFTCore
import FakeNFTModels
import FakeNFTTesting
import Foundation
import Glibc
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension EndToEnd {
    /// The shop's commands through its two doors, OpenSSH's client (`ssh host cart`, no terminal)
    /// and the local binary (`fakenft nft 1 --server URL`): statuses, stdout and stderr apart, and
    /// every figure against the API over HTTP.
    @Suite(.timeLimit(.minutes(5))) struct CommandsEndToEndTests {
        /// A key's first command that needs an account makes it; its cart is its own (the shared
        /// profile's is untouched); a mistyped command, a guest's write and a 5 KB line are refused
        /// with their reasons and statuses; each command is counted by name and status.
        @Test func commandsOverSSHAnswerAsTheAPIDoes() async throws {
            let shop = try await SSHShopUnderTest()
            let collections = try await decoded([NFTCollection].self, shop.server, "collections")
            let listed = try await shop.command("collections --json", key: "alice")
            #expect(listed.status == 0 && listed.stderr.isEmpty, "\(listed.stderr)")
            #expect(try JSONDecoder().decode([NFTCollection].self, from: Data(listed.stdout.utf8)) == collections)

            let nft = try await decoded(NFT.self, shop.server, "nft/1")
            let shown = try await shop.command("nft 1", key: "alice")
            #expect(shown.stdout.contains("name\t\(nft.name)\n"), "plain lines without a terminal: \(shown.stdout)")

            let shared = try await decoded(Order.self, shop.server, "orders/1").nfts
            let added = try await shop.command("cart add 1 2", key: "alice")
            #expect(added.status == 0, "\(added.stderr)")
            let cart = try await shop.command("cart --json", key: "alice")
            #expect(try JSONDecoder().decode(Order.self, from: Data(cart.stdout.utf8)).nfts == ["1", "2"])
            #expect(
                try await decoded(Order.self, shop.server, "orders/1").nfts == shared, "the shared cart is not alice's")
            let bobs = try await shop.command("cart --json", key: "bob")
            #expect(try JSONDecoder().decode(Order.self, from: Data(bobs.stdout.utf8)).nfts.isEmpty)

            let typo = try await shop.command("crat", key: "alice")
            #expect(typo.status == 64 && typo.stdout.isEmpty && typo.stderr.contains("did you mean 'cart'"))
            let guest = try await shop.command("cart add 3", key: nil)
            #expect(guest.status == 1 && guest.stderr.contains("needs an account"), "\(guest.stderr)")
            let guestReads = try await shop.command("nft 1 --json", key: nil)
            #expect(guestReads.status == 0)
            #expect(try JSONDecoder().decode(NFT.self, from: Data(guestReads.stdout.utf8)) == nft)
            let long = try await shop.command("search " + String(repeating: "a", count: 5_000), key: "alice")
            #expect(long.status == 1 && long.stderr.contains("at most 4 KB"), "\(long.stderr)")

            let metrics = try await String(
                decoding: URLSession.shared.data(from: shop.server.appendingPathComponent("metrics")).0, as: UTF8.self)
            #expect(metrics.contains(#"fakenft_ssh_commands_total{command="cart add",status="0"} 1"#), "\(metrics)")
            #expect(metrics.contains(#"fakenft_ssh_commands_total{command="unknown",status="64"} 1"#))
            #expect(metrics.contains(#"fakenft_ssh_commands_total{command="refused",status="1"} 1"#))
        }

        /// Ten commands at once over one connection (OpenSSH's `ControlMaster`: ten session
        /// channels), each answered with its own NFT.
        @Test func tenCommandsOverOneConnection() async throws {
            let shop = try await SSHShopUnderTest()
            let socket = shop.tmux.directory.appendingPathComponent("cm").path
            let options = (["-p", "\(shop.sshPort)"] + shop.clientOptions(key: "alice")).joined(separator: " ")
            let master = try await spawned(
                "/bin/sh",
                [
                    "-c",
                    "ssh \(options) -o ControlMaster=yes -o ControlPath=\(socket) -o ControlPersist=60 -N -f "
                        + "alice@127.0.0.1",
                ])
            #expect(master.status == 0, "\(master.output)")
            let folder = shop.tmux.directory.path
            let each = (1...10).map {
                "ssh \(options) -o ControlMaster=no -o ControlPath=\(socket) alice@127.0.0.1 nft \($0) --json "
                    + "> \(folder)/nft-\($0).json &"
            }
            let all = try await spawned("/bin/sh", ["-c", each.joined(separator: "\n") + "\nwait"])
            #expect(all.status == 0, "\(all.output)")
            for id in 1...10 {
                let printed = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/nft-\(id).json"))
                #expect(
                    try JSONDecoder().decode(NFT.self, from: printed)
                        == (try await decoded(NFT.self, shop.server, "nft/\(id)")))
            }
            _ = try await spawned("/bin/sh", ["-c", "ssh -o ControlPath=\(socket) -O exit alice@127.0.0.1"])
        }

        /// A token minted over SSH opens the key's account over HTTP (curl) and for the local binary
        /// (`--token`) until it is revoked; a second key is linked (Profile lists both) and the first
        /// unlinked, but never the account's last; a guest mints nothing.
        @Test func tokensAndKeysOfAKeyAccount() async throws {
            let shop = try await SSHShopUnderTest(keys: ["alice", "laptop"])
            #expect(try await shop.command("profile set --name Alice", key: "alice").status == 0)
            let minted = try await shop.command("token create --name ci --json", key: "alice")
            #expect(minted.status == 0, "\(minted.stderr)")
            let created = try #require(
                try JSONSerialization.jsonObject(with: Data(minted.stdout.utf8)) as? [String: Any])
            let token = try #require(created["token"] as? String), id = try #require(created["id"] as? String)
            let folder = shop.tmux.directory.path
            let curl = try await runCommand(
                "curl -s -H 'X-Practicum-Mobile-Token: \(token)' \(shop.server.absoluteString)/api/v1/profile/1",
                in: folder)
            #expect(try JSONDecoder().decode(Profile.self, from: Data(curl.stdout.utf8)).name == "Alice", "\(curl)")
            let local = try await runCommand(
                "\(Tmux.binary) profile --server \(shop.server.absoluteString) --token \(token)", in: folder)
            #expect(local.status == 0 && local.stdout.hasPrefix("name\tAlice\n"), "\(local)")
            let listed = try await shop.command("token list", key: "alice")
            #expect(listed.stdout.hasPrefix("\(id)\tci\t") && !listed.stdout.contains(token))
            #expect(try await shop.command("token revoke \(id)", key: "alice").status == 0)
            let refused = try await runCommand(
                "\(Tmux.binary) profile --server \(shop.server.absoluteString) --token \(token)", in: folder)
            #expect(refused.status == 1 && refused.stderr.contains("refused"), "\(refused)")
            let guest = try await shop.command("token create", key: nil)
            #expect(guest.status == 1 && guest.stderr.contains("needs an account"))

            let alice = try await shop.fingerprint(of: "alice"), laptop = try await shop.fingerprint(of: "laptop")
            let last = try await shop.command("keys remove \(alice)", key: "alice")
            #expect(last.status == 1 && last.stderr.contains("last key"), "\(last.stderr)")
            let publicKey = try String(contentsOfFile: "\(folder)/laptop_key.pub", encoding: .utf8)
            #expect(try await shop.command("keys add \(publicKey)", key: "alice").status == 0)
            let keys = try await shop.command("keys", key: "laptop")
            #expect(keys.stdout.contains(alice) && keys.stdout.contains(laptop), "the laptop opens alice's account")
            // Profile lists the same keys, the one this session came in with marked.
            let ssh = (["ssh", "-t", "-p", "\(shop.sshPort)"] + shop.clientOptions(key: "laptop")).joined(
                separator: " ")
            try await shop.tmux.type("\(ssh) laptop@127.0.0.1")
            _ = try await shop.tmux.passWelcome(waitingFor: "1 Catalog")
            try await shop.tmux.keys("3")
            _ = try await shop.tmux.waitFor("SSH keys (2)")
            try await shop.tmux.keys("Down", "Down", "Down", "Enter")
            let screen = try await shop.tmux.waitFor("this session's key")
            let lines = screen.split(separator: "\n")
            let laptopLine = try #require(lines.firstIndex { $0.contains(laptop) }, "\(screen)")
            #expect(lines.contains { $0.contains(alice) }, "\(screen)")
            #expect(lines[laptopLine + 1].contains("this session's key"), "\(screen)")
            try await shop.tmux.keys("q")
            #expect(try await shop.command("keys remove \(alice)", key: "laptop").status == 0)
            #expect(try await shop.command("profile", key: "laptop").stdout.hasPrefix("name\tAlice\n"))
        }

        /// Past its commands a minute a key is refused, told when to come back; another key is not.
        @Test func commandsHaveARateLimitOfTheirOwn() async throws {
            let shop = try await SSHShopUnderTest(arguments: "--ssh-commands-per-minute 3")
            for _ in 1...3 { #expect(try await shop.command("nft 1", key: "alice").status == 0) }
            let refused = try await shop.command("nft 1", key: "alice")
            #expect(
                refused.status == 1 && refused.stderr.contains("Too many commands: come back in"), "\(refused.stderr)")
        }

        /// A command that names a screen, on a terminal, opens the app there (Esc back to its tab):
        /// `fakenft nft 5` locally, and `ssh -t host user ID` over SSH; with `--json` it prints.
        @Test func aCommandOnATerminalOpensItsScreen() async throws {
            let shop = try await SSHShopUnderTest()
            let tmux = shop.tmux
            let nft = try await decoded(NFT.self, shop.server, "nft/5")
            try await tmux.launchApp(
                "nft 5 --server \(shop.server.absoluteString)", waitingFor: "Catalog › \(nft.name)")
            var screen = try await tmux.waitFor("Price: \(String(format: "%.2f", nft.price)) ETH")
            #expect(screen.contains("1 Catalog"))
            #expect(screen.contains("Link: fakenft --server \(shop.server.absoluteString) nft 5"), "\(screen)")
            try await tmux.keys("Escape")
            screen = try await tmux.waitFor("9 collections")
            #expect(!screen.contains("Catalog › \(nft.name)"))
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")

            let user = try await decoded([User].self, shop.server, "users?sortBy=rating&order=desc")[0]
            let ssh = (["ssh", "-t", "-p", "\(shop.sshPort)"] + shop.clientOptions(key: "alice")).joined(separator: " ")
            try await tmux.type("\(ssh) alice@127.0.0.1 user \(user.id)")
            screen = try await tmux.passWelcome(waitingFor: "Statistics › \(user.name)")
            try await tmux.keys("Escape")
            _ = try await tmux.waitFor("4 Statistics")
            let printed = try await runCommand(
                "\(Tmux.binary) nft 5 --json --server \(shop.server.absoluteString)", in: tmux.directory.path)
            #expect(
                try JSONDecoder().decode(NFT.self, from: Data(printed.stdout.utf8)) == nft, "not a terminal: printed")
        }

        /// The local binary against a server: the same table, statuses and JSON; and on its own data.
        @Test func theLocalBinaryRunsTheSameCommands() async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            let server = try await tmux.startServer()
            let local = { (line: String) in
                try await runCommand(
                    "\(Tmux.binary) \(line) --server \(server.absoluteString)", in: tmux.directory.path)
            }
            let nft = try await decoded(NFT.self, server, "nft/1")
            let shown = try await local("nft 1 --json")
            #expect(shown.status == 0)
            #expect(try JSONDecoder().decode(NFT.self, from: Data(shown.stdout.utf8)) == nft)
            #expect(try await local("cart clear").status == 0)
            #expect(try await local("cart add 4").status == 0)
            #expect(try await decoded(Order.self, server, "orders/1").nfts == ["4"])
            let missing = try await local("nft 424242")
            #expect(missing.status == 1 && missing.stdout.isEmpty && missing.stderr.hasPrefix("fakenft: not found"))
            let typo = try await local("crat")
            #expect(typo.status == 64 && typo.stderr.contains("did you mean 'cart'"))
            let offline = try await runCommand(
                "\(Tmux.binary) nft 1 --server http://127.0.0.1:\(try Tmux.freePort())", in: tmux.directory.path)
            #expect(offline.status == 1 && offline.stderr.contains("Can't reach the server"), "\(offline.stderr)")
            // On the embedded data no server outlives the command: pictures link where the data set has them.
            let embedded = try await runCommand(
                "\(Tmux.binary) nft 1 --json --data \(tmux.directory.path)/embedded", in: tmux.directory.path)
            let pictures = try JSONDecoder().decode(NFT.self, from: Data(embedded.stdout.utf8)).images
            #expect(!pictures.isEmpty && pictures.allSatisfy { $0.hasPrefix("https://") }, "\(pictures)")
        }
    }
}

/// What a shell line printed on stdout and stderr, apart, and its exit status.
func runCommand(_ line: String, in folder: String) async throws -> (status: Int32, stdout: String, stderr: String) {
    let name = UUID().uuidString, out = "\(folder)/\(name).out", err = "\(folder)/\(name).err"
    let ran = try await spawned("/bin/sh", ["-c", "\(line) > \(out) 2> \(err) < /dev/null"])
    defer {
        unlink(out)
        unlink(err)
    }
    return (
        ran.status, (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
        (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
    )
}

/// `GET /api/v1/path` over HTTP, read as `T`.
private func decoded<T: Decodable>(_ type: T.Type, _ server: URL, _ path: String) async throws -> T {
    let (data, _) = try await URLSession.shared.data(from: URL(string: server.absoluteString + "/api/v1/" + path)!)
    return try JSONDecoder().decode(T.self, from: data)
}

extension SSHShopUnderTest {
    /// `ssh host <line>` without a terminal with `key` (nil: a guest, with any password).
    func command(_ line: String, key: String?) async throws -> (status: Int32, stdout: String, stderr: String) {
        let folder = tmux.directory.path
        var prefix = ""
        var options = ["-p", "\(sshPort)", "-o", "LogLevel=ERROR"]  // the banner and warnings left out of stderr
        if key == nil {
            let askpass = "\(folder)/askpass"
            try "#!/bin/sh\necho any\n".write(toFile: askpass, atomically: true, encoding: .utf8)
            chmod(askpass, 0o755)
            prefix = "SSH_ASKPASS=\(askpass) SSH_ASKPASS_REQUIRE=force "
            options += ["-o", "BatchMode=no"]  // OpenSSH takes an option's first value
        }
        options += clientOptions(key: key) + (key == nil ? ["-o", "PubkeyAuthentication=no"] : [])
        let quoted = "'" + line.replacingOccurrences(of: "'", with: "'\\''") + "'"
        return try await runCommand(
            prefix + "ssh " + options.joined(separator: " ") + " \(key ?? "guest")@127.0.0.1 \(quoted)", in: folder)
    }
}
