import Foundation
import Glibc
import Testing
import FakeNFTTesting
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension EndToEnd {
    /// `fakenft serve` as a process: what it does when its output goes nowhere.
    @Suite(.timeLimit(.minutes(5))) struct ServeEndToEndTests {
        /// Like `fakenft serve | true`: stdout and stderr are a pipe nobody will ever read.
        @Test func aClosedStdoutAndStderrDoNotStopIt() async throws {
            let server = try ServeProcess(keepReader: false)
            defer { server.stop() }
            try await server.waitUntilAnswering()
            for i in 0..<50 { #expect(try await server.status("/api/v1/nft/\(i % 95 + 1)") == 200) }
            #expect(try await server.status("/api/v1/nope") == 404, "an error line is logged too")
            #expect(server.isRunning)
        }

        /// stdout and stderr are a pipe that is never read: once it is full, log lines are dropped
        /// and requests are still answered.
        @Test func aFullStdoutDoesNotBlockIt() async throws {
            let server = try ServeProcess(keepReader: true)
            defer { server.stop() }
            try await server.waitUntilAnswering()
            // Each request logs a line of about 150 bytes: 1,500 of them overflow a 64 KiB pipe.
            for i in 0..<1_500 { #expect(try await server.status("/api/v1/users/\(i % 100 + 1)") == 200) }
            #expect(server.isRunning)
        }
    }
}

extension EndToEnd.ServeEndToEndTests {
    /// `--log-format json`: every line the process writes, the start's too, is a JSON object, so
    /// a log collector reading its output reads them all.
    @Test func jsonLogsAreJSONLinesOnly() async throws {
        let server = try ServeProcess(keepReader: true, arguments: ["--log-format", "json"])
        defer { server.stop() }
        try await server.waitUntilAnswering()
        #expect(try await server.status("/api/v1/nope") == 404)
        let output = await polledOutput(of: server) { $0.contains("nope") }
        let lines = output.split(separator: "\n")
        #expect(lines.contains { $0.contains("listening on") }, "\(output)")
        for line in lines {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["message"] != nil, "not a JSON log line: \(line)")
        }
    }

    /// What `server` wrote, once `done` holds of it (or after 10 s).
    private func polledOutput(of server: ServeProcess, until done: (String) -> Bool) async -> String {
        var output = ""
        _ = await polled(within: .seconds(10)) {
            output += server.output()
            return done(output)
        }
        return output
    }

    /// deploy/fakenft.service is a unit systemd accepts (its hardening options included), for
    /// this binary.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")))
    func theSystemdUnitVerifies() throws {
        let unit = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../deploy/fakenft.service")
        let text = try String(contentsOf: unit, encoding: .utf8)
        #expect(text.contains("ExecStart=/usr/local/bin/fakenft serve"))
        for hardening in ["NoNewPrivileges=yes", "ProtectSystem=strict", "DynamicUser=yes", "StateDirectory=fakenft"] {
            #expect(text.contains(hardening), "\(hardening)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unit-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("fakenft.service")
        try text.replacingOccurrences(of: "/usr/local/bin/fakenft", with: Tmux.binary).write(
            to: copy, atomically: true, encoding: .utf8)
        let (status, output) = try spawnAndWait("/usr/bin/systemd-analyze", ["verify", "--man=no", copy.path])
        #expect(status == 0, "\(output)")
    }

    /// SIGTERM is a graceful shutdown: a request in flight is answered, then the process exits 0.
    @Test func sigtermLetsRequestsInFlightFinish() async throws {
        let server = try ServeProcess(keepReader: true, arguments: ["--latency", "1500"])
        try await server.waitUntilAnswering()
        let started = ContinuousClock.now
        // Connected and sent before the wait (URLSession may not even have connected 300 ms
        // later on a loaded machine), so the wait only gives the server time to read it.
        let request = try RawConnection(port: server.port)
        request.send("GET /api/v1/profile/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let events = try RawConnection(port: server.port)  // and a subscriber to the events
        events.send("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try await Task.sleep(for: .milliseconds(500))  // the request is in flight (1,500 ms of latency)
        let status = server.stop()
        let (answer, answerClosed) = await request.receive(timeout: 30)
        #expect(
            answer.hasPrefix("HTTP/1.1 200") && answerClosed, "the request in flight was answered: \(answer.prefix(40))"
        )
        let (stream, closed) = await events.receive(timeout: 30)
        #expect(
            closed && stream.hasSuffix("0\r\n\r\n"),
            "the event stream was ended, not cut: \(stream.suffix(30).debugDescription)")
        #expect(ContinuousClock.now - started >= .milliseconds(1_400))
        #expect(status & 0x7f == 0 && (status >> 8) & 0xff == 0, "exited 0 (wait status \(status))")
    }

    /// A connection that sends nothing, or stops halfway through a request, is closed after the
    /// idle timeout. (In a process of its own: an in-process server shares Swift's cooperative
    /// threads with tests that block them, and then accepts late.)
    @Test func idleAndHalfSentConnectionsAreClosed() async throws {
        let server = try ServeProcess(keepReader: true, idleTimeout: 1)
        defer { server.stop() }
        try await server.waitUntilAnswering()
        let silent = try RawConnection(port: server.port)
        let halfSent = try RawConnection(port: server.port)
        halfSent.send("GET /api/v1/nft/1 HTTP/1.1\r\nHost: x\r\n")
        let halfBody = try RawConnection(port: server.port)
        halfBody.send("PUT /api/v1/profile/1 HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nlikes=")
        async let silentClosed = silent.receive(timeout: 30).closed
        async let halfSentClosed = halfSent.receive(timeout: 30).closed
        async let halfBodyClosed = halfBody.receive(timeout: 30).closed
        #expect(await silentClosed)
        #expect(await halfSentClosed)
        #expect(await halfBodyClosed)
        #expect(try await server.status("/api/v1/profile/1") == 200)
    }

    /// More silent connections than descriptors: the server stops accepting below its limit
    /// (no EMFILE loop), closes the silent ones after the idle timeout, and then answers.
    @Test func silentConnectionsPastTheDescriptorLimitDoNotLockItUp() async throws {
        let server = try ServeProcess(keepReader: true, openFileLimit: 128, idleTimeout: 2)
        defer { server.stop() }
        try await server.waitUntilAnswering()
        // 128 descriptors allow 64 connections; 110 fit with the rest in the kernel's queue
        // (more would make connect(2) itself wait).
        let silent = (0..<110).compactMap { _ in try? RawConnection(port: server.port) }
        #expect(silent.count == 110)
        let answer = try await RawConnection.exchange(
            port: server.port, "GET /api/v1/currencies/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            timeout: 60)
        #expect(answer.text.hasPrefix("HTTP/1.1 200"), "answered once the silent connections were closed")
        #expect(server.isRunning)
        _ = silent
    }
}

extension EndToEnd.ServeEndToEndTests {
    /// After a PostgreSQL outage, with an event-stream client that went away, SIGTERM still ends
    /// the process, whether the database is back (`false`) or still refusing (`true`).
    @Test(.enabled(if: TestStore.cluster != nil, "a PostgreSQL test cluster (make test)"), arguments: [false, true])
    func sigtermEndsItAfterADatabaseOutage(stillDown: Bool) async throws {
        // The server's own query_timeout (10 s): the change during the outage is answered 503 by it.
        let database = try TestStore.newDatabase(queryTimeoutSeconds: 10), cluster = try #require(TestStore.cluster)
        let name = TestStore.name(of: database)
        let server = try ServeProcess(keepReader: false, arguments: ["--database", database])
        try await server.waitUntilAnswering()
        do {
            let events = try RawConnection(port: server.port)
            events.send("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(await events.receive(timeout: 30) { $0.contains("\r\n\r\n") }.text.hasPrefix("HTTP/1.1 200"))
        }  // the client goes away
        _ = try TestStore.rows(cluster, "ALTER DATABASE \(name) ALLOW_CONNECTIONS false")
        _ = try TestStore.rows(
            cluster, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)'")
        let change =
            "PUT /api/v1/profile/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 6\r\n\r\nname=x"
        let during = try await RawConnection.exchange(port: server.port, change, timeout: 60).text
        #expect(during.hasPrefix("HTTP/1.1 503"), "\(during.prefix(40))")
        if !stillDown {
            _ = try TestStore.rows(cluster, "ALTER DATABASE \(name) ALLOW_CONNECTIONS true")
            var answer = ""
            _ = try await polled(every: .milliseconds(500), within: .seconds(30)) {
                answer = try await RawConnection.exchange(port: server.port, change, timeout: 60).text
                return answer.hasPrefix("HTTP/1.1 200")
            }
            #expect(answer.hasPrefix("HTTP/1.1 200"), "answering again: \(answer.prefix(40))")
        }
        let status = await server.stop(waitingAtMost: .seconds(60))
        _ = try TestStore.rows(cluster, "ALTER DATABASE \(name) ALLOW_CONNECTIONS true")
        let exited = try #require(status, "still running 60 s after SIGTERM")
        #expect(exited & 0x7f == 0 && (exited >> 8) & 0xff == 0, "exited 0 (wait status \(exited))")
    }
}

/// The real binary serving on a free port, its output into a pipe.
final class ServeProcess {
    let pid: pid_t
    let port: Int
    private let reader: Int32?
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "fakenft-serve-\(UUID().uuidString)")

    /// - Parameter openFileLimit: run under `ulimit -n` with this many descriptors.
    init(keepReader: Bool, openFileLimit: Int? = nil, idleTimeout: Int = 30, arguments: [String] = []) throws {
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw SpawnError(description: "pipe failed") }
        port = try freeLoopbackPort()
        let serve =
            [
                Tmux.binary, "serve", "--port", String(port), "--data", directory.path, "--idle-timeout",
                String(idleTimeout),
            ] + arguments
        let limit = openFileLimit.map { "ulimit -n \($0); " } ?? ""
        pid = try spawnInBackground(
            "/bin/sh", ["-c", limit + "exec \"$@\"", "sh"] + serve, output: pipe[1], closeInChild: [pipe[0]])
        close(pipe[1])
        if keepReader {
            reader = pipe[0]
        } else {
            close(pipe[0])
            reader = nil
        }
    }

    var isRunning: Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    func status(_ path: String) async throws -> Int {
        let (_, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    func waitUntilAnswering() async throws {
        let answering = try await polled(every: .milliseconds(50), within: .seconds(10)) {
            if (try? await status("/api/v1/currencies")) == 200 { return true }
            guard isRunning else { throw SpawnError(description: "fakenft serve exited: \(output())") }
            return false
        }
        guard answering else { throw SpawnError(description: "fakenft serve did not answer in 10 s") }
    }

    /// What the process wrote so far (what `keepReader` keeps), without waiting for more.
    func output() -> String {
        guard let reader else { return "(not kept)" }
        _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) | O_NONBLOCK)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65_536 {
            let count = read(reader, &chunk, chunk.count)
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// SIGTERM, then waits up to `bound`; its wait status, or nil (and SIGKILL) if it is still running.
    func stop(waitingAtMost bound: Duration) async -> Int32? {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        guard await polled(every: .milliseconds(50), within: bound, { waitpid(pid, &status, WNOHANG) != 0 }) else {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
            try? FileManager.default.removeItem(at: directory)
            return nil
        }
        if let reader { close(reader) }
        try? FileManager.default.removeItem(at: directory)
        return status
    }

    /// SIGTERM, then waits for the process; returns its wait status.
    @discardableResult
    func stop() -> Int32 {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        if let reader { close(reader) }
        try? FileManager.default.removeItem(at: directory)
        return status
    }
}
