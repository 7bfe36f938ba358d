import FakeNFTCore
import FakeNFTModels
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing
import FakeNFTTesting
@testable import FakeNFTServer

/// The SSH front's door with OpenSSH's client and a scripted app in place of the shop's (each
/// session runs it as it would run the app: its environment, its secrets on descriptor 3): who
/// the API counts, who comes in when others flooded, what a turned-away visitor reads.
/// Serialized: each runs up to dozens of OpenSSH clients at once against the limits of its front;
/// two such floods on two cores ran one another's waits out.
@Suite(.serialized, .timeLimit(.minutes(5))) struct SSHDoorTests {
    /// A server whose sessions run `script` (bash) as their app.
    struct Door {
        let server: RunningServer
        let folder: URL
        let port: Int

        /// - Parameter before: what is done to the server's store before the server starts.
        init(
            script: String, configure: (inout SSHConfiguration) -> Void = { _ in },
            before: (Store, URL) async throws -> Void = { _, _ in }
        ) async throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("ssh-door-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let app = folder.appendingPathComponent("app.sh")
            try ("#!/bin/bash\n" + script).write(to: app, atomically: true, encoding: .utf8)
            chmod(app.path, 0o755)
            var configuration = ServerConfiguration(
                port: 0, dataDirectory: folder.appendingPathComponent("data"),
                postgresURL: TestStore.isPostgres ? try TestStore.newDatabase() : nil)
            var ssh = SSHConfiguration(host: "127.0.0.1", port: 0, appExecutable: app.path)
            configure(&ssh)
            configuration.ssh = ssh
            let folder = folder
            try await FakeNFTServer.withStore(configuration) { try await before($0, folder) }
            server = try await FakeNFTServer.start(configuration)
            port = try #require(server.sshPort)
        }

        /// A key of its own for `name`.
        func key(_ name: String) async throws -> String {
            let path = folder.appendingPathComponent("key-\(name)").path
            if !FileManager.default.fileExists(atPath: path) {
                _ = try await spawned("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", path])
            }
            return path
        }

        /// A visit with `key` from `source` (an address of 127.0.0.0/8), typing `input` at once (what
        /// is typed before the app runs is kept for it); its output and status.
        func visit(key: String, from source: String, input: String = "", options: String = "")
            async throws -> (status: Int32, output: String)
        {
            try await spawned(
                "/bin/bash",
                [
                    "-c",
                    "TERM=xterm ssh -tt -p \(port) -b \(source) -F /dev/null -o StrictHostKeyChecking=no "
                        + "-o UserKnownHostsFile=/dev/null -o BatchMode=yes -o IdentitiesOnly=yes -i \(key) \(options) "
                        + "visitor@127.0.0.1 < <(printf '\(input)'; sleep 30) 2>&1",
                ])
        }

        func stop() async {
            await server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// The app's requests carry its session's secret: the API counts its visitor's own address,
    /// so five wrong passwords from one visitor lock sign-in for that visitor (and that address),
    /// not for another visitor who comes from elsewhere to another account (every app reaches the
    /// API from loopback: before, the one client of them all was locked).
    @Test func theAPICountsEachVisitorsOwnAddress() async throws {
        let door = try await Door(
            script: #"""
                pass=$(sed -n 's/^FAKENFT_SSH_SESSION=//p' <&3)
                read -r email password
                hostport=${FAKENFT_SERVER#http://}
                for attempt in 1 2 3 4 5 6; do
                  body="email=$email&password=$password"
                  exec 5<>"/dev/tcp/${hostport%:*}/${hostport##*:}"
                  printf 'POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nFakeNFT-SSH-Session: %s\r\n' "$pass" >&5
                  printf 'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n' "${#body}" >&5
                  printf 'Connection: close\r\n\r\n%s' "$body" >&5
                  read -r _ code _ <&5
                  exec 5<&-
                  echo "answer=$code"
                  [ "$password" = "correcthorse1" ] && break
                done
                """#)
        for name in ["anna", "boris"] {
            var signUp = URLRequest(url: door.server.baseURL.appendingPathComponent("api/v1/auth/register"))
            signUp.httpMethod = "POST"
            signUp.httpBody = Data(
                FormEncoding.encode([("name", name), ("email", "\(name)@example.com"), ("password", "correcthorse1")])
                    .utf8)
            #expect((try await URLSession.shared.data(for: signUp).1 as? HTTPURLResponse)?.statusCode == 201)
        }
        let guesser = try await door.visit(
            key: try await door.key("g"), from: "127.0.40.1", input: "anna@example.com guess1234\\n")
        let answers = guesser.output.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("answer=") }
            .map { $0.dropFirst(7).trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(answers == ["401", "401", "401", "401", "401", "429"], "\(guesser.output)")
        let owner = try await door.visit(
            key: try await door.key("o"), from: "127.0.41.1", input: "boris@example.com correcthorse1\\n")
        #expect(owner.output.contains("answer=200"), "another visitor signs in: \(owner.output)")
        await door.stop()
    }

    /// Past the hour's budget of new accounts a new key still comes in, as a guest for this
    /// visit (its app is told so); a flood from one network leaves a newcomer from another in.
    @Test func aFloodLeavesNewcomersIn() async throws {
        let door = try await Door(script: #"echo "guest=${FAKENFT_SSH_GUEST:-none} key=${FAKENFT_SSH_KEY:-none}""#) {
            $0.limits.newKeysPerHour = 1
        }
        // One network: three new keys an hour, whatever its addresses.
        var seen: [String] = []
        for index in 1...4 {
            let visit = try await door.visit(key: try await door.key("n\(index)"), from: "127.0.30.\(index)")
            seen.append(visit.output)
        }
        #expect(seen.prefix(3).allSatisfy { $0.contains("guest=none key=SHA256:") }, "\(seen)")
        #expect(seen[3].contains("Too many new visitors from your network"), "\(seen[3])")
        // Other networks: ten accounts in all (three made above), then new keys are guests for now.
        var outputs: [String] = []
        for index in 1...8 {
            outputs.append(
                try await door.visit(key: try await door.key("m\(index)"), from: "127.0.\(50 + index).1").output)
        }
        #expect(outputs.prefix(7).allSatisfy { $0.contains("guest=none key=SHA256:") }, "\(outputs)")
        #expect(outputs[7].contains("guest=\(SSHSessionVariables.newKeyAsGuest) key=none"), "\(outputs[7])")
        await door.stop()
    }

    /// A key whose account's address another account took (signed up in a look-alike spelling
    /// before addresses were folded) still comes in, to an account of its own at another address.
    @Test func aKeyWhoseAddressIsTakenStillComesIn() async throws {
        let door = try await Door(
            script: #"echo "key=${FAKENFT_SSH_KEY:-none}""#,
            before: { store, folder in
                let key = folder.appendingPathComponent("key-squatted").path
                _ = try await spawned("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", key])
                let listing = try await spawned("/usr/bin/ssh-keygen", ["-l", "-f", key + ".pub"]).output
                let fingerprint = try #require(listing.split(separator: " ").first { $0.hasPrefix("SHA256:") })
                _ = try await store.register(
                    name: "squatter", email: SSHShop.address(of: String(fingerprint)), passwordHash: "bcrypt",
                    tokenHash: "s")
            })
        let visit = try await door.visit(key: try await door.key("squatted"), from: "127.0.70.1")
        #expect(visit.output.contains("key=SHA256:"), "\(visit.output)")
        #expect(!visit.output.contains("cannot open"), "\(visit.output)")
        await door.stop()
    }

    /// A signed-in connection that opens no session is closed; one turned away at the door
    /// reads why; one that asked for port forwarding reads why it was refused.
    @Test func idleConnectionsCloseAndRefusalsSayWhy() async throws {
        let door = try await Door(script: "sleep 1") { $0.limits.maxSessionsPerVisitor = 1 }
        let key = try await door.key("a")
        let started = ContinuousClock.now
        let idle = try await door.visit(key: key, from: "127.0.60.1", options: "-N")
        #expect(idle.status == 255 && ContinuousClock.now - started < .seconds(25), "\(idle)")

        let forwarded = try await door.visit(key: key, from: "127.0.60.2", options: "-R 127.0.0.1:0:127.0.0.1:9")
        #expect(forwarded.output.contains(SSHSessionHandler.noForwarding), "\(forwarded.output)")

        // Two connections are an address's places (twice its sessions): the third is told why.
        let held = try (0..<2).map { _ in try RawConnection(port: door.port) }
        for connection in held { _ = await connection.receive(timeout: 5) { $0.contains("\n") } }
        let turned = try await door.visit(key: key, from: "127.0.0.1")
        #expect(turned.output.contains("Your address has as many connections open as it may"), "\(turned.output)")
        withExtendedLifetime(held) {}
        await door.stop()
    }
    /// Every session's app gets live updates, however many are open: its `/events` stream counts
    /// its session, not the loopback every app comes from (32 streams a client: from the 33rd
    /// session on, every visitor was refused), nor its visitor's network or account, whose
    /// sessions the door already counts (where the operator let one key from one network have 40,
    /// the 33rd on were refused and retried for as long as they lasted).
    @Test func everySessionGetsLiveUpdates() async throws {
        let sessions = 40
        let codes = FileManager.default.temporaryDirectory.appendingPathComponent("ssh-events-\(UUID())")
        try FileManager.default.createDirectory(at: codes, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: codes) }
        let release = codes.appendingPathComponent("release").path
        let door = try await Door(
            script: #"""
                secrets=$(cat <&3)
                pass=$(sed -n 's/^FAKENFT_SSH_SESSION=//p' <<< "$secrets")
                token=$(sed -n 's/^FAKENFT_TOKEN=//p' <<< "$secrets")
                hostport=${FAKENFT_SERVER#http://}
                exec 5<>"/dev/tcp/${hostport%:*}/${hostport##*:}"
                printf 'GET /api/v1/events HTTP/1.1\r\nHost: x\r\nFakeNFT-SSH-Session: %s\r\n' "$pass" >&5
                printf 'X-Practicum-Mobile-Token: %s\r\n\r\n' "$token" >&5
                read -r _ code _ <&5
                echo "$code" > "\#(codes.path)/${pass:0:16}"
                for _ in $(seq 600); do [ -e "\#(release)" ] && break; sleep 0.1; done
                """#
        ) {
            $0.limits.maxSessionsPerVisitor = sessions
        }
        let key = try await door.key("v")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<sessions {
                group.addTask { _ = try await door.visit(key: key, from: "127.0.100.\(1 + index)") }
            }
            let all = await polled(within: .seconds(120)) {
                ((try? FileManager.default.contentsOfDirectory(atPath: codes.path)) ?? []).count >= sessions
            }
            FileManager.default.createFile(atPath: release, contents: nil)
            try await group.waitForAll()
            #expect(all, "every session's stream was answered while all were open")
        }
        let answers = try FileManager.default.contentsOfDirectory(atPath: codes.path).filter { $0 != "release" }
            .map { try String(contentsOf: codes.appendingPathComponent($0), encoding: .utf8) }
        #expect(answers.count == sessions && answers.allSatisfy { $0.hasPrefix("200") }, "\(answers.sorted())")
        await door.stop()
    }
}
