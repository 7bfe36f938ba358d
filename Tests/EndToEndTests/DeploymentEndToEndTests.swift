import FakeNFTCore
import Foundation
import Glibc
import Testing
import FakeNFTTesting
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension EndToEnd {
    /// docs/deploy.md's set-up, for real: two `fakenft serve` processes on one PostgreSQL database
    /// behind nginx with deploy/nginx.conf. (Needs the test cluster `make test` starts.)
    @Suite(.enabled(if: TestStore.cluster != nil, "a PostgreSQL test cluster (make test)"))
    struct DeploymentEndToEndTests {
        /// Two `fakenft serve` processes on one new database, both answering.
        static func twoServers() async throws -> (ServeProcess, ServeProcess) {
            let database = try TestStore.newDatabase()
            let a = try ServeProcess(
                keepReader: false, arguments: ["--database", database, "--trusted-proxy", "127.0.0.1", "--quiet"])
            do {
                try await a.waitUntilAnswering()  // the first one seeds the database
                let b = try ServeProcess(
                    keepReader: false, arguments: ["--database", database, "--trusted-proxy", "127.0.0.1", "--quiet"])
                do {
                    try await b.waitUntilAnswering()
                    return (a, b)
                } catch {
                    b.stop()
                    throw error
                }
            } catch {
                a.stop()
                throw error
            }
        }

        @Test func twoServersBehindNginxBehaveAsOne() async throws {
            let (a, b) = try await Self.twoServers()
            defer {
                a.stop()
                b.stop()
            }
            let nginx = try Nginx(servers: [a.port, b.port])
            defer { nginx.stop() }
            let base = "http://127.0.0.1:\(nginx.port)"
            #expect(try await HTTP.send("GET", base + "/health").status == 200)

            let events = try RawConnection(port: nginx.port)
            events.send("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1:\(nginx.port)\r\n\r\n")
            let (opening, _) = await events.receive(timeout: 10) { $0.contains("event: order") }
            #expect(opening.contains("text/event-stream") && opening.contains("event: order"), "\(opening)")

            // A client's requests go to one server (by its address, here: no token): every read sees
            // the write before it.
            for round in 1...10 {
                #expect(
                    try await HTTP.send("PUT", base + "/api/v1/profile/1", body: "name=Round \(round)").status == 200)
                let (status, body) = try await HTTP.send("GET", base + "/api/v1/profile/1")
                #expect(
                    status == 200 && body.contains("\"name\":\"Round \(round)\""), "round \(round): \(body.prefix(120))"
                )
            }
            // A change through nginx reaches the subscriber through nginx, whichever server it hit.
            #expect(try await HTTP.send("PUT", base + "/api/v1/orders/1", body: "nfts=4,5").status == 200)
            let (stream, _) = await events.receive(timeout: 10) { $0.contains("\"nfts\":[\"4\",\"5\"]") }
            #expect(stream.contains("\"nfts\":[\"4\",\"5\"]"), "the event came through nginx: \(stream.suffix(200))")
            // Image links name nginx's address, which the client used.
            #expect(
                try await HTTP.send("GET", base + "/api/v1/nft/1").body.contains(
                    "http://127.0.0.1:\(nginx.port)/images/"))

            // One server gone: reads go on through the other.
            kill(a.pid, SIGKILL)
            for _ in 1...6 { #expect(try await HTTP.send("GET", base + "/api/v1/profile/1").status == 200) }
            #expect(try await HTTP.send("PUT", base + "/api/v1/profile/1", body: "name=After").status != 500)
        }

        /// Writers change their own account's profile through both servers as fast as they can;
        /// one server is killed with SIGKILL halfway. Every write a client saw acknowledged is in
        /// the database afterwards (a write in flight at the kill may or may not be).
        @Test func killingOneServerUnderLoadLosesNoAcknowledgedWrite() async throws {
            let (a, b) = try await Self.twoServers()
            defer {
                a.stop()
                b.stop()
            }
            var tokens: [String] = []
            for index in 0..<8 {
                let (status, body) = try await HTTP.send(
                    "POST", "http://127.0.0.1:\(b.port)/api/v1/auth/register",
                    body: "name=Writer\(index)&email=writer\(index)@example.com&password=secret-pass-\(index)")
                #expect(status == 201)
                tokens.append(
                    try #require(JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])["token"]
                        as? String
                        ?? "")
            }
            let deadline = ContinuousClock.now + .seconds(3)
            let killAt = ContinuousClock.now + .seconds(1), victim = a.pid
            let killer = Task {
                try await Task.sleep(until: killAt)
                kill(victim, SIGKILL)
            }
            let outcomes = try await withThrowingTaskGroup(of: (token: String, acknowledged: Int, sent: Int).self) {
                group in
                for (index, token) in tokens.enumerated() {
                    let port = index.isMultiple(of: 2) ? a.port : b.port
                    group.addTask {
                        var acknowledged = 0, sent = 0
                        while ContinuousClock.now < deadline {
                            sent += 1
                            guard
                                let (status, _) = try? await HTTP.send(
                                    "PUT", "http://127.0.0.1:\(port)/api/v1/profile/1",
                                    body: "description=w\(sent)", token: token), status == 200
                            else { break }
                            acknowledged = sent
                        }
                        return (token, acknowledged, sent)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            _ = try await killer.value
            // Every writer was acknowledged before the kill (how many depends on the machine's load:
            // beside the rest of the suite, a write through the victim took up to 0.5 s).
            #expect(outcomes.allSatisfy { $0.acknowledged > 0 }, "under load: \(outcomes.map(\.acknowledged))")
            #expect(outcomes.contains { $0.sent > $0.acknowledged }, "the kill cut some writers off")
            for outcome in outcomes {
                let (status, body) = try await HTTP.send(
                    "GET", "http://127.0.0.1:\(b.port)/api/v1/profile/1", token: outcome.token)
                let profile = try #require(JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
                let stored = Int((profile["description"] as? String ?? "").dropFirst()) ?? -1
                #expect(
                    status == 200 && stored >= outcome.acknowledged && stored <= outcome.sent,
                    "acknowledged w\(outcome.acknowledged), sent up to w\(outcome.sent), stored w\(stored)")
            }
        }
    }
}

