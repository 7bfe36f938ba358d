import Crypto
import FakeNFTCore
import FakeNFTModels
import FakeNFTRequests
import Foundation
import NIOCore
import NIOEmbedded
import Synchronization
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import FakeNFTTesting
@testable import FakeNFTServer

/// The SSH front's parts that decide on what a client sends: terminal types, sizes, variables,
/// user names, limits, host key files, and the key's account in the store.
@Suite struct SSHFrontTests {
    @Test func terminalTypesAreKeptOnlyWhenKnown() {
        var request = SSHSessionRequest()
        request.askTerminal("screen-256color", columns: 80, rows: 24) { $0 == "screen-256color" }
        #expect(request.terminal == "screen-256color")
        for hostile in [
            "no-such-terminal", "../../etc/passwd", "xterm\u{1B}[2J", "", String(repeating: "x", count: 65),
        ] {
            request.askTerminal(hostile, columns: 80, rows: 24) { $0 == hostile && $0 != "no-such-terminal" }
            #expect(request.terminal == SSHSessionRequest.fallbackTerminal, "\(hostile.debugDescription)")
        }
        request.askTerminal("xterm-256color", columns: 80, rows: 24)
        #expect(request.terminal == "xterm-256color", "this machine's terminfo has it")
    }

    @Test func sizesAreKeptWithinATerminal() {
        var request = SSHSessionRequest()
        let beforeTerminal = request.resize(columns: 80, rows: 24)
        #expect(!beforeTerminal, "no terminal was asked for")
        request.askTerminal("xterm", columns: 0, rows: 0)
        #expect(request.size == AppOnTerminal.Size(columns: 1, rows: 1))
        let huge = request.resize(columns: 65_535, rows: 65_535)
        #expect(huge)
        #expect(request.size?.columns == 1_000 && request.size?.rows == 500)
        let extreme = request.resize(columns: Int.min, rows: Int.max)
        #expect(extreme)
        #expect(request.size?.columns == 1 && request.size?.rows == 500)
    }

