@testable import FakeNFTServer
import FakeNFTTesting
import Foundation
import Testing

/// What a running server changes without a restart (`fakenft serve`'s SIGHUP applies it):
/// read-only, latency and sign-ups per hour reach the connections already open at once.
@Suite struct LiveSettingsTests {
    @Test func readOnlyLatencyAndSignUpsChangeWhileTheServerRuns() async throws {
        try await TestServer.with { server in
            var configuration = server.configuration
            let change = "/api/v1/profile/1"
            #expect(try await server.request("PUT", change, body: "name=Before").status == 200)
            configuration.readOnly = true
            #expect(server.server.settings.apply(configuration), "a change")
            let refused = try await server.request("PUT", change, body: "name=During")
            #expect(refused.status == 403 && String(decoding: refused.body, as: UTF8.self).contains("read-only"))
            #expect(try await server.get(change, as: ProfileName.self).name == "Before", "reads go on")
            configuration.readOnly = false
            server.server.settings.apply(configuration)
            #expect(try await server.request("PUT", change, body: "name=After").status == 200)

            configuration.latencyMilliseconds = 400
            server.server.settings.apply(configuration)
            for _ in 1...2 {  // the second would be a repeat answered at once, were repeats not skipped
                let started = ContinuousClock.now
                #expect(try await server.request("GET", "/api/v1/nft/1").status == 200)
                #expect(ContinuousClock.now - started >= .milliseconds(400), "delayed")
            }
            configuration.latencyMilliseconds = 0
            server.server.settings.apply(configuration)

            configuration.signUpsPerHour = 1
            server.server.settings.apply(configuration)
            let signUp = { (email: String) in
                try await server.request(
                    "POST", "/api/v1/auth/register",
                    body: AccountTests.form([("name", "Live"), ("email", email), ("password", "correct horse 1")]),
                    contentType: "application/x-www-form-urlencoded"
                ).status
            }
            #expect(try await signUp("one@example.com") == 201)
            #expect(try await signUp("two@example.com") == 429, "one an hour now")
            configuration.signUpsPerHour = 0
            server.server.settings.apply(configuration)
            #expect(try await signUp("three@example.com") == 201, "no limit")
            #expect(!server.server.settings.apply(configuration), "nothing changed")
        }
    }

    /// Each option `LiveSettings` names changes what it holds.
    @Test func eachLiveOptionIsHeld() {
        let directory = FileManager.default.temporaryDirectory
        var configuration = ServerConfiguration(dataDirectory: directory)
        configuration.ssh = SSHConfiguration(host: "127.0.0.1", port: 0, appExecutable: "/bin/false")
        let settings = LiveSettings(configuration)
        let changes: [String: (inout ServerConfiguration) -> Void] = [
            "latency": { $0.latencyMilliseconds = 9 }, "quiet": { $0.logRequests.toggle() },
            "read-only": { $0.readOnly.toggle() }, "sign-ups-per-hour": { $0.signUpsPerHour = 3 },
            "ssh-max-sessions": { $0.ssh?.limits.maxSessions = 7 },
            "ssh-max-per-visitor": { $0.ssh?.limits.maxSessionsPerVisitor = 2 },
            "ssh-idle-minutes": { $0.ssh?.limits.idleLimit = .seconds(60) },
            "ssh-new-keys-per-hour": { $0.ssh?.limits.newKeysPerHour = 1 },
        ]
        #expect(Set(changes.keys) == LiveSettings.optionNames)
        for (option, change) in changes {
            var changed = configuration
            change(&changed)
            #expect(settings.apply(changed), "\(option)")
            settings.apply(configuration)
        }
    }

    private struct ProfileName: Decodable {
        var name: String
    }
}
