import LineLog
import ArgumentParser
import FakeNFTCore
import FakeNFTServer
import Foundation
import Logging

/// The app's log file: `$XDG_STATE_HOME/fakenft/fakenft.log` (default `~/.local/state/fakenft/`),
/// rotated to `fakenft.log.1` past 1 MB. Never the terminal while the TUI runs.
enum AppLog {
    static let rotateAtBytes = 1 << 20

    static func file(environment: [String: String]) -> URL {
        StateFolder.url(environment: environment).appendingPathComponent("fakenft.log")
    }

    static func logger(level: Logger.Level, environment: [String: String]) throws -> Logger {
        let file = file(environment: environment)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let writer = LineWriter.appending(to: file.path, rotateAt: rotateAtBytes)
        return Logger(label: "fakenft") { LineLogHandler(label: $0, writer: writer, logLevel: level) }
    }

    /// A level by name (`--log-level`, `FAKENFT_LOG_LEVEL`).
    static func level(_ name: String) throws -> Logger.Level {
        guard let level = Logger.Level(rawValue: name.lowercased().trimmingCharacters(in: .whitespaces)) else {
            throw ValidationError(
                "'\(name)' is not a log level: use trace, debug, info, notice, warning, error or critical")
        }
        return level
    }
}
