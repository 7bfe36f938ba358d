import FakeNFTCore
import Foundation
import Testing
import FakeNFTTesting
@testable import FakeNFTServer

/// Where several servers share their data: one SQLite file (two app windows on one data
/// folder, each with its embedded server, or `fakenft serve` beside them) or one PostgreSQL
/// database (the test cluster of scripts/with-postgres.sh, which `make test` starts).
enum SharedData: CustomTestStringConvertible {
    case sqliteFile, postgres

    static var available: [SharedData] {
        [.sqliteFile] + (TestStore.cluster != nil && !TestStore.isPostgres ? [.postgres] : [])
    }

    var testDescription: String { self == .sqliteFile ? "one SQLite file" : "one PostgreSQL database" }

    /// Starts a server on the data `place` names (a folder, or a database's address).
    func start(_ place: String) async throws -> TestServer {
        switch self {
        case .sqliteFile: try await TestServer.start(dataDirectory: URL(fileURLWithPath: place))
        case .postgres: try await TestServer.start(postgresURL: place)
        }
    }

    /// A new place for data.
    func newPlace() throws -> String {
        switch self {
        case .sqliteFile:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fakenft-\(UUID())")
            // the PostgreSQL run gives each data folder a database: made here, once, before servers start together
            if TestStore.isPostgres { _ = try TestStore.database(for: folder) }
            return folder.path
        case .postgres: return try TestStore.newDatabase()
        }
    }
}

/// A client of several servers that sends back the newest generation any of them answered
/// (`FakeNFT-Generation`), so it reads its own writes through whichever server it asks.
actor GenerationClient {
    private(set) var generation: Int?
    var token: String?

    init(token: String? = nil) { self.token = token }

    func signIn(_ token: String?) { self.token = token }

    func request(_ server: TestServer, _ method: String, _ path: String, body: String? = nil) async throws
        -> (status: Int, body: Data)
    {
        var headers: [String: String] = [:]
        if let generation { headers["FakeNFT-Generation"] = String(generation) }
        if let token { headers["X-Practicum-Mobile-Token"] = token }
        let answer = try await server.exchange(
            method, path, body: body, contentType: body.map { _ in "application/x-www-form-urlencoded" },
            headers: headers)
        if let seen = answer.headers["fakenft-generation"].flatMap(Int.init) {
            generation = max(generation ?? 0, seen)
        }
        return (answer.status, answer.body)
    }

    func get<T: Decodable>(_ server: TestServer, _ path: String, as type: T.Type = T.self) async throws -> T {
        let (status, data) = try await request(server, "GET", path)
        guard status == 200 else {
            throw SpawnError(description: "GET \(path) -> \(status): \(String(decoding: data, as: UTF8.self))")
        }
        return try JSONDecoder().decode(T.self, from: data)
    }
}

