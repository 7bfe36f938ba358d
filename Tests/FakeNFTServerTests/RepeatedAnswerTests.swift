import FakeNFTModels
import Foundation
import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Synchronization
import Testing
import FakeNFTTesting
@testable import FakeNFTServer

/// A repeated catalog read answered on the event loop (``RepeatedAnswerHandler``): the same
/// bytes the router gave, only while nothing changed, never out of order, never for a request
/// that differs in any byte; and on a running server, read-your-writes and the metrics hold.
@Suite struct RepeatedAnswerTests {
    /// Stands for the router: answers every request with its count in the body, marked as
    /// repeatable from the read model now; while `holding`, keeps the answers until `release()`.
    final class CountingRouter: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPRequestPart
        typealias OutboundOut = HTTPResponsePart
        let model: Model
        var requests: [HTTPRequest] = []
        var holding = false
        /// What its answers say they are made from.
        var source = RepeatedAnswers.Source.model
        private var held = 0
        private var context: ChannelHandlerContext?
        var status = HTTPResponse.Status.ok

        init(model: Model) { self.model = model }

        func handlerAdded(context: ChannelHandlerContext) { self.context = context }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let request): requests.append(request)
            case .body: break
            case .end:
                if holding { held += 1 } else { answer(requests.count) }
            }
        }

        func release() {
            for number in (requests.count - held + 1)...requests.count { answer(number) }
            held = 0
        }

        private func answer(_ number: Int) {
            guard let context else { return }
            var head = HTTPResponse(status: status)
            head.headerFields[.contentType] = "application/json"
            head.headerFields[RepeatedAnswers.marker] = RepeatedAnswers.mark(
                source, revision: model.revision(of: source), route: "/api/v1/nft/{id}")
            head.headerFields[ConsistencyMiddleware.header] = String(model.generation)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(ByteBuffer(string: "answer \(number)"))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    /// The read model's publication, its NFT table's revision and its generation, as the
    /// handler and the router read them, moved by a test.
    final class Model: Sendable {
        private let publication = Atomic(1)
        private let nfts = Atomic(1)
        private let reached = Atomic(1)
        var generation: Int { reached.load(ordering: .relaxed) }

        func revision(of source: RepeatedAnswers.Source) -> Int {
            source == .model ? publication.load(ordering: .relaxed) : nfts.load(ordering: .relaxed)
        }

        /// A change that leaves the NFTs as they were, or (`nfts`) one that changes them too.
        func change(nfts changesNFTs: Bool = false) {
            publication.add(1, ordering: .relaxed)
            reached.add(1, ordering: .relaxed)
            if changesNFTs { nfts.add(1, ordering: .relaxed) }
        }
    }

    /// A channel with the handler before a ``CountingRouter``, and the model they read.
    struct Rig {
        let channel: EmbeddedChannel
        let router: CountingRouter
        let model = Model()
        let answers: RepeatedAnswers

        init() throws {
            let model = model
            answers = RepeatedAnswers(metrics: ServerMetrics(), generation: { model.generation }) {
                model.revision(of: $0)
            }
            router = CountingRouter(model: model)
            channel = EmbeddedChannel()
            try channel.pipeline.syncOperations.addHandlers([RepeatedAnswerHandler(answers: answers), router])
        }

        func send(
            _ path: String = "/api/v1/nft/1", method: HTTPRequest.Method = .get, authority: String = "127.0.0.1:8080",
            fields: HTTPFields = [.userAgent: "test"]
        ) throws {
            let request = HTTPRequest(
                method: method, scheme: "http", authority: authority, path: path, headerFields: fields)
            try channel.writeInbound(HTTPRequestPart.head(request))
            try channel.writeInbound(HTTPRequestPart.end(nil))
        }

        /// Every whole answer written so far: head and body text.
        func answered() throws -> [(head: HTTPResponse, body: String)] {
            var answers: [(HTTPResponse, String)] = []
            var head: HTTPResponse?
            var body = ""
            while let part = try channel.readOutbound(as: HTTPResponsePart.self) {
                switch part {
                case .head(let started): (head, body) = (started, "")
                case .body(let buffer): body += String(buffer: buffer)
                case .end: if let head { answers.append((head, body)) }
                }
            }
            return answers
        }
    }

    @Test func aRepeatGetsTheRoutersAnswerWithoutTheRouter() throws {
        let rig = try Rig()
        try rig.send()
        try rig.send()
        let answers = try rig.answered()
        #expect(rig.router.requests.count == 1, "the second request never reached the router")
        #expect(answers.map(\.body) == ["answer 1", "answer 1"])
        #expect(answers[0].head == answers[1].head)
        #expect(answers.allSatisfy { $0.head.headerFields[RepeatedAnswers.marker] == nil }, "the mark stays inside")
        #expect(answers[1].head.headerFields[.contentType] == "application/json")
    }

    @Test func aChangeEndsTheRepeats() throws {
        let rig = try Rig()
        try rig.send()
        rig.model.change()
        try rig.send()
        try rig.send()
        #expect(try rig.answered().map(\.body) == ["answer 1", "answer 2", "answer 2"])
        #expect(rig.router.requests.count == 2)
    }

    /// A catalog answer outlives changes to other tables, and carries the generation reached
    /// since; a change to its table ends it.
    @Test func aCatalogAnswerLastsWhileItsTableDoes() throws {
        let rig = try Rig()
        rig.router.source = .catalog(.nfts)
        try rig.send()
        rig.model.change()
        try rig.send()
        rig.model.change(nfts: true)
        try rig.send()
        let answers = try rig.answered()
        #expect(answers.map(\.body) == ["answer 1", "answer 1", "answer 2"])
        #expect(answers.map { $0.head.headerFields[ConsistencyMiddleware.header] } == ["1", "2", "3"])
        #expect(rig.router.requests.count == 2)
    }

    /// A catalog answer is the same whoever asks: one is kept for every token. Any other answer
    /// is kept per token (whose profile it is), and none for another one.
    @Test(arguments: [RepeatedAnswers.Source.catalog(.nfts), .model])
    func onlyCatalogAnswersAreSharedBetweenTokens(source: RepeatedAnswers.Source) throws {
        let rig = try Rig()
        rig.router.source = source
        let token = AuthRoutes.tokenHeader
        for fields: HTTPFields in [[token: "a"], [token: "b"], [:], [token: "a"], [token: "b"], [:]] {
            try rig.send(fields: fields)
        }
        let bodies = try rig.answered().map(\.body)
        if source == .model {
            #expect(bodies == ["answer 1", "answer 2", "answer 3", "answer 1", "answer 2", "answer 3"])
        } else {
            #expect(bodies == Array(repeating: "answer 1", count: 6))
        }
        let other = try #require(
            RepeatedAnswers.key(
                HTTPRequest(
                    method: .get, scheme: "http", authority: "a", path: "/api/v1/nft/1",
                    headerFields: [token: "a", .accept: "x"])))
        #expect(other.token == "a\n" && !other.request.contains("a\n"), "the token apart from the rest")
    }

    /// Another path, host, method or header value, a body, `Connection: close`: each its own request.
    @Test func onlyTheVeryRequestIsRepeated() throws {
        let rig = try Rig()
        try rig.send()
        try rig.send("/api/v1/nft/2")
        try rig.send("/api/v1/nft/1?x=1")
        try rig.send(authority: "example.com")
        try rig.send(method: .head)
        try rig.send(method: .post)
        try rig.send(fields: [.userAgent: "other"])
        try rig.send(fields: [.userAgent: "test", .acceptLanguage: "ru"])
        try rig.send(fields: [.userAgent: "test", .contentLength: "0"])
        try rig.send(fields: [.userAgent: "test", .transferEncoding: "chunked"])
        try rig.send(fields: [.userAgent: "test", .expect: "100-continue"])
        try rig.send(fields: [.userAgent: "test", .connection: "Close"])
        #expect(rig.router.requests.count == 12)
        try rig.send()  // after a request that closes, nothing is answered here
        #expect(rig.router.requests.count == 13)
        #expect(try rig.answered().count == 13)
    }

    @Test func aRequestBehindOnePassedOnWaitsItsTurn() throws {
        let rig = try Rig()
        try rig.send()
        _ = try rig.answered()
        rig.router.holding = true
        try rig.send("/api/v1/nft/2")
        try rig.send()  // repeatable, but the one before it is not answered yet
        #expect(try rig.answered().isEmpty)
        #expect(rig.router.requests.count == 3, "passed on behind the first")
        rig.router.release()
        #expect(try rig.answered().map(\.body) == ["answer 2", "answer 3"])
    }

    /// A client that does not read its answers gets nothing more written for it here: the
    /// router's writes wait for it, and with them the reading of its requests.
    @Test func aClientThatDoesNotReadGetsNoRepeats() throws {
        let rig = try Rig()
        try rig.send()
        rig.channel.isWritable = false
        try rig.send()
        #expect(rig.router.requests.count == 2, "passed on to the router")
        rig.channel.isWritable = true
        try rig.send()
        #expect(rig.router.requests.count == 2, "repeated again")
        #expect(try rig.answered().map(\.body) == ["answer 1", "answer 2", "answer 2"])
    }

    @Test func onlyWholeMarkedSuccessesAreKept() throws {
        let rig = try Rig()
        rig.router.status = .notFound
        try rig.send()
        try rig.send()
        #expect(rig.router.requests.count == 2, "a 404 is not repeated")
        let answers = try rig.answered()
        #expect(answers.allSatisfy { $0.head.headerFields[RepeatedAnswers.marker] == nil })
        #expect(rig.answers.count == 0)
    }

    @Test func answersLiveASecond() throws {
        let answers = RepeatedAnswers(metrics: ServerMetrics(), generation: { 1 }) { _ in 7 }
        var head = HTTPResponse(status: .ok)
        head.headerFields[RepeatedAnswers.marker] = RepeatedAnswers.mark(.model, revision: 7, route: "/r")
        let made = NIODeadline.now(), key = RepeatedAnswers.Key(request: "k", token: "")
        answers.keep(head, body: ByteBuffer(string: "x"), for: key, now: made)
        let kept = answers.answer(to: key, now: made + .milliseconds(900))
        #expect(kept?.body == ByteBuffer(string: "x") && kept?.head.headerFields[RepeatedAnswers.marker] == nil)
        #expect(answers.answer(to: key, now: made + .milliseconds(1001)) == nil)
    }

    @Test func keptAnswersAreBounded() throws {
        let answers = RepeatedAnswers(metrics: ServerMetrics(), generation: { 1 }) { _ in 1 }
        var head = HTTPResponse(status: .ok)
        head.headerFields[RepeatedAnswers.marker] = RepeatedAnswers.mark(.model, revision: 1, route: "/r")
        let large = ByteBuffer(repeating: 0x41, count: RepeatedAnswers.largestAnswer + 1)
        answers.keep(head, body: large, for: .init(request: "large", token: ""))
        #expect(answers.count == 0, "an answer over the limit is not kept")
        for number in 0..<RepeatedAnswers.capacity {
            answers.keep(head, body: ByteBuffer(), for: .init(request: "\(number)", token: ""))
        }
        #expect(answers.count == RepeatedAnswers.capacity)
        answers.keep(head, body: ByteBuffer(), for: .init(request: "one more", token: ""))
        #expect(answers.count == 1, "past the capacity the answers start again")
        let long = HTTPRequest(
            method: .get, scheme: "http", authority: "a", path: "/api/v1/nft/1",
            headerFields: [.userAgent: String(repeating: "u", count: RepeatedAnswers.longestRequest)])
        #expect(RepeatedAnswers.key(long) == nil, "a request past the limit has no key")
        let longToken = HTTPRequest(
            method: .get, scheme: "http", authority: "a", path: "/api/v1/nft/1",
            headerFields: [AuthRoutes.tokenHeader: String(repeating: "t", count: RepeatedAnswers.longestRequest)])
        #expect(RepeatedAnswers.key(longToken) == nil, "nor one whose token takes it past")
        #expect(
            RepeatedAnswers.key(
                HTTPRequest(method: .get, scheme: "http", authority: "a", path: "/images/x.png", headerFields: [:]))
                == nil)
    }

    // MARK: On a running server

    /// The same request over one connection, as a client repeats it: the same answer, byte for
    /// byte but the date, and the mark never sent.
    @Test func aRunningServerRepeatsItsBytes() async throws {
        try await TestServer.with { server async throws in
            let connection = try RawConnection(port: server.port)
            var answers: [String] = []
            for _ in 0..<3 {
                connection.send("GET /api/v1/nft/1 HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
                let answer = await connection.receive(timeout: 10) { $0.hasSuffix("}") }
                answers.append(answer.text)
            }
            let undated = answers.map { $0.split(separator: "\r\n").filter { !$0.hasPrefix("Date:") } }
            #expect(undated[0] == undated[1] && undated[1] == undated[2], "\(answers)")
            #expect(answers.allSatisfy { !$0.lowercased().contains("fakenft-repeatable") })
            let fresh = try await server.request("GET", "/api/v1/nft/1").body
            #expect(answers[2].hasSuffix("\r\n\r\n" + String(decoding: fresh, as: UTF8.self)))
        }
    }

    /// A client reads its write at once, however often it asked the same before; and every
    /// answer, repeated or not, is counted.
    @Test func aWriteIsReadAtOnceAndRepeatsAreCounted() async throws {
        try await TestServer.with { server async throws in
            let anna = try await AccountTests.register(server, "Anna", "anna-repeats@example.com")
            let path = "/api/v1/users/\(anna.userId)"
            for _ in 0..<3 { #expect(try await server.get(path, as: User.self).name == "Anna") }
            try await AccountTests.put(server, "/api/v1/profile/1", [("name", "Anna K.")], token: anna.token)
            for _ in 0..<3 { #expect(try await server.get(path, as: User.self).name == "Anna K.") }
            let metrics = String(decoding: try await server.request("GET", "/metrics").body, as: UTF8.self)
            let count = metrics.split(separator: "\n").first {
                $0.hasPrefix("fakenft_http_requests_total{")
                    && $0.contains("route=\"/api/v1/users/{id}\"") && $0.contains("status=\"200\"")
            }
            #expect(count?.hasSuffix(" 6") == true, "\(count ?? "none")")
            // Each first read came through the router, most of those after it were repeats (any that
            // came more than a second after the first one answered went through the router again).
            let repeats = metrics.split(separator: "\n").first { $0.hasPrefix("fakenft_http_answers_repeated_total") }
            let repeated = repeats.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
            #expect((1...4).contains(repeated), "\(repeats ?? "none")")
        }
    }

    /// A catalog read repeats for every token and across other tables' changes, and always
    /// carries at least the generation of the change its reader made just before.
    @Test func catalogReadsRepeatForEveryTokenAcrossOtherChanges() async throws {
        try await TestServer.with { server async throws in
            let anna = try await AccountTests.register(server, "Anna", "anna-catalog@example.com")
            let boris = try await AccountTests.register(server, "Boris", "boris-catalog@example.com")
            func read(_ token: String) async throws -> (body: Data, generation: Int) {
                let answer = try await server.exchange(
                    "GET", "/api/v1/nft/1", headers: ["X-Practicum-Mobile-Token": token])
                #expect(answer.status == 200)
                return (answer.body, Int(answer.headers["fakenft-generation"] ?? "") ?? -1)
            }
            for round in 1...5 {
                let first = try await read(anna.token)
                let like = try await server.exchange(
                    "PUT", "/api/v1/profile/1", body: "likes=\(round)",
                    contentType: "application/x-www-form-urlencoded",
                    headers: ["X-Practicum-Mobile-Token": boris.token])
                let written = try #require(Int(like.headers["fakenft-generation"] ?? ""))
                let again = try await read(boris.token)
                #expect(again.body == first.body)
                #expect(again.generation >= written, "round \(round): \(again.generation) < \(written)")
            }
            let metrics = String(decoding: try await server.request("GET", "/metrics").body, as: UTF8.self)
            let repeats = metrics.split(separator: "\n").first { $0.hasPrefix("fakenft_http_answers_repeated_total") }
            // Each read after the first may be a repeat (no change touched the NFTs), unless more than
            // a second passed since the first, on a very slow machine.
            #expect((1...9).contains(repeats.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0))
        }
    }

    /// On a server that requires a token, a catalog answer depends on the token's sign-in: once
    /// signed out, the token is refused at once, however often it read the same just before.
    @Test func aSignedOutTokenGetsNoRepeatWhereTokensAreRequired() async throws {
        try await TestServer.with(token: "class-token") { server async throws in
            let anna = try await AccountTests.register(server, "Anna", "anna-token@example.com")
            let headers = ["X-Practicum-Mobile-Token": anna.token]
            for _ in 0..<3 { #expect(try await server.request("GET", "/api/v1/nft/1", headers: headers).status == 200) }
            #expect(try await server.request("POST", "/api/v1/auth/logout", headers: headers).status == 204)
            #expect(try await server.request("GET", "/api/v1/nft/1", headers: headers).status == 401)
        }
    }

    /// The caller's profile repeats too, unless the server notes what each client saw of its
    /// lists (a repeat would not note it).
    @Test(arguments: ServerConfiguration.ListWrites.allCases)
    func ownReadsRepeatUnlessListsAreMerged(lists: ServerConfiguration.ListWrites) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("repeats-\(UUID())")
        var configuration = ServerConfiguration(
            port: 0, dataDirectory: directory, postgresURL: TestStore.isPostgres ? try TestStore.newDatabase() : nil)
        configuration.listWrites = lists
        let server = TestServer(server: try await FakeNFTServer.start(configuration), configuration: configuration)
        for _ in 0..<5 { #expect(try await server.request("GET", "/api/v1/profile/1").status == 200) }
        let metrics = String(decoding: try await server.request("GET", "/metrics").body, as: UTF8.self)
        await server.stop()
        let repeats = metrics.split(separator: "\n").first { $0.hasPrefix("fakenft_http_answers_repeated_total") }
        let repeated = repeats.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        if lists == .merge {
            #expect(repeated == 0, "\(repeats ?? "none")")
        } else {
            #expect((1...4).contains(repeated), "\(repeats ?? "none")")
        }
    }

    /// While every request is logged, repeats are logged as any request is: one line each.
    @Test func loggedRequestsAreLoggedRepeatedOrNot() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("repeats-\(UUID())")
        let configuration = ServerConfiguration(
            port: 0, dataDirectory: directory, logRequests: true,
            postgresURL: TestStore.isPostgres ? try TestStore.newDatabase() : nil)
        let server = TestServer(server: try await FakeNFTServer.start(configuration), configuration: configuration)
        for _ in 0..<5 { #expect(try await server.request("GET", "/api/v1/currencies?x=1").status == 200) }
        let metrics = String(decoding: try await server.request("GET", "/metrics").body, as: UTF8.self)
        let log = directory.appendingPathComponent("server.log")
        var lines: [Substring] = []
        _ = await polled {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            lines = text.split(separator: "\n").filter {
                $0.contains("Request") && $0.contains("/api/v1/currencies?x=1")
            }
            return lines.count >= 5
        }
        await server.stop()
        #expect(lines.count == 5, "\(lines)")
        #expect(lines.allSatisfy { $0.contains("GET") })
        let repeats = metrics.split(separator: "\n").first { $0.hasPrefix("fakenft_http_answers_repeated_total") }
        #expect((1...4).contains(repeats.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0), "\(repeats ?? "")")
    }
}
