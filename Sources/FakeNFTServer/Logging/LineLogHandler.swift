import Foundation
import Logging

/// A swift-log handler that writes one line per message through a ``LineWriter``.
struct LineLogHandler: LogHandler {
    let label: String
    let writer: LineWriter
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let stamp = Date().formatted(.iso8601)
        writer.write("\(stamp) \(event.level) \(label): \(event.message)")
    }
}