/// Several servers on one database behave as one: what one acknowledges, the other reads for
/// every client that saw it (docs/server.md), and sends to its event subscribers.
@Suite(.timeLimit(.minutes(5))) struct SeveralServersTests {
    /// Runs `body` with two servers on new shared data (at `place`, when given).
    func withTwoServers(
        on data: SharedData, at place: String? = nil, _ body: (TestServer, TestServer) async throws -> Void
    ) async throws {
        let place = try place ?? data.newPlace()
        let first = try await data.start(place)
        let second: TestServer
        do { second = try await data.start(place) } catch {
            await first.stop()
            throw error
        }
        do { try await body(first, second) } catch {
            await first.stop()
            await second.stop()
            throw error
        }
        await first.stop()
        await second.stop()
    }

    /// A client that wrote through one server reads its write through the other at once, when it
    /// sends back the generation it was answered: the other waits for the change to arrive.
    @Test(arguments: SharedData.available) func whatOneAcknowledgesTheOtherReadsForTheClientThatWroteIt(
        _ data: SharedData
    ) async throws {
        try await withTwoServers(on: data) { a, b async throws in
            let client = GenerationClient()
            for round in 1...20 {
                #expect(
                    try await client.request(a, "PUT", "/api/v1/profile/1", body: "name=Round \(round)&likes=\(round)")
                        .status == 200)
                let profile: Profile = try await client.get(b, "/api/v1/profile/1")
                #expect(profile.name == "Round \(round)" && profile.likes == ["\(round)"])
                #expect(try await client.request(b, "PUT", "/api/v1/orders/1", body: "nfts=\(round)").status == 200)
                #expect(try await client.get(a, "/api/v1/orders/1", as: Order.self).nfts == ["\(round)"])
            }
            // A sign-up on one is signed in on the other; its purchase there shows in the first's /users.
            let (status, body) = try await client.request(
                a, "POST", "/api/v1/auth/register",
                body: "name=Anna&email=anna%40example.com&password=correct%20horse%201")
            #expect(status == 201)
            let anna = try JSONDecoder().decode(AccountTests.SignedIn.self, from: body)
            await client.signIn(anna.token)
            #expect(try await client.request(b, "GET", "/api/v1/auth/session").status == 200)
            #expect(try await client.request(b, "PUT", "/api/v1/orders/1", body: "nfts=1,2").status == 200)
            #expect(try await client.request(b, "GET", "/api/v1/orders/1/payment/1").status == 200)
            let owned: User = try await client.get(a, "/api/v1/users/\(anna.userId)")
            let nfts: [NFT] = try await [a.get("/api/v1/nft/1"), a.get("/api/v1/nft/2")]
            #expect(owned.nfts == ["1", "2"] && owned.rating == String(Int(nfts.map(\.price).reduce(0, +).rounded())))
            // Signed out on the first: refused on the second.
            #expect(try await client.request(a, "POST", "/api/v1/auth/logout").status == 204)
            #expect(try await client.request(b, "GET", "/api/v1/profile/1").status == 401)
        }
    }

    /// Sign-ins and sign-outs through one server hold on the other for the tokens they name, and
    /// only for those: each server takes in the sign-ins of the accounts whose sign-ins changed.
    @Test(arguments: SharedData.available) func signInsAndSignOutsThroughOneHoldOnTheOther(_ data: SharedData)
        async throws
    {
        try await withTwoServers(on: data) { a, b async throws in
            let client = GenerationClient()
            func signIn(_ server: TestServer, _ path: String, _ name: String, _ email: String) async throws -> String {
                let (status, body) = try await client.request(
                    server, "POST", path, body: "name=\(name)&email=\(email)&password=correct%20horse%201")
                #expect(status == 200 || status == 201, "\(path): \(status)")
                return try JSONDecoder().decode(AccountTests.SignedIn.self, from: body).token
            }
            /// Each token's answer to `GET /profile/1` through `server`.
            func statuses(_ server: TestServer, _ tokens: [String]) async throws -> [Int] {
                var statuses: [Int] = []
                for token in tokens {
                    await client.signIn(token)
                    statuses.append(try await client.request(server, "GET", "/api/v1/profile/1").status)
                }
                return statuses
            }
            let laptop = try await signIn(a, "/api/v1/auth/register", "Anna", "anna%40example.com")
            let phone = try await signIn(b, "/api/v1/auth/login", "Anna", "anna%40example.com")
            let boris = try await signIn(a, "/api/v1/auth/register", "Boris", "boris%40example.com")
            #expect(try await statuses(b, [laptop, phone, boris]) == [200, 200, 200])
            await client.signIn(laptop)
            #expect(try await client.request(a, "POST", "/api/v1/auth/logout").status == 204)
            #expect(try await statuses(b, [laptop, phone, boris]) == [401, 200, 200])
            let borisAgain = try await signIn(b, "/api/v1/auth/login", "Boris", "boris%40example.com")
            #expect(try await statuses(a, [boris, borisAgain]) == [200, 200])
            await client.signIn(phone)
            #expect(try await client.request(b, "POST", "/api/v1/auth/logout-all").status == 204)
            #expect(try await statuses(a, [laptop, phone, boris, borisAgain]) == [401, 401, 200, 200])
        }
    }

    /// A client that sends no generation reads from the server's memory as it is: another
    /// server's change arrives within the change feed's delay, and a token signed in through
    /// another server a moment ago is found in the database.
    @Test(arguments: SharedData.available) func aReaderThatSendsNothingSeesOtherServersChangesSoon(
        _ data: SharedData
    ) async throws {
        try await withTwoServers(on: data) { a, b async throws in
            let anna = try await AccountTests.register(a, "Anna", "anna@example.com")
            #expect(
                try await AccountTests.get(b, "/api/v1/profile/1", token: anna.token, as: Profile.self).name == "Anna")
            let events = try EventTests.Subscription(b)
            #expect(await events.waitFor("event: profile\ndata: {\"version\":1,"))
            #expect(try await a.request("PUT", "/api/v1/profile/1", body: "name=Soon").status == 200)
            #expect(
                await events.waitFor("event: profile\ndata: {\"version\":2,"), "the change arrived through the feed")
            #expect(try await b.get("/api/v1/profile/1", as: Profile.self).name == "Soon")
        }
    }

    /// What a client sends as a generation is checked: not a number is a 400; one no server
    /// answered yet is waited for a moment, then the database is asked and the model served.
    @Test func aGenerationSentIsChecked() async throws {
        try await TestServer.with { server async throws in
            for bad in ["x", "-1", "1e3", String(repeating: "9", count: 19), ""] {
                let answer = try await server.exchange("GET", "/api/v1/profile/1", headers: ["FakeNFT-Generation": bad])
                #expect(answer.status == 400, "\(bad)")
            }
            let answer = try await server.exchange(
                "GET", "/api/v1/profile/1", headers: ["FakeNFT-Generation": "999999999999"])
            #expect(answer.status == 200 && answer.headers["fakenft-generation"].flatMap(Int.init) != nil)
            #expect(try await server.exchange("GET", "/health").headers["fakenft-generation"] == nil)
        }
    }

    @Test(arguments: SharedData.available) func aChangeThroughOneReachesTheOthersSubscribers(_ data: SharedData)
        async throws
    {
        try await withTwoServers(on: data) { a, b async throws in
            let events = try EventTests.Subscription(b)
            #expect(await events.waitFor("event: order\ndata: {\"version\":1,"))
            #expect(try await a.request("PUT", "/api/v1/orders/1", body: "nfts=5,6").status == 200)
            #expect(await events.waitFor("{\"version\":2,\"order\":{\"id\":\"1\",\"nfts\":[\"5\",\"6\"]}}"))
            #expect(try await a.request("PUT", "/api/v1/profile/1", body: "likes=9").status == 200)
            #expect(await events.waitFor("event: profile\ndata: {\"version\":2,"))
        }
    }

    /// Each request changes a different field of the same profile, through either server, at
    /// the same time: every one is kept.
    @Test(arguments: SharedData.available) func concurrentWritesThroughBothLoseNothing(_ data: SharedData)
        async throws
    {
        try await withTwoServers(on: data) { a, b async throws in
            let client = GenerationClient()
            for round in 0..<10 {
                let bodies = [
                    "name=N\(round)", "description=D\(round)", "website=https://w\(round).example",
                    "avatar=https://a\(round).example/a.png", "likes=\(round + 1)",
                ]
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for (index, body) in bodies.enumerated() {
                        let server = index.isMultiple(of: 2) ? a : b
                        group.addTask {
                            try await client.request(server, "PUT", "/api/v1/profile/1", body: body).status
                        }
                    }
                    for try await status in group { #expect(status == 200) }
                }
                for server in [a, b] {
                    let profile: Profile = try await client.get(server, "/api/v1/profile/1")
                    #expect(
                        profile.name == "N\(round)" && profile.description == "D\(round)"
                            && profile.website == "https://w\(round).example")
                    #expect(profile.avatar == "https://a\(round).example/a.png" && profile.likes == ["\(round + 1)"])
                }
            }
        }
    }

    /// A server whose own idea of an owner's rows is old (the other changed them since) judges
    /// a change on the rows as they are: an If-Match of the newest version is taken, an older
    /// one refused, and nothing the other wrote is lost.
    @Test(arguments: SharedData.available) func aChangeIsJudgedOnTheRowsAsTheyAre(_ data: SharedData) async throws {
        try await withTwoServers(on: data) { a, b async throws in
            #expect(try await a.request("PUT", "/api/v1/profile/1", body: "likes=1").status == 200)
            let old = try #require(try await a.exchange("GET", "/api/v1/profile/1").headers["etag"])
            let changed = try await b.exchange(
                "PUT", "/api/v1/profile/1", body: "likes=1,2", headers: ["If-Match": old])
            let newest = try #require(changed.headers["etag"])
            #expect(changed.status == 200 && newest != old)
            let stale = try await a.exchange("PUT", "/api/v1/profile/1", body: "likes=3", headers: ["If-Match": old])
            #expect(stale.status == 412)
            let taken = try await a.exchange(
                "PUT", "/api/v1/profile/1", body: "likes=1,2,3", headers: ["If-Match": newest])
            #expect(taken.status == 200)
            #expect(try await b.request("PUT", "/api/v1/orders/1", body: "nfts=4").status == 200)
            #expect(try await a.request("PUT", "/api/v1/profile/1", body: "name=Both").status == 200)
            let client = GenerationClient()
            _ = try await client.request(a, "GET", "/api/v1/profile/1")
            let profile: Profile = try await client.get(b, "/api/v1/profile/1")
            #expect(profile.likes == ["1", "2", "3"] && profile.name == "Both")
            #expect(try await client.get(a, "/api/v1/orders/1", as: Order.self).nfts == ["4"])
        }
    }

    /// A database that stops answering makes requests a prompt 503 within the address's
    /// `query_timeout` (what never changes is still served from memory), and the server answers
    /// again once it is back.
    @Test(.enabled(if: SharedData.available.contains(.postgres), "a PostgreSQL test cluster (make test)"))
    func aDatabaseThatStopsAnsweringGivesA503NotAHang() async throws {
        let database = try TestStore.newDatabase(queryTimeoutSeconds: 3), cluster = try #require(TestStore.cluster)
        let name = TestStore.name(of: database)
        try await TestServer.with(postgresURL: database) { server async throws in
            #expect(try await server.request("GET", "/api/v1/profile/1").status == 200)
            _ = try TestStore.rows(cluster, "ALTER DATABASE \(name) ALLOW_CONNECTIONS false")
            _ = try TestStore.rows(
                cluster, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)'")
            let started = ContinuousClock.now
            let answer = try await server.exchange("PUT", "/api/v1/profile/1", body: "name=Lost")
            #expect(answer.status == 503 && answer.headers["retry-after"] == "2", "\(answer.status)")
            let waited = ContinuousClock.now - started
            #expect(waited >= .seconds(3) && waited < .seconds(7), "within the 3 s query_timeout: \(waited)")
            #expect(try await server.request("GET", "/api/v1/nft/1").status == 200, "from memory")
            #expect(try await server.request("GET", "/health").status == 503)
            _ = try TestStore.rows(cluster, "ALTER DATABASE \(name) ALLOW_CONNECTIONS true")
            #expect(
                try await polled(every: .milliseconds(500), within: .seconds(30)) {
                    try await server.request("PUT", "/api/v1/profile/1", body: "name=Back").status == 200
                }, "answering again once the database is back")
            #expect(try await server.get("/api/v1/profile/1", as: Profile.self).name == "Back")
        }
    }

    /// Servers started together on new data migrate and seed it once: a change made through the
    /// first is read by the others.
    @Test(arguments: SharedData.available) func serversStartingTogetherSeedOnce(_ data: SharedData) async throws {
        let place = try data.newPlace()
        let servers = try await withThrowingTaskGroup(of: TestServer.self) { group in
            for _ in 0..<3 { group.addTask { try await data.start(place) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let client = GenerationClient()
        #expect(try await client.request(servers[0], "PUT", "/api/v1/orders/1", body: "nfts=7").status == 200)
        for server in servers {
            #expect(try await server.get("/api/v1/collections", as: [NFTCollection].self).count == 9)
            #expect(try await client.get(server, "/api/v1/orders/1", as: Order.self).nfts == ["7"])
            await server.stop()
        }
        guard data == .postgres else { return }
        #expect(try TestStore.rows(place, "SELECT COUNT(*) FROM nft") == [["95"]])
        #expect(
            try TestStore.rows(place, "SELECT name FROM schema_migrations ORDER BY name") == [
                ["v1"], ["v10-ssh-keys"], ["v11-ssh-visitor-state"], ["v12-unlisted-users"], ["v13-paid-orders"],
                ["v14-account-kinds"], ["v15-usage-counts"], ["v16-accounts-as-changes"], ["v17-named-tokens"],
                ["v2-versions"],
                ["v3-accounts"], ["v4-changes"], ["v5-session-use"],
                ["v7-change-notifies-its-rows"], ["v8-changes-in-batches"], ["v9-changes-as-rows"],
            ])
        #expect(
            try TestStore.rows(
                place, "SELECT proname, pronargs FROM pg_proc WHERE proname LIKE 'fakenft_change%' ORDER BY proname")
                == [["fakenft_changes", "3"]],
            "v9's change function alone: v7's and v8's dropped")
    }

    /// A database migrated by an earlier version has `v6-change-in-one-call`'s function (one
    /// argument fewer): v7 drops it, v9 drops v7's and v8's, so one change function remains, and
    /// changes work.
    @Test(.enabled(if: SharedData.available.contains(.postgres), "a PostgreSQL test cluster (make test)"))
    func laterMigrationsReplaceTheChangeFunctionOfV6() async throws {
        let place = try SharedData.postgres.newPlace()
        try await SharedData.postgres.start(place).stop()
        let v6Signature =
            "TEXT, BIGINT, BIGINT, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, TEXT, BIGINT, DOUBLE PRECISION, "
            + "TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, TEXT, BOOLEAN, BIGINT, TEXT"
        _ = try TestStore.rows(
            place,
            """
            DELETE FROM schema_migrations
              WHERE name IN ('v7-change-notifies-its-rows', 'v8-changes-in-batches', 'v9-changes-as-rows');
            INSERT INTO schema_migrations (name) VALUES ('v6-change-in-one-call');
            DROP FUNCTION fakenft_changes(JSONB, BIGINT, TEXT);
            CREATE FUNCTION fakenft_change(\(v6Signature)) RETURNS BIGINT LANGUAGE sql AS 'SELECT NULL::BIGINT';
            """)
        let server = try await SharedData.postgres.start(place)
        #expect(try await server.request("PUT", "/api/v1/profile/1", body: "likes=5").status == 200)
        #expect(try await server.get("/api/v1/profile/1", as: Profile.self).likes == ["5"])
        await server.stop()
        #expect(
            try TestStore.rows(
                place, "SELECT proname, pronargs FROM pg_proc WHERE proname LIKE 'fakenft_change%' ORDER BY proname")
                == [["fakenft_changes", "3"]])
    }

    /// Idle pooled connections are pinged only when the address asks (`keepalives_idle`), and
    /// the pool opens no more connections than `pool_max_conns` (20 by default).
    @Test(
        .enabled(if: SharedData.available.contains(.postgres), "a PostgreSQL test cluster (make test)"),
        arguments: [nil, "&keepalives_idle=1&pool_max_conns=2"])
    func idleConnectionsArePingedOnlyWhenAsked(parameters: String?) async throws {
        let database = try TestStore.newDatabase(), cluster = try #require(TestStore.cluster)
        let name = TestStore.name(of: database)
        try await TestServer.with(postgresURL: database + (parameters ?? "")) { server async throws in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for like in 1...8 {
                    group.addTask { try await server.request("PUT", "/api/v1/profile/1", body: "likes=\(like)").status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 8))
            let queries = {
                try TestStore.rows(
                    cluster,
                    """
                    SELECT pid, regexp_replace(query, '\\s+', ' ', 'g') FROM pg_stat_activity
                    WHERE datname = '\(name)' AND backend_type = 'client backend'
                    """
                ).map { $0.dropFirst().joined() }  // a line each (queries of several lines made one line)
            }
            let pooled = try queries().count - 1  // one listens for changes
            #expect(pooled >= 1 && pooled <= (parameters == nil ? 20 : 2), "\(pooled)")
            try await Task.sleep(for: .seconds(2.5))
            let last = try queries()
            #expect(last.filter { $0 == "SELECT 1;" }.count == (parameters == nil ? 0 : pooled), "\(last)")
        }
    }

    /// On PostgreSQL another server's change reaches this one's read model with its notification,
    /// rows and all (no query), a sign-up's account, row in `/users` and sign-in too; one too
    /// large for a notification is read back from the database. Counted in `/metrics`.
    @Test(.enabled(if: SharedData.available.contains(.postgres), "a PostgreSQL test cluster (make test)"))
    func anotherServersChangeArrivesWithItsRows() async throws {
        try await withTwoServers(on: .postgres) { a, b async throws in
            let anna = try await AccountTests.register(a, "Anna", "anna@example.com")
            #expect(try await polled { try await Self.caughtUp(b).notification >= 1 }, "the sign-up's notification")
            let client = GenerationClient(token: anna.token)
            #expect(try await client.get(b, "/api/v1/profile/1", as: Profile.self).name == "Anna")
            let before = try await Self.caughtUp(b)
            #expect(before.database == 0, "the sign-up came with its rows: nothing read back")

            #expect(try await a.request("PUT", "/api/v1/profile/1", body: "likes=3,4").status == 200)
            #expect(try await polled { try await b.get("/api/v1/profile/1", as: Profile.self).likes == ["3", "4"] })
            let small = try await Self.caughtUp(b)
            #expect(small.notification == before.notification + 1 && small.database == before.database)

            let link = "https://example.com/" + String(repeating: "a", count: ProfileRules.maxLink - 20)
            let (status, _) = try await client.request(
                a, "PUT", "/api/v1/profile/1", body: "website=\(link)&avatar=\(link)&description=Large")
            #expect(status == 200)
            let large = try await client.get(b, "/api/v1/users/\(anna.userId)", as: User.self)
            #expect(large.website == link && large.avatar == link && large.description == "Large")
            let after = try await Self.caughtUp(b)
            #expect(after.notification == small.notification && after.database == small.database + 1)
        }
    }

    /// On PostgreSQL, changes of different accounts that come together through one server are
    /// written together (one transaction for several: `change_log` rows share their `xmin`), each
    /// with its own generation, one after another, and the other server reads each, for the
    /// client that wrote it.
    @Test(.enabled(if: SharedData.available.contains(.postgres), "a PostgreSQL test cluster (make test)"))
    func changesThatComeTogetherAreWrittenTogetherAndEachArrives() async throws {
        let place = try SharedData.postgres.newPlace()
        try await withTwoServers(on: .postgres, at: place) { a, b async throws in
            try await Self.changeAtOnce(through: a, readThrough: b)
        }
        let counts = try TestStore.rows(
            place,
            """
            SELECT COUNT(*), COUNT(DISTINCT xmin::text), MAX(generation) - MIN(generation) + 1 FROM change_log
              WHERE generation > (SELECT MAX(generation) FROM change_log) - 80
            """)
        let (changes, transactions, span) = try #require(counts.first.map { ($0[0], $0[1], $0[2]) })
        #expect(changes == "80" && span == "80", "each change its own generation, one after another")
        #expect((Int(transactions) ?? 80) < 80, "some written together: \(transactions) transactions for 80 changes")
    }

    /// Text that means something to JSON, SQL or a notification's payload (quotes, backslashes,
    /// `\/`, a batch's own keys, newlines, tabs, Cyrillic and emoji) is written as it came, by one
    /// account alone and by 12 at once (on PostgreSQL, until some went in one batch: one
    /// transaction for several): the other server reads it so, and so does the database.
    @Test(arguments: SharedData.available) func textThatLooksLikeJSONOrSQLIsWrittenAsItCame(_ data: SharedData)
        async throws
    {
        let place = try data.newPlace()
        let name = #"O'Brien "\(x)" \/ \\ Ёжик 🦔 %s"#
        let description = "line\n\ttab\"},{\"nth\":2,\"owner_id\":\"1\"}]; DROP TABLE profile; -- \\u0041"
        var latest: [String] = []  // each account's name after the last round
        var together = 0
        try await withTwoServers(on: data, at: place) { a, b async throws in
            try await Self.write(name, description, as: GenerationClient(), through: a, readThrough: b)
            var accounts: [AccountTests.SignedIn] = []
            for index in 0..<12 {
                accounts.append(try await AccountTests.register(a, "J\(index)", "j\(index)@example.com"))
            }
            for round in 1...5 where together == 0 {
                let named = accounts.indices.map { "\(name) \(round).\($0)" }
                latest = named
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (account, name) in zip(accounts, named) {
                        group.addTask {
                            try await Self.write(
                                name, "\(description) \(name)", as: GenerationClient(token: account.token),
                                through: a, readThrough: b)
                        }
                    }
                    try await group.waitForAll()
                }
                guard data == .postgres else { return }
                let counts = try TestStore.rows(
                    place,
                    """
                    SELECT COUNT(*) - COUNT(DISTINCT xmin::text) FROM change_log
                      WHERE generation > (SELECT MAX(generation) FROM change_log) - 12
                    """)
                together = Int(counts.first?.first ?? "") ?? 0
            }
        }
        guard data == .postgres else { return }
        #expect(together > 0, "some of 12 changes at once written in one batch, in 5 rounds")
        let stored = try TestStore.rows(place, "SELECT name FROM profile WHERE name LIKE 'O''Brien%'")
        #expect(stored.map { $0.joined() }.sorted() == ([name] + latest).sorted())
    }

    /// Sets the profile's name and description through `a`, and reads them through `b`.
    private static func write(
        _ name: String, _ description: String, as client: GenerationClient, through a: TestServer,
        readThrough b: TestServer
    ) async throws {
        let body = AccountTests.form([("name", name), ("description", description)])
        let (status, answer) = try await client.request(a, "PUT", "/api/v1/profile/1", body: body)
        #expect(status == 200, "\(String(decoding: answer, as: UTF8.self))")
        let read: Profile = try await client.get(b, "/api/v1/profile/1")
        #expect(read.name == name && read.description == description)
    }

    /// 16 new accounts each change their likes through `a` at once, five times, and read them
    /// through `b`.
    static func changeAtOnce(through a: TestServer, readThrough b: TestServer) async throws {
        var accounts: [AccountTests.SignedIn] = []
        for index in 0..<16 {
            accounts.append(try await AccountTests.register(a, "A\(index)", "a\(index)@example.com"))
        }
        for round in 1...5 {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, account) in accounts.enumerated() {
                    group.addTask {
                        let client = GenerationClient(token: account.token)
                        let likes = "\((index + round) % 90 + 1),\(round)"
                        let (status, answer) = try await client.request(
                            a, "PUT", "/api/v1/profile/1", body: "likes=\(likes)")
                        #expect(status == 200, "\(String(decoding: answer, as: UTF8.self))")
                        let read = try await client.get(b, "/api/v1/profile/1", as: Profile.self)
                        #expect(read.likes == likes.split(separator: ",").map(String.init), "read on the other")
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    /// `fakenft_changes_caught_up` of `server`'s `/metrics`, by where the rows came from.
    static func caughtUp(_ server: TestServer) async throws -> (notification: Int, database: Int) {
        let text = String(decoding: try await server.request("GET", "/metrics").body, as: UTF8.self)
        func count(_ source: String) -> Int {
            let prefix = "fakenft_changes_caught_up{from=\"\(source)\"} "
            return text.split(separator: "\n").first { $0.hasPrefix(prefix) }
                .flatMap { Double($0.dropFirst(prefix.count)) }.map { Int($0) } ?? -1
        }
        return (count("notification"), count("database"))
    }

    /// A process holding the file killed mid-way (its server simply gone, connections and all)
    /// leaves the other serving, with everything acknowledged.
    @Test func theOtherKeepsServingWhenOneStops() async throws {
        try await withTwoServers(on: .sqliteFile) { a, b async throws in
            let client = GenerationClient()
            #expect(try await client.request(a, "PUT", "/api/v1/profile/1", body: "likes=3,4").status == 200)
            await a.stop()
            #expect(try await client.get(b, "/api/v1/profile/1", as: Profile.self).likes == ["3", "4"])
            #expect(try await b.request("PUT", "/api/v1/profile/1", body: "likes=3").status == 200)
            #expect(try await b.get("/api/v1/profile/1", as: Profile.self).likes == ["3"])
        }
    }
}