    @Test func onlyTheLanguageAndColoursComeFromTheClient() {
        var request = SSHSessionRequest()
        let language = request.take(variable: "LANG", value: "ru_RU.UTF-8")
        let all = request.take(variable: "LC_ALL", value: "C.UTF-8")
        let noColor = request.take(variable: "NO_COLOR", value: "yes please")
        let colorTerm = request.take(variable: "COLORTERM", value: "truecolor")
        #expect(language && all && noColor && colorTerm)
        for (name, value) in [
            ("PATH", "/tmp"), ("LD_PRELOAD", "/tmp/x.so"), ("FAKENFT_SERVER", "http://evil"), ("HOME", "/"),
            ("LANG", "ru_RU.UTF-8; rm -rf /"), ("LANG", "../../x"), ("LC_MESSAGES", "\u{1B}]52;c;AAAA\u{7}"),
            ("NO_COLOR", ""), ("COLORTERM", "\u{1B}[31m"), ("COLORTERM", "rainbow"), ("FAKENFT_REMOTE", "no"),
            ("FAKENFT_SSH_SESSION", "stolen"),
        ] {
            let taken = request.take(variable: name, value: value)
            #expect(!taken, "\(name)=\(value.debugDescription)")
        }
        request.askTerminal("xterm", columns: 80, rows: 24)
        let environment = request.environment(
            home: "/h", server: "http://127.0.0.1:1", shop: "SHA256:s", door: "ssh -t -p 2222 192.0.2.1",
            identity: .init(token: "t", pass: "l", keyFingerprint: "k"))
        #expect(
            Set(environment.keys) == [
                "LANG", "LC_ALL", "NO_COLOR", "COLORTERM", "TERM", "HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
                "XDG_STATE_HOME", "XDG_CACHE_HOME", "PATH", "FAKENFT_SERVER", "FAKENFT_SSH_KEY",
                "FAKENFT_SSH_SECRETS_FD", "FAKENFT_REMOTE", "FAKENFT_SSH_SHOP", "FAKENFT_SSH_DOOR",
            ], "no secret in the environment")
        #expect(environment["FAKENFT_SSH_DOOR"] == "ssh -t -p 2222 192.0.2.1")
        #expect(environment["LANG"] == "ru_RU.UTF-8" && environment["FAKENFT_SERVER"] == "http://127.0.0.1:1")
        #expect(environment["NO_COLOR"] == "1" && environment["COLORTERM"] == "truecolor")
        #expect(SSHSessionVariables.isRemote(environment) && !SSHSessionVariables.isGuest(environment))
        let secrets = SSHSessionRequest.secrets(of: .init(token: "t", pass: "l", keyFingerprint: "k"))
        #expect(SSHSessionVariables.decodeSecrets(secrets) == ["FAKENFT_TOKEN": "t", "FAKENFT_SSH_SESSION": "l"])
        // A guest's app: its session's token and secret, no key; told it is a guest's.
        let guest = request.environment(
            home: "/g", server: "http://127.0.0.1:1", shop: "SHA256:s", door: "ssh -t",
            identity: .init(token: "g", pass: "p"))
        #expect(guest["FAKENFT_SSH_KEY"] == nil && SSHSessionVariables.isGuest(guest) && guest["LANG"] == "ru_RU.UTF-8")
        let guestSecrets = SSHSessionRequest.secrets(of: .init(token: "g", pass: "p"))
        #expect(SSHSessionVariables.decodeSecrets(guestSecrets) == ["FAKENFT_TOKEN": "g", "FAKENFT_SSH_SESSION": "p"])
    }

    /// Only the secrets' names, with plain values, come through the descriptor.
    @Test func secretsAreReadByNameOnly() {
        let text =
            "FAKENFT_TOKEN=a=b\nFAKENFT_SERVER=http://evil\nFAKENFT_SSH_SESSION=\u{1B}[31m\nnoise\n"
            + "FAKENFT_SSH_SESSION=x y"
        #expect(SSHSessionVariables.decodeSecrets(text) == ["FAKENFT_TOKEN": "a=b"])
        #expect(SSHSessionVariables.encodeSecrets(["FAKENFT_TOKEN": "t", "HOME": "/"]) == "FAKENFT_TOKEN=t\n")
    }

    /// The SSH front's own addresses (a guest's, a key's) in any spelling that folds to them:
    /// refused by the rules every door uses (HTTP sign-up and the app's form).
    @Test func theFrontsAddressesCannotBeSpelledAnotherWay() {
        let guest = "guest-592bfb601d8c140b-0@guest.ssh.invalid"
        for lookAlike in [
            guest, "guest-592bfb601d8c140b-0@guest.ssh.\u{FF49}\u{FF4E}\u{FF56}\u{FF41}\u{FF4C}\u{FF49}\u{FF44}",
            "guest-592bfb601d8c140b-0@guest.ssh.\u{1D422}\u{1D427}\u{1D42F}\u{1D41A}\u{1D425}\u{1D422}\u{1D41D}",
            "guest-592bfb601d8c140b-0@guest.ssh.inval\u{200B}id", "guest-592bfb601d8c140b-0@guest.ssh.invalid.",
            "GUEST-592BFB601D8C140B-0@GUEST.SSH.INVALID", "guest-592bfb601d8c140b-0\u{FF20}guest.ssh\u{FF0E}invalid",
            "key-0123456789abcdef01234567@ssh.\u{FF29}nvalid",
        ] {
            #expect(AccountRules.emailProblem(lookAlike) == .emailInvalid, "\(lookAlike.debugDescription)")
        }
        #expect(AccountRules.emailProblem("ann@example.com") == nil)
        #expect(AccountRules.emailProblem("ann\u{FF20}example.com") == nil, "a fullwidth @ is an @: one address")
    }

    /// A disconnect before any key exchange: the version line, then one plain packet (length,
    /// padding length, the message's number, reason, text, language, 4 to 11 bytes of padding),
    /// a multiple of 8 bytes long.
    @Test func aDisconnectIsAPlainPacketAfterTheVersionLine() {
        let bytes = SSHDisconnect.bytes(reason: SSHDisconnect.tooManyConnections, "Come back soon.")
        let version = Array("SSH-2.0-FakeNFT\r\n".utf8)
        #expect(Array(bytes.prefix(version.count)) == version)
        let packet = Array(bytes.dropFirst(version.count))
        let length = packet.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        let padding = Int(packet[4])
        #expect(packet.count == 4 + length && packet.count % 8 == 0 && (4...11).contains(padding))
        #expect(packet[5] == 1 && Array(packet[6..<10]) == [0, 0, 0, 12])
        let text = packet[10..<14].reduce(0) { $0 << 8 | Int($1) }
        #expect(String(decoding: packet[14..<14 + text], as: UTF8.self) == "Come back soon.")
    }

    @Test func userNamesBecomePlainAccountNames() {
        #expect(SSHVisitorName.from(user: "\u{FF33}\u{FF54}\u{FF55}dentus") == "Studentus", "fullwidth letters folded")
        #expect(SSHVisitorName.from(user: "\u{410}dmin") == "visitor", "a Cyrillic А among Latin letters")
        #expect(AccountRules.lookAlikeKey("\u{410}\u{441}\u{435}") == AccountRules.lookAlikeKey("Ace"))
        #expect(SSHVisitorName.from(user: "alice") == "alice")
        #expect(SSHVisitorName.from(user: "Анна") == "Анна")
        #expect(SSHVisitorName.from(user: "a\u{1B}[31mb c\u{200B}d") == "a31mbcd")
        #expect(SSHVisitorName.from(user: "") == "visitor")
        #expect(SSHVisitorName.from(user: "\u{1B}\u{7}") == "visitor")
        #expect(SSHVisitorName.from(user: String(repeating: "x", count: 100)).count == 32)
    }

    @Test func sessionsAreLimitedInAllPerKeyAndPerAddress() {
        var limits = SSHLimits()
        limits.maxSessions = 5
        limits.maxSessionsPerVisitor = 2
        let admission = SSHAdmission { [limits] in limits }
        let first = try? admission.admit(key: "k1", address: "a1").get()
        _ = admission.admit(key: "k1", address: "a2")
        #expect(admission.admit(key: "k1", address: "a3") == .failure(.key))
        _ = admission.admit(key: "k2", address: "a1")
        #expect(admission.admit(key: "k3", address: "a1") == .failure(.address))
        _ = admission.admit(key: "k3", address: "a3")
        _ = admission.admit(key: "k4", address: "a4")
        #expect(admission.admit(key: "k5", address: "a5") == .failure(.full))
        if let first { admission.release(first) }
        #expect((try? admission.admit(key: "k1", address: "a5").get()) != nil, "a place freed is taken again")
        #expect(admission.running == 5)
    }

    /// New keys make accounts within an hour's budget per address (then the address is told to
    /// come back) and in all (ten times as many); a refusal in all counts nothing against the
    /// address; 0 sets no limit.
    @Test func newKeysAreLimitedPerAddressPerNetworkAndInAll() {
        let visitors = SSHNewVisitors { 2 }
        let start = ContinuousClock.now
        func admit(_ address: String, account: Bool = true, at seconds: Int = 0) -> SSHNewVisitors.Admission {
            visitors.admit(address: address, wantsAccount: account, now: start + .seconds(seconds))
        }
        #expect(admit("10.0.1.1") == .welcome && admit("10.0.1.1", account: false) == .welcome)
        #expect(admit("10.0.1.1") == .refused(.address(minutes: 60)))
        #expect(admit("10.0.1.1", at: 1_800) == .refused(.address(minutes: 30)))
        #expect(admit("10.0.1.1", at: 3_601) == .welcome, "an hour later")
        let message = SSHNewVisitors.Refusal.address(minutes: 30).message
        #expect(message.contains("come back in 30 min"), "\(message)")

        // Per network: three addresses' worth (6), whatever addresses of the /24 they come from;
        // a refusal there counts nothing against the address; another network is not touched.
        let network = SSHNewVisitors { 2 }
        for index in 0..<6 {
            #expect(network.admit(address: "10.0.2.\(index)", wantsAccount: true, now: start) == .welcome)
        }
        #expect(network.admit(address: "10.0.2.77", wantsAccount: false, now: start) == .refused(.network(minutes: 60)))
        #expect(network.admit(address: "10.0.3.1", wantsAccount: true, now: start) == .welcome)
        #expect(network.admit(address: "2001:db8::1", wantsAccount: true, now: start) == .welcome)
        #expect(SSHNewVisitors.network(of: "127.0.30.1") != SSHNewVisitors.network(of: "127.0.31.1"))

        // In all, 20 accounts an hour; a new key past them comes in as a guest, and guests still come.
        let everyone = SSHNewVisitors { 2 }
        for index in 0..<20 {
            #expect(everyone.admit(address: "10.\(index).0.1", wantsAccount: true, now: start) == .welcome)
        }
        #expect(everyone.admit(address: "10.99.0.1", wantsAccount: true, now: start) == .guestForNow)
        #expect(everyone.admit(address: "10.98.0.1", wantsAccount: false, now: start) == .welcome)
        #expect(everyone.admit(address: "10.97.0.1", wantsAccount: true, now: start + .seconds(3_601)) == .welcome)

        let unlimited = SSHNewVisitors { 0 }
        for _ in 0..<1_000 { #expect(unlimited.admit(address: "a", wantsAccount: true, now: start) == .welcome) }
    }

    /// What a visitor's app kept goes from one folder to another through its encoding: the
    /// files kept only (not the image cache, a token, or a file beside them), within the size; a
    /// state naming other paths (`..`, absolute, hidden) writes nothing there.
    @Test func aVisitorsStateTravelsWithItsFilesOnly() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("visitor-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let first = root.appendingPathComponent("first"), second = root.appendingPathComponent("second")
        let files = [
            "state/fakenft/onboarding-done": "", "config/fakenft/preferences.json": #"{"catalog":"name"}"#,
            "cache/fakenft/last-seen/abc.json": "[1]", "cache/fakenft/images/x.png": "png",
            "state/fakenft/account.json": "token", "cache/fakenft/last-seen/.hidden.tmp": "half",
            "state/fakenft/rating.json": #"{"k":{"isFinal":true}}"#, "state/fakenft/usage/x.json": "{}",
        ]
        for (path, text) in files {
            let file = first.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        let state = try #require(SSHVisitorState.read(from: first.path))
        #expect(SSHVisitorState.write(state, into: second.path) == 4)
        for path in [
            "state/fakenft/onboarding-done", "config/fakenft/preferences.json", "cache/fakenft/last-seen/abc.json",
            "state/fakenft/rating.json",  // the rating prompt's schedule: a key's, on any server
        ] {
            let copied = try? String(contentsOf: second.appendingPathComponent(path), encoding: .utf8)
            #expect(copied == files[path], "\(path)")
        }
        for path in [
            "cache/fakenft/images/x.png", "state/fakenft/account.json", "cache/fakenft/last-seen/.hidden.tmp",
            "state/fakenft/usage/x.json",
        ] {
            #expect(!FileManager.default.fileExists(atPath: second.appendingPathComponent(path).path), "\(path)")
        }
        #expect(SSHVisitorState.read(from: root.appendingPathComponent("empty").path) == nil)

        let hostile = try String(
            decoding: JSONEncoder().encode([
                "../escaped": Data("x".utf8), "/etc/evil": Data("x".utf8),
                "cache/fakenft/last-seen/../../../../escaped": Data("x".utf8),
                "cache/fakenft/last-seen/.profile": Data("x".utf8),
                "state/fakenft/onboarding-done": Data(count: SSHVisitorState.maxBytes + 1),
            ]), as: UTF8.self)
        #expect(SSHVisitorState.write(hostile, into: second.path) == 0)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("escaped").path))
        #expect(SSHVisitorState.write("not json", into: second.path) == 0)
    }

    /// The host key file is OpenSSH's: ssh-keygen reads ours (the same fingerprint), we read
    /// ssh-keygen's; a file others may read, an encrypted key and garbage are refused.
    @Test func hostKeysAreOpenSSHFiles() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("host-keys-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ours = folder.appendingPathComponent("ours").path
        let made = try SSHHostKey.load(ours, create: true)
        #expect(try SSHHostKey.load(ours, create: true).publicKey == made.publicKey, "made once, then read")
        let printed = try await spawned("/usr/bin/ssh-keygen", ["-l", "-f", ours]).output
        #expect(printed.contains(SSHHostKey.fingerprint(made.publicKey)), "\(printed)")

        let theirs = folder.appendingPathComponent("theirs").path
        _ = try await spawned("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", theirs])
        let read = try SSHHostKey.load(theirs, create: false)
        let theirPrint = try await spawned("/usr/bin/ssh-keygen", ["-l", "-f", theirs]).output
        #expect(theirPrint.contains(SSHHostKey.fingerprint(read.publicKey)))

        let locked = folder.appendingPathComponent("locked").path
        _ = try await spawned("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "a passphrase", "-f", locked])
        #expect(throws: SSHHostKey.Problem.self) { try SSHHostKey.load(locked, create: false) }
        chmod(theirs, 0o644)
        #expect(throws: SSHHostKey.Problem.self) { try SSHHostKey.load(theirs, create: false) }
        let garbage = folder.appendingPathComponent("garbage").path
        FileManager.default.createFile(
            atPath: garbage, contents: Data("-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n".utf8),
            attributes: [.posixPermissions: 0o600])
        #expect(throws: SSHHostKey.Problem.self) { try SSHHostKey.load(garbage, create: false) }
        #expect(throws: SSHHostKey.Problem.self) { try SSHHostKey.load(folder.path, create: false) }
    }

    /// A key's first visit makes its account (with the key, in one transaction), listed in
    /// `/users` once it does something; later visits find it; a link moves the key to another
    /// account; what the key's app kept is stored and read back (on either database).
    @Test func aKeyOpensOneAccount() async throws {
        try await FakeNFTServer.withStore(
            ServerConfiguration(
                dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID())"),
                postgresURL: TestStore.isPostgres ? try TestStore.newDatabase() : nil)
        ) { store in
            #expect(try await store.owner(ofKey: "SHA256:abc") == nil)
            let userID = try await store.register(
                name: "alice", email: SSHShop.address(of: "SHA256:abc"), passwordHash: "x", tokenHash: "h1",
                key: "SHA256:abc", listed: false)
            #expect(try await store.owner(ofKey: "SHA256:abc") == userID)
            await #expect(throws: StoreError.emailTaken) {
                try await store.register(
                    name: "alice", email: SSHShop.address(of: "SHA256:abc"), passwordHash: "x", tokenHash: "h2",
                    key: "SHA256:abc")
            }
            // A key's account is not in `/users` until it does something: a cart change lists it.
            #expect(!store.latest.userRecords.contains { $0.id == userID })
            #expect(store.unusedUserName("alice") == "alice", "a name not listed is free")
            let nft = try #require(store.latest.prices.keys.sorted().first)
            _ = try await store.updateOrder(nfts: [nft], owner: userID)
            #expect(store.latest.userRecords.contains { $0.id == userID })
            #expect(store.unusedUserName("alice") == "alice-2" && store.unusedUserName("alicia") == "alicia")
            #expect(store.unusedUserName("\u{430}lice") == "\u{430}lice-2", "a Cyrillic а looks like alice's a")
            #expect(
                store.unusedUserName("Студентус Практикумус") == "Студентус Практикумус-2", "the shared profile's name")
            let other = try await store.register(
                name: "anna", email: "anna@example.com", passwordHash: "x", tokenHash: "h3")
            #expect(store.latest.userRecords.contains { $0.id == other }, "an account made by signing up is listed")
            try await store.link(key: "SHA256:abc", to: other)
            #expect(try await store.owner(ofKey: "SHA256:abc") == other)
            // What the key's app kept: none yet, then the latest kept.
            #expect(try await store.visitorState(ofKey: "SHA256:abc") == nil)
            try await store.keep(visitorState: "first", ofKey: "SHA256:abc")
            try await store.keep(visitorState: "second", ofKey: "SHA256:abc")
            #expect(try await store.visitorState(ofKey: "SHA256:abc") == "second")
            #expect(try await store.visitorState(ofKey: "SHA256:other") == nil)
        }
    }
}