/// nginx with deploy/nginx.conf, its ports changed to free ones (and the servers' ports).
final class Nginx {
    let port: Int
    /// The shop over SSH's port.
    let sshPort: Int
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "fakenft-nginx-\(UUID().uuidString)")

    /// - Parameter sshServers: the servers' SSH ports (the documented ones when not given).
    init(servers: [Int], sshServers: [Int] = [2223, 2224]) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var config = try String(contentsOf: root.appendingPathComponent("deploy/nginx.conf"), encoding: .utf8)
        port = try freeLoopbackPort()
        config = config.replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)")
        sshPort = try freeLoopbackPort()
        config = config.replacingOccurrences(of: "127.0.0.1:2222", with: "127.0.0.1:\(sshPort)")
        for (documented, actual) in zip([8081, 8082, 2223, 2224], servers + sshServers) {
            config = config.replacingOccurrences(of: "127.0.0.1:\(documented)", with: "127.0.0.1:\(actual)")
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("nginx.conf")
        try config.write(to: file, atomically: true, encoding: .utf8)
        let (status, output) = try spawnAndWait(
            "/usr/sbin/nginx",
            [
                "-p", directory.path, "-c", file.path, "-e", directory.appendingPathComponent("error.log").path,
                "-g", "pid \(directory.path)/nginx.pid; error_log \(directory.path)/error.log;",
            ])
        guard status == 0 else { throw SpawnError(description: "nginx did not start: \(output)") }
    }

    func stop() {
        if let text = try? String(contentsOf: directory.appendingPathComponent("nginx.pid"), encoding: .utf8),
            let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            kill(pid, SIGTERM)
            for _ in 0..<100 where kill(pid, 0) == 0 { usleep(20_000) }
        }
        try? FileManager.default.removeItem(at: directory)
    }
}

/// One request with URLSession (5 s timeout): status and body as text.
enum HTTP {
    static func send(_ method: String, _ url: String, body: String? = nil, token: String? = nil) async throws -> (
        status: Int, body: String
    ) {
        var request = URLRequest(url: URL(string: url)!, timeoutInterval: 5)
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        }
        if let token { request.setValue(token, forHTTPHeaderField: "X-Practicum-Mobile-Token") }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }
}

