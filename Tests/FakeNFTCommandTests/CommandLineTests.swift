import ArgumentParser
import FakeNFTCore
import Foundation
import Testing
import TerminalUI
@testable import fakenft

/// The command line: one declaration per option gives parsing, validation and the error text.
@Suite struct CommandLineTests {
    @Test func appOptions() throws {
        let command = try #require(
            try FakeNFTCommand.parseAsRoot(["--server", "http://127.0.0.1:9/x", "--token", "t", "--mouse"])
                as? AppCommand)
        #expect(
            command.options.server?.url.absoluteString == "http://127.0.0.1:9/x" && command.options.token == "t"
                && command.options.mouse == true)
        #expect(try FakeNFTCommand.parseAsRoot([]) is AppCommand, "the app is the default")
        #expect(
            (try FakeNFTCommand.parseAsRoot(["--symbols", "sextants"]) as? AppCommand)?.options.symbols == .sextants)
        #expect(
            (try FakeNFTCommand.parseAsRoot([]) as? AppCommand)?.options.symbols == nil,
            "not given: the file or the default decides")
        #expect(
            (try FakeNFTCommand.parseAsRoot(["--no-mouse", "--images", "sixel", "--theme", "light"]) as? AppCommand)?
                .options.mouse == false)
        #expect(try FakeNFTCommand.parseAsRoot(["config", "--theme", "mono"]) is ConfigCommand)
        #expect(try FakeNFTCommand.parseAsRoot(["app", "--data", "d"]) is AppCommand)
    }

    @Test func serveOptionsBecomeAServerConfiguration() throws {
        let command = try #require(
            try FakeNFTCommand.parseAsRoot([
                "serve", "--port", "0", "--data", "/tmp/d", "--latency", "50", "--large", "10,20", "--payments",
                "2=ok,5=fail",
                "--idle-timeout", "5", "--quiet", "--token", "s",
            ]) as? ServeCommand)
        let configuration = command.serverConfiguration(environment: [:])
        #expect(
            configuration.port == 0 && configuration.dataDirectory.path == "/tmp/d"
                && configuration.latencyMilliseconds == 50)
        #expect(configuration.seed == .large(users: 10, nfts: 20) && configuration.reset, "--large implies --reset")
        #expect(configuration.paymentOutcomes == ["2": true, "5": false] && configuration.idleTimeout == 5)
        #expect(!configuration.logRequests && configuration.token == "s" && configuration.log == .standardError)
        let defaults = try #require(try FakeNFTCommand.parseAsRoot(["serve"]) as? ServeCommand).serverConfiguration(
            environment: ["HOME": "/home/u"])
        #expect(
            defaults.host == "127.0.0.1" && defaults.port == 8080 && defaults.idleTimeout == 30 && defaults.logRequests)
        #expect(defaults.dataDirectory.path == "/home/u/.local/share/fakenft")
        #expect(defaults.imageLinks == .local(publicURL: nil), "images from this server by default")
        let upstream = try #require(try FakeNFTCommand.parseAsRoot(["serve", "--upstream-images"]) as? ServeCommand)
        #expect(upstream.serverConfiguration(environment: [:]).imageLinks == .upstream)
        let public_ = try #require(
            try FakeNFTCommand.parseAsRoot(["serve", "--public-url", "http://10.0.0.2:8080"]) as? ServeCommand)
        #expect(
            public_.serverConfiguration(environment: [:]).imageLinks
                == .local(publicURL: URL(string: "http://10.0.0.2:8080")))
    }

    @Test(arguments: [
        (["--server", "ftp://x"], "'ftp://x' is not an http(s) URL"),
        (["--bogus"], "Unknown option '--bogus'"),
        (["--symbols", "octants"], "The value 'octants' is invalid for '--symbols <set>'"),
        (["serve", "--port", "99999"], "--port wants a number in 0...65535, not 99999"),
        (["serve", "--port", "http"], "The value 'http' is invalid for '--port <port>'"),
        (["serve", "--large", "1,2,3"], "--large wants USERS,NFTS"),
        (["serve", "--payments", "2=maybe"], "--payments wants ID=ok|fail pairs"),
        (["serve", "--idle-timeout", "0"], "--idle-timeout wants a number in 1...86400"),
        (["serve", "--latency=-1"], "--latency wants a number in 0...60000"),
        (["serve", "--public-url", "ftp://x"], "--public-url wants an http(s) URL"),
        (
            ["serve", "--public-url", "http://x", "--upstream-images"],
            "--public-url and --upstream-images exclude each other"
        ),
    ])
    func badValuesAreExplained(arguments: [String], message: String) {
        do {
            _ = try FakeNFTCommand.parseAsRoot(arguments)
            Issue.record("\(arguments) was accepted")
        } catch {
            #expect(
                FakeNFTCommand.fullMessage(for: error).contains(message), "\(FakeNFTCommand.fullMessage(for: error))")
            #expect(FakeNFTCommand.exitCode(for: error) == .validationFailure)
        }
    }

    @Test func helpVersionAndCompletions() {
        #expect(
            FakeNFTCommand.helpMessage().contains("--server <url>") && FakeNFTCommand.helpMessage().contains("serve"))
        #expect(FakeNFTCommand.helpMessage(for: AppCommand.self).contains("--mouse"))
        #expect(FakeNFTCommand.helpMessage(for: ServeCommand.self).contains("--idle-timeout <seconds>"))
        #expect(FakeNFTCommand.configuration.version == FakeNFTVersion.current)
        for shell in CompletionShell.allCases {
            #expect(FakeNFTCommand.completionScript(for: shell).contains("serve"), "\(shell)")
        }
    }
}