/// Accounts the server makes for itself are told apart by what they are, not by their addresses.
@Suite struct GuestAccountTests {
    /// An account a person holds at a guest account's address (signed up in a look-alike spelling
    /// before the rules folded it) is never lent to a guest: its slot is passed over, the next
    /// guest gets an account the server made, and nobody can sign in to that with an address.
    @Test func aGuestIsLentOnlyAnAccountMadeForGuests() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("guests-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await FakeNFTServer.withStore(
            ServerConfiguration(
                dataDirectory: folder, postgresURL: TestStore.isPostgres ? try TestStore.newDatabase() : nil)
        ) { store in
            let guests = SSHGuestAccounts(store: store)
            let squatter = try await store.register(
                name: "attacker", email: SSHGuestAccounts.address(ofSlot: 0), passwordHash: "bcrypt", tokenHash: "a")
            let slot = try await guests.borrow(tokenHash: "g1")
            #expect(slot == 1, "the squatted slot 0 is passed over")
            let lent = try #require(try await store.account(email: SSHGuestAccounts.address(ofSlot: 1)))
            #expect(lent.isGuests && !lent.isPersons && lent.userID != squatter)
            #expect(try await store.signedIn(tokenHash: "g1") == lent.userID)
            #expect(try await store.account(userID: squatter)?.isPersons == true)
            #expect(try await store.endSession(tokenHash: "g1"), "the guest's session ends: its account is free")
            #expect(try await guests.borrow(tokenHash: "g2") == 1, "slot 0 stays passed over")
        }
    }

    /// Two servers on one database (two stores, each lending guest accounts) never lend one
    /// guest account to two guests, however many ask at once; an account whose sign-in has ended
    /// (the session's end, or the next start's after a crash) is lent again, the lowest first.
    @Test func serversSharingADatabaseNeverLendOneGuestAccountTwice() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shared-guests-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = ServerConfiguration(
            dataDirectory: folder, postgresURL: TestStore.isPostgres ? try TestStore.newDatabase() : nil)
        try await FakeNFTServer.withStore(configuration) { one in
            configuration.reset = false
            try await FakeNFTServer.withStore(configuration) { other in
                let first = SSHGuestAccounts(store: one), second = SSHGuestAccounts(store: other)
                let slots = try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<8 {
                        group.addTask { try await (index % 2 == 0 ? first : second).borrow(tokenHash: "t\(index)") }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(slots.sorted() == Array(0..<8), "\(slots.sorted())")
                let holder = try #require(try await one.signedIn(tokenHash: "t3"))
                #expect(try await one.endSession(tokenHash: "t3"))
                let again = try await second.borrow(tokenHash: "t8")
                #expect(try await other.account(email: SSHGuestAccounts.address(ofSlot: again))?.userID == holder)
                #expect(try await first.borrow(tokenHash: "t9") == 8)
            }
        }
    }

    /// A guest's log out is a fresh guest visit: its account cleared (likes, cart), its sign-in
    /// still the session's; anyone else's log out ends their sign-in.
    @Test func aGuestsLogOutIsAFreshGuestVisit() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("guest-logout-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = ServerConfiguration(
            port: 0, dataDirectory: folder, postgresURL: TestStore.isPostgres ? try TestStore.newDatabase() : nil)
        let token = Tokens.make()
        try await FakeNFTServer.withStore(configuration) { store in
            _ = try await SSHGuestAccounts(store: store).borrow(tokenHash: Tokens.hash(token))
        }
        configuration.reset = false
        let server = TestServer(server: try await FakeNFTServer.start(configuration), configuration: configuration)
        let headers = ["X-Practicum-Mobile-Token": token]
        let form = "application/x-www-form-urlencoded"
        #expect(
            try await server.request("PUT", "/api/v1/profile/1", body: "likes=1,2", contentType: form, headers: headers)
                .status == 200)
        #expect(
            try await server.request("PUT", "/api/v1/orders/1", body: "nfts=3", contentType: form, headers: headers)
                .status == 200)
        #expect(try await server.request("POST", "/api/v1/auth/logout", headers: headers).status == 204)
        #expect(try await server.request("GET", "/api/v1/auth/session", headers: headers).status == 200)
        let (_, profile) = try await server.request("GET", "/api/v1/profile/1", headers: headers)
        let (_, order) = try await server.request("GET", "/api/v1/orders/1", headers: headers)
        #expect(try JSONDecoder().decode(Profile.self, from: profile).likes.isEmpty)
        #expect(try JSONDecoder().decode(Order.self, from: order).nfts.isEmpty)
        await server.stop()
    }

    /// What a server killed without a word left (its sessions' sign-ins, a guest's folder) is
    /// ended by the next start on the folder; a live process's sessions are left alone.
    @Test func aCrashedServersSessionsEndAtTheNextStart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = SSHSessionLedger(folder: folder)
        let guestFolder = folder.appendingPathComponent("guests/g1")
        try FileManager.default.createDirectory(at: guestFolder, withIntermediateDirectories: true)
        ledger.record(tokenHash: "live", guestFolder: nil)
        let gone = Int32(
            try await spawned("/bin/sh", ["-c", "echo $$"]).output.trimmingCharacters(in: .whitespacesAndNewlines))!
        let left = SSHSessionLedger.Entry(pid: gone, tokenHash: "left", guestFolder: guestFolder.path)
        try JSONEncoder().encode(left).write(to: folder.appendingPathComponent("sessions/\(gone)-left"))
        let ended = Mutex<[String]>([])
        #expect(await ledger.recover { hash in ended.withLock { $0.append(hash) } } == 1)
        #expect(ended.withLock { $0 } == ["left"], "the live process's session stays")
        #expect(!FileManager.default.fileExists(atPath: guestFolder.path))
        #expect(await ledger.recover { _ in } == 0, "ended once")
    }

    /// Over HTTP: no spelling of a guest's or a key's address signs up; the guest's own address
    /// signs in with no password; a person's look-alike address signs in as that person.
    @Test func noSpellingOfTheFrontsAddressesSignsUpOrIn() async throws {
        try await TestServer.with { server async throws in
            for email in [
                "guest-0-0@guest.ssh.\u{FF49}nvalid", "key-0@ssh.\u{1D422}nvalid", "guest-0-0@guest.ssh.invalid.",
                "guest-0-0@guest.ssh.inv\u{200B}alid",
            ] {
                let (status, _) = try await server.request(
                    "POST", "/api/v1/auth/register",
                    body: FormEncoding.encode([("name", "x"), ("email", email), ("password", "good pass 1")]))
                #expect(status == 400, "\(email.debugDescription)")
            }
            for password in ["", "!key-only", "x"] {
                let (status, _) = try await server.request(
                    "POST", "/api/v1/auth/login",
                    body: FormEncoding.encode([("email", "guest-0-0@guest.ssh.invalid"), ("password", password)]))
                #expect(status == 401 || status == 429)
            }
        }
    }
}

