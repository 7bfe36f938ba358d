import Foundation
import Testing
import FakeNFTTesting
@testable import FakeNFTApp

/// The system browser is started detached, with none of the app's descriptors.
/// Serialized: each test sets `BROWSER` in the process's one environment.
@Suite(.serialized) struct BrowserTests {
    /// A browser that outlives the app once kept the embedded server's sockets: its port stayed
    /// taken and its closed connections open.
    @Test func theBrowserGetsNoneOfTheAppsSockets() async throws {
        try await TestServer.with { server async throws in
            _ = try await server.request("GET", "/api/v1/nft/1")  // a connection open in this process
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("browser-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let script = folder.appendingPathComponent("browser").path
            let report = folder.appendingPathComponent("descriptors").path
            try "#!/bin/sh\nfor f in /proc/$$/fd/*; do readlink \"$f\"; done > \"$1.tmp\"; mv \"$1.tmp\" \"$1\"\n"
                .write(
                    toFile: script, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script)
            setenv("BROWSER", script, 1)
            defer { unsetenv("BROWSER") }
            // Another test's child forked while the script was being written keeps it open for
            // writing a moment, and exec then fails (ETXTBSY): try again a few times.
            #expect(await polled(every: .milliseconds(100), within: .seconds(2)) { Browser.open(report) })
            #expect(
                await polled(every: .milliseconds(100), within: .seconds(10)) {
                    FileManager.default.fileExists(atPath: report)
                })
            let descriptors = try String(contentsOfFile: report, encoding: .utf8)
            #expect(!descriptors.contains("socket:"), "\(descriptors)")
            #expect(descriptors.contains("/dev/null"), "stdin, stdout and stderr are /dev/null")
        }
    }
}
