import FakeNFTCore
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import HummingbirdBcrypt
import Testing
import FakeNFTTesting
@testable import FakeNFTServer

/// Accounts over HTTP: sign-up, sign-in, sign-out, per-token profile and order, passwords and
/// tokens as stored, and the limits on failed sign-ins.
@Suite struct AccountTests {
    struct SignedIn: Decodable {
        var token: String
        var userId: String
        var name: String
        var email: String
    }

    static func form(_ fields: [(String, String)]) -> String { FormEncoding.encode(fields) }

    static func register(_ server: TestServer, _ name: String, _ email: String, _ password: String = "correct horse 1")
        async throws -> SignedIn
    {
        let (status, body) = try await server.request(
            "POST", "/api/v1/auth/register", body: form([("name", name), ("email", email), ("password", password)]),
            contentType: "application/x-www-form-urlencoded")
        #expect(status == 201, "\(String(decoding: body, as: UTF8.self))")
        return try JSONDecoder().decode(SignedIn.self, from: body)
    }

    static func get<T: Decodable>(_ server: TestServer, _ path: String, token: String?, as type: T.Type = T.self)
        async throws -> T
    {
        let (status, body) = try await server.request(
            "GET", path, headers: token.map { ["X-Practicum-Mobile-Token": $0] } ?? [:])
        #expect(status == 200, "\(path): \(String(decoding: body, as: UTF8.self))")
        return try JSONDecoder().decode(T.self, from: body)
    }

    static func put(_ server: TestServer, _ path: String, _ fields: [(String, String)], token: String) async throws {
        let (status, body) = try await server.request(
            "PUT", path, body: form(fields), contentType: "application/x-www-form-urlencoded",
            headers: ["X-Practicum-Mobile-Token": token])
        #expect(status == 200, "\(path): \(String(decoding: body, as: UTF8.self))")
    }

    @Test func twoAccountsKeepTheirOwnLikesCartProfileAndPurchases() async throws {
        try await TestServer.with { server async throws in
            let anna = try await Self.register(server, "Anna", "anna@example.com")
            let boris = try await Self.register(server, "Boris", "boris@example.com")
            let shared: Profile = try await server.get("/api/v1/profile/1")
            let sharedOrder: Order = try await server.get("/api/v1/orders/1")
            try await Self.put(
                server, "/api/v1/profile/1",
                [("likes", "10,11"), ("name", "Anna K."), ("website", "https://anna.example")], token: anna.token)
            try await Self.put(server, "/api/v1/profile/1", [("likes", "20")], token: boris.token)
            try await Self.put(server, "/api/v1/orders/1", [("nfts", "10,12")], token: anna.token)
            try await Self.put(server, "/api/v1/orders/1", [("nfts", "30")], token: boris.token)

            let annasProfile: Profile = try await Self.get(server, "/api/v1/profile/1", token: anna.token)
            let borisProfile: Profile = try await Self.get(server, "/api/v1/profile/1", token: boris.token)
            #expect(annasProfile.likes == ["10", "11"] && annasProfile.name == "Anna K." && annasProfile.id == "1")
            #expect(borisProfile.likes == ["20"] && borisProfile.name == "Boris")
            #expect(
                try await Self.get(server, "/api/v1/orders/1", token: anna.token, as: Order.self).nfts == ["10", "12"])
            #expect(try await Self.get(server, "/api/v1/orders/1", token: boris.token, as: Order.self).nfts == ["30"])

            // Anna pays (currency 1 succeeds in gen1): her NFTs, and only hers, move.
            let paid: PaymentResult = try await Self.get(server, "/api/v1/orders/1/payment/1", token: anna.token)
            #expect(paid.success)
            #expect(
                try await Self.get(server, "/api/v1/profile/1", token: anna.token, as: Profile.self).nfts == [
                    "10", "12",
                ])
            #expect(try await Self.get(server, "/api/v1/orders/1", token: anna.token, as: Order.self).nfts.isEmpty)
            #expect(try await Self.get(server, "/api/v1/profile/1", token: boris.token, as: Profile.self).nfts.isEmpty)
            #expect(try await Self.get(server, "/api/v1/orders/1", token: boris.token, as: Order.self).nfts == ["30"])
            // The shared profile and order (no token) did not move.
            #expect(try await server.get("/api/v1/profile/1", as: Profile.self) == shared)
            #expect(try await server.get("/api/v1/orders/1", as: Order.self) == sharedOrder)