/// The SSH front's listener against clients that are not SSH, are silent, or come too many.
@Suite struct SSHListenerTests {
    /// A server with an SSH front whose handshake deadline is a second and which takes two
    /// connections from one address.
    private static func server() async throws -> RunningServer {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("ssh-listener-\(UUID())")
        var configuration = ServerConfiguration(
            port: 0, dataDirectory: data, postgresURL: TestStore.isPostgres ? try TestStore.newDatabase() : nil)
        var ssh = SSHConfiguration(host: "127.0.0.1", port: 0, appExecutable: "/bin/false")
        ssh.handshakeLimit = .seconds(1)
        ssh.limits.maxSessionsPerVisitor = 1
        configuration.ssh = ssh
        return try await FakeNFTServer.start(configuration)
    }

    /// One line in the log for each ended session (JSON under `--log-format json`): the key, the
    /// address, the terminal, its size, the seconds, the exit status and how it ended. The app
    /// here is `/bin/false`: it ends at once with status 1.
    @Test func anEndedSessionIsLoggedInOneLine() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("ssh-log-\(UUID())")
        defer { try? FileManager.default.removeItem(at: data) }
        var configuration = ServerConfiguration(
            port: 0, dataDirectory: data, postgresURL: TestStore.isPostgres ? try TestStore.newDatabase() : nil)
        configuration.logRequests = true
        configuration.logFormat = .json
        configuration.ssh = SSHConfiguration(host: "127.0.0.1", port: 0, appExecutable: "/bin/false")
        let server = try await FakeNFTServer.start(configuration)
        let port = try #require(server.sshPort)
        let key = data.appendingPathComponent("visitor_key").path
        #expect(try await spawned("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", key]).status == 0)
        // Its input stays open while the app runs (an input at its end closes the session; a
        // session that starts slowly beside the whole suite must still find it open).
        let visit = try await spawned(
            "/bin/bash",
            [
                "-c",
                "TERM=xterm ssh -tt -p \(port) -F /dev/null -o StrictHostKeyChecking=no "
                    + "-o UserKnownHostsFile=/dev/null -o BatchMode=yes -o IdentitiesOnly=yes -i \(key) "
                    + "ann@127.0.0.1 < <(sleep 60)",
            ])
        #expect(visit.status == 1, "\(visit.output)")
        let log = data.appendingPathComponent("server.log")
        var line = ""
        _ = await polled(every: .milliseconds(50), within: .seconds(20)) {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            line = text.split(separator: "\n").last { $0.contains("SSH session ended") }.map(String.init) ?? ""
            return !line.isEmpty
        }
        let fields = try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], "\(line)")
        #expect(fields["key"]?.hasPrefix("SHA256:") == true && fields["address"] == "127.0.0.1", "\(fields)")
        #expect(fields["term"] == "xterm" && fields["status"] == "1" && fields["ending"] == "quit", "\(fields)")
        #expect(fields["size"]?.range(of: #"^[0-9]+x[0-9]+$"#, options: .regularExpression) != nil, "\(fields)")
        #expect(fields["seconds"].flatMap(Int.init) != nil, "\(fields)")
        await server.stop()
    }

    @Test func garbageSilenceAndCrowdsHoldNoPlace() async throws {
        let server = try await Self.server()
        let port = try #require(server.sshPort)
        // Three connections from one address, two allowed: one is told why in an SSH disconnect
        // message and closed, the two others are served (which two depends on the order they are
        // set up in).
        do {
            let crowd = try (0..<3).map { _ in try RawConnection(port: port) }
            var answers: [(text: String, closed: Bool)] = []
            for connection in crowd { answers.append(await connection.receive(timeout: 10) { $0.contains("\n") }) }
            let refused = answers.filter { $0.text.contains("Your address has as many connections open as it may") }
            #expect(refused.count == 1, "\(answers)")
            #expect(answers.filter { $0.text.hasPrefix("SSH-2.0-") }.count == 3, "\(answers)")
        }
        // Not SSH: closed at once after the version line; silent: closed at the handshake deadline;
        // hostile bytes of every kind: closed, never the server.
        let hostile = [
            "GET / HTTP/1.1\r\nHost: x\r\n\r\n", "", "SSH-2.0-x\r\n" + String(repeating: "\u{0}\u{ff}", count: 40_000),
            "SSH-1.5-old\r\n", "\r\n\r\n",
        ]
        for bytes in hostile {
            var admitted: RawConnection?
            _ = try await polled(every: .milliseconds(50), within: .seconds(20)) {
                let connection = try RawConnection(port: port)  // once the closed ones are counted out
                guard await connection.receive(timeout: 2, until: { $0.contains("\n") }).text.hasPrefix("SSH-2.0-")
                else { return false }
                admitted = connection
                return true
            }
            let connection = try #require(admitted)
            if !bytes.isEmpty { connection.send(bytes) }
            #expect(await connection.receive(timeout: 10) { _ in false }.closed, "\(bytes.prefix(20).debugDescription)")
        }
        let api = try await URLSession.shared.data(from: server.baseURL.appendingPathComponent("api/v1/currencies"))
        #expect((api.1 as? HTTPURLResponse)?.statusCode == 200)
        await server.stop()
    }
}