extension EndToEnd.DeploymentEndToEndTests {
    /// docs/deploy.md's shop over SSH: two servers with one host key on one database behind
    /// nginx's stream module. A like made over SSH through nginx shows over SSH on either server,
    /// each reached with the host key the first visit accepted (one shop, whichever answers); the
    /// visitor is known on each (no onboarding again, the catalog's sort kept).
    @Test func twoShopsBehindNginxAreOne() async throws {
        let tmux = try await Tmux(width: 100, height: 30)
        for (file, comment) in [("host_key", "shop"), ("alice_key", "alice")] {
            let made = try await spawned(
                "/usr/bin/ssh-keygen",
                [
                    "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f",
                    tmux.directory.appendingPathComponent(file).path,
                ])
            #expect(made.status == 0, "\(made.output)")
        }
        let database = try TestStore.newDatabase()
        let sshPorts = [try freeLoopbackPort(), try freeLoopbackPort()]
        let common = [
            "--database", database, "--trusted-proxy", "127.0.0.1", "--quiet", "--ssh-host-key",
            tmux.directory.appendingPathComponent("host_key").path,
        ]
        let a = try ServeProcess(keepReader: false, arguments: common + ["--ssh-port", "\(sshPorts[0])"])
        defer { a.stop() }
        try await a.waitUntilAnswering()  // the first one seeds the database
        let b = try ServeProcess(keepReader: false, arguments: common + ["--ssh-port", "\(sshPorts[1])"])
        defer { b.stop() }
        try await b.waitUntilAnswering()
        let nginx = try Nginx(servers: [a.port, b.port], sshServers: sshPorts)
        defer { nginx.stop() }
        func visit(_ port: Int, hostKeyCheck: String) -> String {
            "ssh -t -p \(port) -F /dev/null -o HostKeyAlias=fakenft-shop -o StrictHostKeyChecking=\(hostKeyCheck) "
                + "-o UserKnownHostsFile=known_hosts -o BatchMode=yes -o IdentitiesOnly=yes -i alice_key "
                + "alice@127.0.0.1; echo \"EX\"\"IT=$?\""
        }

        try await tmux.type(visit(nginx.sshPort, hostKeyCheck: "accept-new"))
        try await tmux.waitFor("Welcome to FakeNFT")
        try await tmux.keys("s")
        try await tmux.waitFor("9 collections")
        try await tmux.keys("Enter")
        let api = APIClient(APIConfiguration(baseURL: URL(string: "http://127.0.0.1:\(a.port)")!))
        let first = try await api.nft(id: try await api.collectionsInCatalogOrder()[0].nfts[0])
        try await tmux.waitFor(first.name)
        try await tmux.keys("l")
        // The like committed (the key's account is listed from then on) before Profile is opened:
        // a profile read racing the like's write once showed no favourite (docs/testing.md).
        try await eventually("the like committed") {
            try await api.users(page: 0, size: 10_000).contains { $0.name == "alice" }
        }
        try await tmux.keys("3")
        try await tmux.waitFor("Favorite NFTs (1)")
        try await tmux.keys("1", "Escape")
        try await tmux.waitFor("9 collections")
        try await tmux.keys("s")
        try await tmux.waitFor("By NFT count")
        try await tmux.keys("1")
        try await tmux.waitFor("9 collections, by name")
        try await tmux.keys("q")
        try await tmux.waitFor("EXIT=0")
        for port in sshPorts {
            try await tmux.type("clear; " + visit(port, hostKeyCheck: "yes"))
            // What the key's app kept (onboarding seen, the sort) is the database's: either
            // server knows the returning visitor.
            let opened = try await tmux.waitUntil("the onboarding or the catalog") {
                $0.contains("Welcome to FakeNFT") || $0.contains("9 collections")
            }
            #expect(!opened.contains("Welcome to FakeNFT"), "onboarding again on port \(port)")
            if opened.contains("Welcome to FakeNFT") { try await tmux.keys("s") }
            try await tmux.waitFor("9 collections, by name")
            try await tmux.keys("3")
            let screen = try await tmux.waitFor("Favorite NFTs (1)")
            #expect(screen.contains("alice"))
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
        }
    }
}
