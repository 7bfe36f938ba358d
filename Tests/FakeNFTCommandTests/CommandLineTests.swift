import ArgumentParser
import FakeNFTCore
import FakeNFTServer
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
        // The address `fakenft serve` prints (its API's) is the same server as its own.
        for given in [
            "http://127.0.0.1:8080/api/v1", "http://127.0.0.1:8080/api/v1/", "http://127.0.0.1:8080",
            "http://127.0.0.1:8080/",
        ] {
            let address = try WebAddress.parse(given).url.absoluteString
            #expect(["http://127.0.0.1:8080", "http://127.0.0.1:8080/"].contains(address), "\(given): \(address)")
        }
        #expect(
            try WebAddress.parse("https://shop.example/fakenft/api/v1").url.absoluteString
                == "https://shop.example/fakenft")
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
        let configuration = try command.serverConfiguration(environment: [:])
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
        #expect(try upstream.serverConfiguration(environment: [:]).imageLinks == .upstream)
        let public_ = try #require(
            try FakeNFTCommand.parseAsRoot(["serve", "--public-url", "http://10.0.0.2:8080"]) as? ServeCommand)
        #expect(
            try public_.serverConfiguration(environment: [:]).imageLinks
                == .local(publicURL: URL(string: "http://10.0.0.2:8080")))
    }

    /// Every `serve` option comes from a FAKENFT_ variable too (for services and containers), under
    /// the command line's own; the token from a file keeps it out of the process list.
    @Test func serveOptionsComeFromTheEnvironmentUnderTheCommandLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("env-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let tokenFile = directory.appendingPathComponent("token").path
        #expect(FileManager.default.createFile(atPath: tokenFile, contents: Data("from-file\nignored\n".utf8)))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: tokenFile)
        let environment = [
            "FAKENFT_PORT": "9000", "FAKENFT_HOST": "0.0.0.0", "FAKENFT_TOKEN_FILE": tokenFile, "FAKENFT_QUIET": "true",
            "FAKENFT_TRUSTED_PROXY": "10.0.0.0/8, 127.0.0.1", "FAKENFT_METRICS_ADDRESS": "127.0.0.1:9464",
            "FAKENFT_LOG_FORMAT": "json", "FAKENFT_DATABASE": "postgres://u@db/x", "FAKENFT_RESET": "1",
        ]
        let arguments = try ServeLayers.arguments(["serve", "--port", "9001"], environment: environment)
        let command = try #require(try FakeNFTCommand.parseAsRoot(arguments) as? ServeCommand)
        let configuration = try command.serverConfiguration(environment: [:])
        #expect(configuration.port == 9001, "the command line wins")
        #expect(configuration.host == "0.0.0.0" && configuration.token == "from-file" && !configuration.logRequests)
        #expect(configuration.trustedProxies == [IPAddressRange("10.0.0.0/8"), IPAddressRange("127.0.0.1")])
        #expect(configuration.metrics == .listener(host: "127.0.0.1", port: 9464) && configuration.logFormat == .json)
        #expect(
            configuration.postgresURL == "postgres://u@db/x" && !configuration.reset,
            "--reset is never from the environment")
        let overridden = try ServeLayers.arguments(["serve", "--token", "typed"], environment: environment)
        #expect(
            try (try FakeNFTCommand.parseAsRoot(overridden) as? ServeCommand)?.serverConfiguration(environment: [:])
                .token
                == "typed")
        #expect(try ServeLayers.arguments(["--mouse"], environment: environment) == ["--mouse"], "the app's own")
        #expect(throws: ServeLayers.Problem.self, "a flag's variable that is neither on nor off stops the server") {
            try ServeLayers.arguments(["serve"], environment: ["FAKENFT_QUIET": "maybe"])
        }
        let off = try #require(try FakeNFTCommand.parseAsRoot(["serve", "--metrics-address", "off"]) as? ServeCommand)
        #expect(try off.serverConfiguration(environment: [:]).metrics == .off)
        let byDefault = try #require(try FakeNFTCommand.parseAsRoot(["serve"]) as? ServeCommand)
        #expect(try byDefault.serverConfiguration(environment: [:]).metrics == .loopbackOnAPIPort)
        // Each option `serve --help` lists is one the environment can give, the actions aside.
        let help = FakeNFTCommand.helpMessage(for: ServeCommand.self)
        let listed = Set(help.matches(of: /--([a-z-]+)/).map { String($0.1) })
        let known = Set(ServeLayers.options.kinds.keys)
        #expect(
            listed.subtracting(known) == ServeLayers.options.commandLineOnly.union(["help", "version"]),
            "\(listed.subtracting(known))")
        #expect(ServeLayers.options.kinds["trusted-proxy"] == .list && ServeLayers.options.kinds["quiet"] == .flag)
        // A token file others can read is refused, naming the fix.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: tokenFile)
        #expect(throws: (any Error).self) { try command.serverConfiguration(environment: [:]) }
    }

    /// `serve --config FILE`: TOML keys named as the long options, under the environment and the
    /// command line; a key that is no option, or a value of the wrong kind, names its line.
    @Test func serveOptionsComeFromAFileUnderTheEnvironment() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-file-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("serve.toml").path
        func write(_ text: String) { FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) }
        write(
            """
            # the shop's settings (underscores read as dashes)
            port = 9100
            host = "0.0.0.0"
            read-only = true
            quiet = false
            latency = 25
            trusted-proxy = ["10.0.0.0/8", "127.0.0.1"]
            ssh-port = 2222
            ssh_max_per_visitor = 3
            """)
        let arguments = try ServeLayers.arguments(
            ["serve", "--config", path, "--latency", "5"], environment: ["FAKENFT_HOST": "127.0.0.2"])
        let command = try #require(try FakeNFTCommand.parseAsRoot(arguments) as? ServeCommand)
        let configuration = try command.serverConfiguration(environment: [:])
        #expect(configuration.port == 9100 && configuration.readOnly && configuration.logRequests)
        #expect(configuration.host == "127.0.0.2", "the environment over the file")
        #expect(configuration.latencyMilliseconds == 5, "the command line over both")
        #expect(configuration.trustedProxies == [IPAddressRange("10.0.0.0/8"), IPAddressRange("127.0.0.1")])
        #expect(configuration.ssh?.port == 2222 && configuration.ssh?.limits.maxSessionsPerVisitor == 3)
        // $FAKENFT_CONFIG names the file as --config does.
        #expect(try ServeLayers.arguments(["serve"], environment: ["FAKENFT_CONFIG": path]).contains("--port=9100"))
        // A negative number reaches the option's own check, not the parser's "unknown option".
        write("latency = -1\n")
        let negative = try ServeLayers.arguments(["serve", "--config", path], environment: [:])
        #expect(
            FakeNFTCommand.message(for: Self.parseError(negative)).contains("--latency wants a number in 0...60000"))
        for (text, problem) in [
            ("port = 80\nbogus = 1\n", "line 2: 'bogus' is no option of fakenft serve"),
            ("reset = true\n", "line 1: 'reset' is given on the command line only"),
            ("read-only = \"yes\"\n", "line 1: read-only wants true or false"),
            ("port = 1.5\n", "line 1: port wants a string or a whole number"),
            ("trusted-proxy = [1.5]\n", "line 1: trusted-proxy wants a list of strings"),
            ("port = \n", "line 1:"),
            ("database = \"postgres://db/x\"\ndata = 1.5\n", "line 2: data wants a string"),
        ] {
            write(text)
            do {
                _ = try ServeLayers.arguments(["serve", "--config", path], environment: [:])
                Issue.record("\(text) was taken")
            } catch {
                #expect(error.description.hasPrefix(path) && error.description.contains(problem), "\(error)")
            }
        }
        #expect(throws: ServeLayers.Problem.self) {
            try ServeLayers.arguments(["serve", "--config", path + ".missing"], environment: [:])
        }
    }

    /// What a reload tells: the options that change live, applied; those that cannot, kept.
    @Test func aReloadedFileSaysWhatChanges() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-reload-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("serve.toml").path
        FileManager.default.createFile(atPath: path, contents: Data("port = 9100\nssh-max-sessions = 10\n".utf8))
        let before = OptionFile(path: path, options: ServeLayers.options)
        FileManager.default.createFile(
            atPath: path, contents: Data("port = 9200\nssh-max-sessions = 5\nread-only = true\n".utf8))
        let after = OptionFile(path: path, options: ServeLayers.options)
        #expect(after.changed(from: before.entries) == ["port", "read-only", "ssh-max-sessions"])
        #expect(after.changed(from: after.entries).isEmpty)
        #expect(
            Set(["read-only", "ssh-max-sessions", "port"]).intersection(LiveSettings.optionNames)
                == ["read-only", "ssh-max-sessions"])
        #expect(LiveSettings.optionNames.isSubset(of: Set(ServeLayers.options.kinds.keys)), "each a serve option")
        #expect(
            try ServeLayers.layers(["serve", "--port=1", "--quiet"], environment: ["FAKENFT_LATENCY": "3"], file: nil)
                .givenOutsideTheFile == ["port", "quiet", "latency"])
    }

    private static func parseError(_ arguments: [String]) -> any Error {
        do {
            _ = try FakeNFTCommand.parseAsRoot(arguments)
            return CancellationError()
        } catch { return error }
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
        (["serve", "--trusted-proxy", "10.0.0.0/40"], "--trusted-proxy wants an IP address or network"),
        (["serve", "--metrics-address", "9464"], "--metrics-address wants host:port"),
        (["serve", "--token", "a", "--token-file", "f"], "--token and --token-file exclude each other"),
        (["serve", "--log-format", "xml"], "The value 'xml' is invalid for '--log-format <format>'"),
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
            FakeNFTCommand.helpMessage().contains("fakenft help app") && FakeNFTCommand.helpMessage().contains("serve"))
        #expect(FakeNFTCommand.helpMessage(for: AppCommand.self).contains("--server <url>"))
        #expect(FakeNFTCommand.helpMessage(for: AppCommand.self).contains("--mouse"))
        #expect(FakeNFTCommand.helpMessage(for: ServeCommand.self).contains("--idle-timeout <seconds>"))
        #expect(FakeNFTCommand.configuration.version == FakeNFTVersion.current)
        for shell in CompletionShell.allCases {
            #expect(FakeNFTCommand.completionScript(for: shell).contains("serve"), "\(shell)")
        }
    }
}