/// The PROXY protocol's line before SSH, from a trusted proxy: parsed strictly, read in pieces.
@Suite struct ProxyHeaderTests {
    @Test func linesAreParsedStrictly() {
        #expect(ProxyHeader.clientAddress("PROXY TCP4 192.168.0.1 127.0.0.1 56324 2222") == "192.168.0.1")
        #expect(ProxyHeader.clientAddress("PROXY TCP6 2001:db8::1 ::1 56324 2222") == "2001:db8::1")
        #expect(ProxyHeader.clientAddress("PROXY UNKNOWN") == "")
        for bad in [
            "PROXY TCP4 192.168.0.1 127.0.0.1 56324", "PROXY TCP4 192.168.0.999 127.0.0.1 1 2",
            "PROXY TCP6 192.168.0.1 127.0.0.1 1 2", "PROXY TCP4 1.2.3.4 5.6.7.8 0 2",
            "PROXY TCP4 1.2.3.4 5.6.7.8 1 65536",
            "PROXY TCP4 1.2.3.4 5.6.7.8 01 2", "PROXY  TCP4 1.2.3.4 5.6.7.8 1 2", "proxy TCP4 1.2.3.4 5.6.7.8 1 2",
            "PROXY TCP4 1.2.3.4\u{1B}[2J 5.6.7.8 1 2", "PROXY TCP4 " + String(repeating: "1", count: 200),
        ] {
            #expect(ProxyHeader.clientAddress(Substring(bad)) == nil, "\(bad)")
        }
    }