            // Both are users; Anna's count is what she owns, her rating the ETH she spent, rounded.
            var spent = 0.0
            for id in ["10", "12"] { spent += try await server.get("/api/v1/nft/\(id)", as: NFT.self).price }
            let annaUser: User = try await server.get("/api/v1/users/\(anna.userId)")
            let borisUser: User = try await server.get("/api/v1/users/\(boris.userId)")
            #expect(
                annaUser.name == "Anna K." && annaUser.nfts == ["10", "12"]
                    && annaUser.website == "https://anna.example")
            #expect(annaUser.rating == String(Int(spent.rounded())))
            #expect(borisUser.nfts.isEmpty && borisUser.rating == "0")
            let everyone: [User] = try await server.get("/api/v1/users?size=1000")
            #expect(everyone.contains { $0.id == anna.userId } && everyone.contains { $0.id == boris.userId })
        }
    }

    /// `/users` follows each change of an account's profile: a description or a website in its
    /// row (and in a page, and in a name search), a new name in the name order too.
    @Test func usersFollowEveryProfileChange() async throws {
        try await TestServer.with { server async throws in
            let anna = try await Self.register(server, "Anna", "anna@example.com")
            let boris = try await Self.register(server, "Boris", "boris@example.com")
            func ours(_ query: String) async throws -> [User] {
                try await server.get("/api/v1/users?size=1000&\(query)", as: [User].self).filter {
                    [anna.userId, boris.userId].contains($0.id)
                }
            }
            try await Self.put(
                server, "/api/v1/profile/1", [("description", "Paints"), ("website", "https://a.example")],
                token: anna.token)
            #expect(try await server.get("/api/v1/users/\(anna.userId)", as: User.self).description == "Paints")
            #expect(try await ours("sortBy=name").map(\.name) == ["Anna", "Boris"])
            #expect(try await ours("sortBy=name").first?.website == "https://a.example")
            #expect(try await ours("name=ann").map(\.description) == ["Paints"])
            try await Self.put(server, "/api/v1/profile/1", [("name", "Zoe")], token: anna.token)
            #expect(try await ours("sortBy=name").map(\.name) == ["Boris", "Zoe"])
            #expect(try await ours("name=zo").map(\.id) == [anna.userId])
            #expect(try await ours("name=ann").isEmpty)
        }
    }

    @Test func passwordsAreStoredAsBcryptHashesAndTokensAsSHA256() async throws {
        try await TestServer.with { server async throws in
            let password = "Secret-Pass 42"
            let anna = try await Self.register(server, "Anna", "anna@example.com", password)
            let hash = try await server.databaseRows(#"SELECT "passwordHash" FROM account"#).first?.first ?? ""
            let tokenHashes = try await server.databaseRows(#"SELECT "tokenHash" FROM session"#).map { $0[0] }
            #expect(
                hash.hasPrefix("$2b$10$") || hash.hasPrefix("$2a$10$") || hash.hasPrefix("$2y$10$"),
                "bcrypt with cost 10: \(hash.prefix(7))")
            #expect(
                !hash.contains(password) && Bcrypt.verify(password, hash: hash)
                    && !Bcrypt.verify("Secret-Pass 43", hash: hash))
            #expect(tokenHashes == [Tokens.hash(anna.token)] && !tokenHashes.contains(anna.token))
            #expect(anna.token.hasPrefix("fnft_") && anna.token.count >= 5 + 43, "at least 256 bits")
            #expect(Tokens.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        }
    }

    @Test func aFailedSignInNeverSaysWhetherTheAddressExists() async throws {
        try await TestServer.with { server async throws in
            _ = try await Self.register(server, "Anna", "anna@example.com")
            let wrong = try await server.request(
                "POST", "/api/v1/auth/login",
                body: Self.form([("email", "anna@example.com"), ("password", "wrong pass 1")]))
            let unknown = try await server.request(
                "POST", "/api/v1/auth/login",
                body: Self.form([("email", "nobody@example.com"), ("password", "wrong pass 1")]))
            #expect(wrong.status == 401 && unknown.status == 401)
            #expect(wrong.body == unknown.body)
            let right = try await server.request(
                "POST", "/api/v1/auth/login",
                body: Self.form([("email", "ANNA@example.com"), ("password", "correct horse 1")]))
            #expect(right.status == 200, "addresses are compared without case")
        }
    }

    @Test func signUpRefusesTakenAddressesAndWeakInput() async throws {
        try await TestServer.with { server async throws in
            _ = try await Self.register(server, "Anna", "anna@example.com")
            func signUp(_ name: String, _ email: String, _ password: String) async throws -> (Int, String) {
                let (status, body) = try await server.request(
                    "POST", "/api/v1/auth/register",
                    body: Self.form([("name", name), ("email", email), ("password", password)]))
                return (status, TestServer.errorMessage(body) ?? "")
            }
            #expect(
                try await signUp("Anna 2", "Anna@Example.COM", "other pass 2") == (
                    409, "an account with this e-mail address already exists"
                ))
            for (password, problem) in [
                ("short1", "at least 8"), ("onlyletters", "letters and at least one digit"),
                ("12345678", "letters and at least one digit"),
                (String(repeating: "a1", count: 40), "at most 72 bytes"),
            ] {
                let (status, message) = try await signUp("Boris", "boris@example.com", password)
                #expect(status == 400 && message.contains(problem), "\(password): \(message)")
            }
            for email in [
                "boris", "boris@", "@example.com", "boris@example", "bo ris@example.com", "boris@@example.com",
                "boris@example..com", "key-0123456789abcdef01234567@ssh.invalid", "guest-1-0@guest.ssh.INVALID",
            ] {
                #expect(try await signUp("Boris", email, "good pass 1").0 == 400, "\(email)")
            }
            // Look-alikes of a taken address are the same address: decomposed accents, the Kelvin sign.
            _ = try await Self.register(server, "José", "jos\u{E9}@example.com")
            for lookAlike in [
                "jose\u{301}@example.com", "JOS\u{C9}@example.com",
                "anna@example.com".replacingOccurrences(of: "k", with: "\u{212A}"),
            ] {
                #expect(try await signUp("Copy", lookAlike, "good pass 1").0 == 409, "\(lookAlike)")
            }
            // Look-alikes outside NFKC: a letter of another alphabet in the name, an invisible
            // character, a dotless ı: refused, or the same address.
            for lookAlike in [
                "\u{430}nna@example.com", "anna@ex\u{3BF}mple.com", "an\u{200B}na@example.com",
                "an\u{AD}na@example.com",
            ] {
                #expect(try await signUp("Copy", lookAlike, "good pass 1").0 == 400, "\(lookAlike.debugDescription)")
            }
            _ = try await Self.register(server, "Inna", "inna@example.com")
            #expect(try await signUp("Copy", "\u{131}nna@example.com", "good pass 1").0 == 409, "dotless ı")
            #expect(try await signUp("Пётр", "пётр@пример.рф", "good pass 1").0 == 201, "one alphabet throughout")
            // Names that show nothing.
            for blank in ["   ", "\u{200B}\u{200B}", "\u{3164}", "\u{2800} \u{AD}"] {
                #expect(
                    try await signUp(blank, "boris@example.com", "good pass 1").0 == 400, "\(blank.debugDescription)")
            }
            #expect(try await signUp("Boris\u{1B}[2J", "boris@example.com", "good pass 1").0 == 400)
        }
    }

    @Test func failedSignInsAreLimitedPerAddressAndPerClient() async throws {
        try await TestServer.with { server async throws in
            _ = try await Self.register(server, "Anna", "anna@example.com")
            for _ in 0..<5 {
                #expect(
                    try await server.request(
                        "POST", "/api/v1/auth/login",
                        body: Self.form([("email", "anna@example.com"), ("password", "guess 1234")])
                    ).status == 401)
            }
            let (status, _, headers) = try await server.exchange(
                "POST", "/api/v1/auth/login",
                body: Self.form([("email", "anna@example.com"), ("password", "correct horse 1")]))
            #expect(status == 429, "even the right password waits")
            let retry = try #require(headers["retry-after"].flatMap(Int.init))
            #expect(retry > 0 && retry <= 15 * 60)
            // The same client trying other addresses is limited too.
            let other = try await server.request(
                "POST", "/api/v1/auth/login",
                body: Self.form([("email", "boris@example.com"), ("password", "guess 1234")]))
            #expect(other.status == 429)
        }
    }

    /// Behind a trusted proxy each client is counted by the address the proxy names; from any
    /// other peer, `X-Forwarded-For` is the client's own claim and changes nothing.
    @Test(arguments: [true, false]) func limitsCountTheClientATrustedProxyNames(trusted: Bool) async throws {
        var configuration = ServerConfiguration(
            port: 0, dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("xff-\(UUID())"),
            postgresURL: TestStore.isPostgres ? try TestStore.newDatabase() : nil)
        configuration.signUpsPerHour = 2
        configuration.trustedProxies = trusted ? [IPAddressRange("127.0.0.0/8")!] : []
        let server = try await FakeNFTServer.start(configuration)
        var made = 0
        func signUp(from client: String) async throws -> Int {
            made += 1
            var request = URLRequest(url: server.baseURL.appendingPathComponent("api/v1/auth/register"))
            request.httpMethod = "POST"
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.setValue("\(client), 127.0.0.1", forHTTPHeaderField: "X-Forwarded-For")
            request.httpBody = Data(
                Self.form([("name", "N"), ("email", "n\(made)@example.com"), ("password", "correct horse 1")]).utf8)
            return (try await URLSession.shared.data(for: request).1 as! HTTPURLResponse).statusCode
        }
        #expect(try await signUp(from: "10.0.1.1") == 201)
        #expect(try await signUp(from: "10.0.2.1") == 201)
        #expect(try await signUp(from: "10.0.1.1") == (trusted ? 201 : 429), "a second sign-up of 10.0.1.1")
        #expect(try await signUp(from: "10.0.1.1") == 429)
        #expect(try await signUp(from: "10.0.1.200") == 429, "another address of the same /24 is the same client")
        let newClient = try await signUp(from: "10.0.3.1")
        await server.stop()
        #expect(newClient == (trusted ? 201 : 429), "a new address is a new client only when a trusted proxy says so")
    }

    /// Strangers guessing an address's password five times lock it for strangers, not for the
    /// client its owner signed in from before.
    @Test func strangersGuessesDoNotLockTheOwnerOut() async throws {
        var configuration = ServerConfiguration(
            port: 0, dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("owner-\(UUID())"),
            postgresURL: TestStore.isPostgres ? try TestStore.newDatabase() : nil)
        configuration.trustedProxies = [IPAddressRange("127.0.0.0/8")!]
        let server = try await FakeNFTServer.start(configuration)
        func signIn(from client: String, _ password: String) async throws -> Int {
            var request = URLRequest(url: server.baseURL.appendingPathComponent("api/v1/auth/login"))
            request.httpMethod = "POST"
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.setValue(client, forHTTPHeaderField: "X-Forwarded-For")
            request.httpBody = Data(Self.form([("email", "anna@example.com"), ("password", password)]).utf8)
            return (try await URLSession.shared.data(for: request).1 as! HTTPURLResponse).statusCode
        }
        var register = URLRequest(url: server.baseURL.appendingPathComponent("api/v1/auth/register"))
        register.httpMethod = "POST"
        register.httpBody = Data(
            Self.form([("name", "Anna"), ("email", "anna@example.com"), ("password", "correct horse 1")]).utf8)
        #expect((try await URLSession.shared.data(for: register).1 as! HTTPURLResponse).statusCode == 201)
        #expect(try await signIn(from: "10.0.1.1", "correct horse 1") == 200, "the owner, from her laptop")
        for stranger in 0..<5 { #expect(try await signIn(from: "10.0.9.\(stranger)", "guess 1234") == 401) }
        #expect(try await signIn(from: "10.0.9.77", "guess 1234") == 429, "the address is locked for strangers")
        #expect(try await signIn(from: "10.0.7.7", "correct horse 1") == 429, "a client never seen waits too")
        #expect(try await signIn(from: "10.0.1.1", "correct horse 1") == 200, "the owner's client gets in")
        await server.stop()
    }

    @Test func theClientIsTheLastAddressNoTrustedProxyWrote() {
        let forwarded = ForwardedClientMiddleware(
            trustedProxies: [
                IPAddressRange("127.0.0.1")!, IPAddressRange("10.9.0.0/16")!,
            ], sshPasses: nil)
        #expect(forwarded.client(peer: "127.0.0.1", forwardedFor: ["6.6.6.6, 1.2.3.4, 10.9.9.9"]) == "1.2.3.4")
        #expect(forwarded.client(peer: "127.0.0.1", forwardedFor: ["6.6.6.6", "1.2.3.4"]) == "1.2.3.4")
        #expect(forwarded.client(peer: "127.0.0.1", forwardedFor: ["2001:db8::1"]) == "2001:db8::1")
        #expect(forwarded.client(peer: "127.0.0.1", forwardedFor: []) == "127.0.0.1")
        #expect(forwarded.client(peer: "127.0.0.1", forwardedFor: ["not an address"]) == "127.0.0.1")
        #expect(forwarded.client(peer: "127.0.0.1", forwardedFor: ["6.6.6.6,\t 1.2.3.4 \t"]) == "1.2.3.4")
        #expect(forwarded.client(peer: "127.0.0.1", forwardedFor: ["1.2.3.4, ,  "]) == "127.0.0.1", "an empty hop")
        #expect(forwarded.client(peer: "5.5.5.5", forwardedFor: ["1.2.3.4"]) == "5.5.5.5", "not a trusted peer")
        #expect(forwarded.client(peer: "10.9.200.1", forwardedFor: ["1.2.3.4"]) == "1.2.3.4", "in the trusted network")
        #expect(forwarded.client(peer: "10.10.0.1", forwardedFor: ["1.2.3.4"]) == "10.10.0.1")
    }

    /// Sign-ups are counted per network, where one client's addresses rotate.
    @Test func aClientsNetworkIsItsSlash24OrSlash64() {
        #expect(IPAddressRange.network(of: "192.0.2.77") == "192.0.2.0/24")
        #expect(IPAddressRange.network(of: "::ffff:192.0.2.77") == "192.0.2.0/24")
        #expect(IPAddressRange.network(of: "2001:db8:1:2:aaaa::1") == "2001:0db8:0001:0002::/64")
        #expect(IPAddressRange.network(of: "2001:db8:1:2::ffff") == IPAddressRange.network(of: "2001:db8:1:2:1::"))
        #expect(IPAddressRange.network(of: "unknown") == "unknown")
        #expect(IPAddressRange.network(of: "127.0.0.2") == IPAddressRange.network(of: "127.9.9.9"), "loopback is one")
    }

    @Test func addressRangesParseAndMatchAsCIDRSays() throws {
        let v4 = try #require(IPAddressRange("192.168.4.0/22"))
        #expect(v4.contains("192.168.7.255") && v4.contains("192.168.4.0") && !v4.contains("192.168.8.0"))
        #expect(!v4.contains("::1") && !v4.contains("not an address"))
        let v6 = try #require(IPAddressRange("fd00::/8"))
        #expect(v6.contains("fd12:3456::1") && !v6.contains("fe80::1"))
        #expect(try #require(IPAddressRange("0.0.0.0/0")).contains("8.8.8.8"))
        for bad in ["10.0.0.0/33", "10.0.0.0/", "10.0.0/8", "host.example", "::1/129", "1.2.3.4/+8", ""] {
            #expect(IPAddressRange(bad) == nil, "\(bad)")
        }
    }

    @Test func theLimiterCountsAttemptsAsTheyStartAndForgetsThemOutsideItsWindow() throws {
        let limiter = LoginLimiter(maxAttempts: 2, window: .seconds(60))
        let start = ContinuousClock.now
        _ = try limiter.attempt(["a"], now: start).get()
        let second = try limiter.attempt(["a"], now: start + .seconds(10)).get()
        #expect(throws: Limited.self, "both counted before either was checked") {
            try limiter.attempt(["a"], now: start + .seconds(20)).get()
        }
        if case .failure(let limited) = limiter.attempt(["a"], now: start + .seconds(20)) {
            #expect(limited.seconds == 41)
        }
        limiter.succeeded(second)  // the right password: that attempt is taken back
        _ = try limiter.attempt(["a"], now: start + .seconds(21)).get()
        _ = try limiter.attempt(["b"], now: start + .seconds(21)).get()
        let last = try limiter.attempt(["a", "c"], now: start + .seconds(61)).get()  // the one at 0 has left
        #expect(throws: Limited.self) { try limiter.attempt(["a"], now: start + .seconds(62)).get() }
        limiter.succeeded(last, forgetting: "a")  // signed in: the address's failures are forgotten
        _ = try limiter.attempt(["a"], now: start + .seconds(63)).get()
        _ = try limiter.attempt(["a"], now: start + .seconds(63)).get()
    }

    /// 100 guesses sent at once, the right password among them: only the limit's five are
    /// checked, the others are refused before their check.
    @Test func guessesSentAtOnceAreLimitedAsIfOneByOne() async throws {
        try await TestServer.with { server async throws in
            _ = try await Self.register(server, "Anna", "anna@example.com")
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for guess in 0..<100 {
                    let password = guess == 60 ? "correct horse 1" : "guess \(guess) x"
                    group.addTask {
                        try await server.request(
                            "POST", "/api/v1/auth/login",
                            body: Self.form([("email", "anna@example.com"), ("password", password)])
                        ).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let checked = statuses.filter { $0 != 429 }
            #expect(checked.count <= 5, "\(checked.count) checked: \(checked)")
            #expect(statuses.filter { $0 == 429 }.count >= 95)
            #expect(Set(statuses).isSubset(of: [200, 401, 429]))
        }
    }

    /// bcrypt stops at a NUL: a password holding one would open with the empty password.
    @Test func passwordsWithControlCharactersAreRefused() async throws {
        try await TestServer.with { server async throws in
            for password in ["\0Password1", "Pass\0word1", "Password1\u{7}", "Pass\u{1B}[2Jword1"] {
                let (status, body) = try await server.request(
                    "POST", "/api/v1/auth/register",
                    body: Self.form([("name", "Nul"), ("email", "nul@example.com"), ("password", password)]),
                    contentType: "application/x-www-form-urlencoded")
                #expect(status == 400, "\(password.debugDescription)")
                #expect(String(decoding: body, as: UTF8.self).contains("control characters"))
            }
            _ = try await Self.register(server, "Anna", "anna@example.com")
            for password in ["", "\0", "\0correct horse 1"] {
                let status = try await server.request(
                    "POST", "/api/v1/auth/login",
                    body: Self.form([("email", "anna@example.com"), ("password", password)])
                ).status
                #expect(status == 401, "\(password.debugDescription)")
            }
            // A hash made before the rule (of a password with a NUL) opens with nothing.
            let nulHash = Bcrypt.hash("\0Password1", cost: 4)
            #expect(Bcrypt.verify("", hash: nulHash), "what the rule guards against")
            #expect(AccountRules.passwordProblem("\0Password1") == .passwordHasControls)
        }
    }

    /// bcrypt reads 72 bytes: a password of exactly 72 opens its account, the same with anything
    /// appended does not (sign-up refuses more than 72 bytes, sign-in too).
    @Test func signInRefusesWhatBcryptWouldCutTo72Bytes() async throws {
        try await TestServer.with { server async throws in
            let password = "A1" + String(repeating: "b", count: 70)
            #expect(password.utf8.count == AccountRules.maxPasswordBytes)
            _ = try await Self.register(server, "Anna", "anna@example.com", password)
            for (attempt, expected) in [(password, 200), (password + "x", 401), (password + "anything at all", 401)] {
                let status = try await server.request(
                    "POST", "/api/v1/auth/login",
                    body: Self.form([("email", "anna@example.com"), ("password", attempt)]),
                    contentType: "application/x-www-form-urlencoded"
                ).status
                #expect(status == expected, "\(attempt.utf8.count) bytes")
            }
        }
    }

    @Test func signUpsArePerClientLimited() async throws {
        try await TestServer.with { server async throws in
            for index in 0..<20 { _ = try await Self.register(server, "User \(index)", "user\(index)@example.com") }
            let (status, _, headers) = try await server.exchange(
                "POST", "/api/v1/auth/register",
                body: Self.form([("name", "One more"), ("email", "more@example.com"), ("password", "correct horse 1")]),
                contentType: "application/x-www-form-urlencoded")
            #expect(status == 429 && headers["retry-after"] != nil)
        }
    }

    @Test func signingOutEndsTheTokenAndOtherTokensKeepTheSharedProfile() async throws {
        try await TestServer.with { server async throws in
            let anna = try await Self.register(server, "Anna", "anna@example.com")
            let session: [String: String] = try await Self.get(server, "/api/v1/auth/session", token: anna.token)
            #expect(session["userId"] == anna.userId && session["email"] == "anna@example.com")
            let out = try await server.request(
                "POST", "/api/v1/auth/logout", headers: ["X-Practicum-Mobile-Token": anna.token])
            #expect(out.status == 204)
            #expect(
                try await server.request("GET", "/api/v1/profile/1", headers: ["X-Practicum-Mobile-Token": anna.token])
                    .status == 401)
            #expect(
                try await server.request(
                    "GET", "/api/v1/auth/session", headers: ["X-Practicum-Mobile-Token": anna.token]
                ).status == 401)
            #expect(
                try await server.request(
                    "POST", "/api/v1/auth/logout", headers: ["X-Practicum-Mobile-Token": anna.token]
                ).status == 401)
            let gen1Token: Profile = try await Self.get(
                server, "/api/v1/profile/1", token: "107f0274-e9e8-4d1f-9e5b-4d1d4f3fa4b5")
            #expect(gen1Token == (try await server.get("/api/v1/profile/1", as: Profile.self)))
            // Signing in again finds the account's profile as it was left.
            let again = try await server.request(
                "POST", "/api/v1/auth/login",
                body: Self.form([("email", "anna@example.com"), ("password", "correct horse 1")]))
            let token = try JSONDecoder().decode(SignedIn.self, from: again.body).token
            #expect(try await Self.get(server, "/api/v1/profile/1", token: token, as: Profile.self).name == "Anna")
        }
    }

    /// Signing out everywhere ends every token of the account, and no other account's.
    @Test func signingOutEverywhereEndsEveryTokenOfTheAccount() async throws {
        try await TestServer.with { server async throws in
            let laptop = try await Self.register(server, "Anna", "anna@example.com")
            let phone = try await server.request(
                "POST", "/api/v1/auth/login",
                body: Self.form([("email", "anna@example.com"), ("password", "correct horse 1")]))
            let phoneToken = try JSONDecoder().decode(SignedIn.self, from: phone.body).token
            let boris = try await Self.register(server, "Boris", "boris@example.com")
            let out = try await server.request(
                "POST", "/api/v1/auth/logout-all", headers: ["X-Practicum-Mobile-Token": phoneToken])
            #expect(out.status == 204)
            for token in [laptop.token, phoneToken] {
                let status = try await server.request(
                    "GET", "/api/v1/profile/1", headers: ["X-Practicum-Mobile-Token": token]
                ).status
                #expect(status == 401)
            }
            #expect(
                try await Self.get(server, "/api/v1/profile/1", token: boris.token, as: Profile.self).name == "Boris")
            let again = try await server.request(
                "POST", "/api/v1/auth/logout-all", headers: ["X-Practicum-Mobile-Token": phoneToken])
            #expect(again.status == 401, "an ended token cannot sign anyone out")
        }
    }

    /// A token unused for the idle limit is a 401, as after a sign-out.
    @Test func anIdleSignInExpires() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idle-\(UUID())")
        var configuration = ServerConfiguration(
            port: 0, dataDirectory: directory, postgresURL: TestStore.isPostgres ? try TestStore.newDatabase() : nil)
        configuration.sessionIdleLimit = 1
        let running = try await FakeNFTServer.start(configuration)
        let server = TestServer(server: running, configuration: configuration)
        let anna = try await Self.register(server, "Anna", "anna@example.com")
        try await Task.sleep(for: .seconds(2))
        let expired = try await server.request(
            "GET", "/api/v1/profile/1", headers: ["X-Practicum-Mobile-Token": anna.token])
        await running.stop()
        #expect(expired.status == 401 && TestServer.errorMessage(expired.body)?.contains("sign in again") == true)
    }

    /// Each use keeps a session alive: it is written down once a tenth of the limit (a day at
    /// most) has passed since the last one written, and the limit counts from there.
    @Test func aSessionInUseNeverExpires() async throws {
        let store = try await Store.temporary()
        let userID = try await store.register(
            name: "Anna", email: "anna@example.com", passwordHash: "x", tokenHash: "hash-1")
        let start = try #require(try await store.current().sessions["hash-1"]).lastUsed
        var now = start
        for _ in 0..<10 {  // 200 days, a use every 20
            now += 20 * 86_400
            #expect(try await store.signedIn(tokenHash: "hash-1", now: now) == userID)
        }
        #expect(try await store.current().sessions["hash-1"]?.lastUsed.timeIntervalSince(now) ?? -1 > -1)
        #expect(try await store.signedIn(tokenHash: "hash-1", now: now + 31 * 86_400) == nil)
        #expect(try await store.signedIn(tokenHash: "no-such", now: now) == nil)
        _ = await store.close(within: .seconds(10))
    }

    @Test func aServerWideTokenLetsAccountTokensThrough() async throws {
        try await TestServer.with(token: "class-token") { server async throws in
            let anna = try await Self.register(server, "Anna", "anna@example.com")  // with the server's token
            // Without it, or with an account's token, nobody makes accounts on a server with a token.
            for headers in [["X-Practicum-Mobile-Token": ""], ["X-Practicum-Mobile-Token": anna.token]] {
                let (status, body) = try await server.request(
                    "POST", "/api/v1/auth/register",
                    body: Self.form([("name", "Eve"), ("email", "eve@example.com"), ("password", "correct horse 1")]),
                    contentType: "application/x-www-form-urlencoded", headers: headers)
                #expect(status == 401, "\(headers): \(String(decoding: body, as: UTF8.self))")
            }
            let signIn = try await server.request(
                "POST", "/api/v1/auth/login",
                body: Self.form([("email", "anna@example.com"), ("password", "correct horse 1")]),
                headers: ["X-Practicum-Mobile-Token": ""])
            #expect(signIn.status == 200, "signing in to an account takes no token")
            let mine: Profile = try await Self.get(server, "/api/v1/profile/1", token: anna.token)
            #expect(mine.name == "Anna")
            let shared: Profile = try await Self.get(server, "/api/v1/profile/1", token: "class-token")
            #expect(shared.name != "Anna")
            #expect(
                try await server.request(
                    "GET", "/api/v1/profile/1", headers: ["X-Practicum-Mobile-Token": "fnft_made_up"]
                ).status == 401)
        }
    }
}
