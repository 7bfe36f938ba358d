import Foundation
import Logging

/// A swift-log handler that writes one line per message through a ``LineWriter``: time, level,
/// label, message, then the metadata as sorted `key=value` pairs.
public struct LineLogHandler: LogHandler {
    let label: String
    let writer: LineWriter
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]

    public init(label: String, writer: LineWriter, logLevel: Logger.Level) {
        self.label = label; self.writer = writer; self.logLevel = logLevel
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let stamp = Date().formatted(.iso8601)
        let fields = metadata.merging(event.metadata ?? [:]) { $1 }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        writer.write(([stamp, "\(event.level)", "\(label):", "\(event.message)"] + fields).joined(separator: " "))
    }
}