    @Test(arguments: [1, 3, 100]) func theReaderTakesTheLineInPiecesAndPassesTheRest(piece: Int) throws {
        let peer = ConnectionPeer(address: "127.0.0.1")
        let channel = EmbeddedChannel(handler: ProxyHeaderReader(peer: peer))
        let bytes = Array("PROXY TCP4 10.1.2.3 127.0.0.1 5555 2222\r\nSSH-2.0-OpenSSH_9.2\r\n".utf8)
        for start in stride(from: 0, to: bytes.count, by: piece) {
            try channel.writeInbound(ByteBuffer(bytes: bytes[start..<min(start + piece, bytes.count)]))
        }
        var passed = ""
        while let buffer = try channel.readInbound(as: ByteBuffer.self) { passed += String(buffer: buffer) }
        #expect(peer.address == "10.1.2.3")
        #expect(passed == "SSH-2.0-OpenSSH_9.2\r\n")
    }

    @Test func aDirectConnectionPassesUntouchedAndABrokenLineCloses() throws {
        let peer = ConnectionPeer(address: "127.0.0.1")
        let direct = EmbeddedChannel(handler: ProxyHeaderReader(peer: peer))
        try direct.writeInbound(ByteBuffer(string: "SSH-2.0-x\r\n"))
        #expect(try direct.readInbound(as: ByteBuffer.self).map { String(buffer: $0) } == "SSH-2.0-x\r\n")
        #expect(peer.address == "127.0.0.1")
        for broken in ["PROXY TCP4 nonsense\r\n", "PROXY " + String(repeating: "x", count: 200)] {
            let channel = EmbeddedChannel(handler: ProxyHeaderReader(peer: peer))
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
            try channel.writeInbound(ByteBuffer(string: broken))
            #expect(!channel.isActive, "\(broken.prefix(30)) closes the connection")
        }
    }
}
