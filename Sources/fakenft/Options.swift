import FakeNFTServer
import Foundation

/// What the command line asked for.
enum Command {
    /// The TUI, on the embedded server or on `server`.
    case app(AppOptions)
    /// `fakenft serve`: the server alone.
    case serve(ServerConfiguration)
    case help(String)
}

struct AppOptions {
    var server: URL?
    var token: String?
    var dataDirectory: URL
    var mouse = false
}

struct UsageError: Error, CustomStringConvertible {
    let description: String
}

enum Options {
    static let appUsage = """
        Usage: fakenft [--server URL] [--token TOKEN] [--data DIR] [--mouse]
               fakenft serve [options]

        A terminal client for FakeNFT: browse collections, like NFTs, fill the cart and pay.
        With no --server it starts its own offline server on 127.0.0.1 (data in $XDG_DATA_HOME/fakenft).

        Options:
          --server URL    use a compatible FakeNFT server (or FAKENFT_SERVER)
          --token TOKEN   X-Practicum-Mobile-Token for that server (or FAKENFT_TOKEN)
          --data DIR      data folder of the embedded server
          --mouse         report mouse clicks and the wheel (off by default, so text selection works)
          -h, --help      show this help
        """

    static let serveUsage = """
        Usage: fakenft serve [--host 127.0.0.1] [--port 8080] [--data DIR] [--token TOKEN]
                             [--latency MS] [--reset] [--large USERS,NFTS] [--payments ID=ok|fail,...]
                             [--idle-timeout SECONDS] [--quiet]

        Runs the offline FakeNFT server (API v1.1.0 under /api/v1) until Ctrl-C.

        Options:
          --host HOST        address to listen on (default 127.0.0.1)
          --port PORT        port (default 8080; 0 picks a free one)
          --data DIR         folder of the SQLite database (default $XDG_DATA_HOME/fakenft)
          --token TOKEN      require this X-Practicum-Mobile-Token on every request
          --latency MS       delay every answer by MS milliseconds (to test clients)
          --reset            reseed the database
          --large U,N        seed U users and N NFTs (implies --reset), for paging tests and benchmarks
          --payments LIST    payment outcome per currency id, e.g. 2=ok,5=fail
          --idle-timeout S   close a connection that sends nothing for S seconds (default 30)
          --quiet            log only failures, not every request
        """

    static func parse(_ arguments: [String], environment: [String: String]) throws -> Command {
        var args = arguments[...]
        if args.first == "serve" {
            args = args.dropFirst()
            return try parseServe(&args, environment: environment)
        }
        var options = AppOptions(server: nil, token: environment["FAKENFT_TOKEN"].flatMap { $0.isEmpty ? nil : $0 },
                                 dataDirectory: ServerConfiguration.defaultDataDirectory(environment: environment))
        if let server = environment["FAKENFT_SERVER"], !server.isEmpty { options.server = try url(server) }
        while let arg = args.popFirst() {
            switch arg {
            case "--server": options.server = try url(try value(arg, &args))
            case "--token": options.token = try value(arg, &args)
            case "--data": options.dataDirectory = URL(fileURLWithPath: try value(arg, &args))
            case "--mouse": options.mouse = true
            case "-h", "--help": return .help(appUsage)
            default: throw UsageError(description: "unknown option '\(arg)'\n\n\(appUsage)")
            }
        }
        return .app(options)
    }

    private static func parseServe(_ args: inout ArraySlice<String>, environment: [String: String]) throws -> Command {
        var config = ServerConfiguration(dataDirectory: ServerConfiguration.defaultDataDirectory(environment: environment), logRequests: true,
                                         log: .standardError)
        while let arg = args.popFirst() {
            switch arg {
            case "--host": config.host = try value(arg, &args)
            case "--port": config.port = try number(arg, &args, in: 0...65535)
            case "--data": config.dataDirectory = URL(fileURLWithPath: try value(arg, &args))
            case "--token": config.token = try value(arg, &args)
            case "--latency": config.latencyMilliseconds = try number(arg, &args, in: 0...60_000)
            case "--reset": config.reset = true
            case "--large":
                let parts = try value(arg, &args).split(separator: ",").compactMap { Int($0) }
                guard parts.count == 2, parts.allSatisfy({ $0 >= 0 && $0 <= 1_000_000 }) else {
                    throw UsageError(description: "--large wants USERS,NFTS, e.g. 10000,100000")
                }
                config.seed = .large(users: parts[0], nfts: parts[1])
                config.reset = true
            case "--payments":
                guard let outcomes = ServerConfiguration.parsePaymentOutcomes(try value(arg, &args)) else {
                    throw UsageError(description: "--payments wants ID=ok|fail pairs, e.g. 2=ok,5=fail")
                }
                config.paymentOutcomes = outcomes
            case "--idle-timeout": config.idleTimeout = try number(arg, &args, in: 1...86_400)
            case "--quiet": config.logRequests = false
            case "-h", "--help": return .help(serveUsage)
            default: throw UsageError(description: "unknown option '\(arg)'\n\n\(serveUsage)")
            }
        }
        return .serve(config)
    }

    private static func value(_ option: String, _ args: inout ArraySlice<String>) throws -> String {
        guard let v = args.popFirst() else { throw UsageError(description: "\(option) needs a value") }
        return v
    }

    private static func number(_ option: String, _ args: inout ArraySlice<String>, in range: ClosedRange<Int>) throws -> Int {
        let text = try value(option, &args)
        guard let n = Int(text), range.contains(n) else { throw UsageError(description: "\(option) wants a number in \(range), not '\(text)'") }
        return n
    }

    private static func url(_ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw UsageError(description: "'\(text)' is not an http(s) URL")
        }
        return url
    }
}
