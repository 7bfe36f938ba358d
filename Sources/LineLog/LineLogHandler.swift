import Foundation
import Logging

/// A swift-log handler that writes one line per message through a ``LineWriter``: time, level,
/// label, message, then the metadata as sorted `key=value` pairs. Control characters (which a
/// request path or a server's answer can carry) are written escaped, so a log read in a
/// terminal cannot drive it.
public struct LineLogHandler: LogHandler {
    let label: String
    let writer: LineWriter
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]

    public init(label: String, writer: LineWriter, logLevel: Logger.Level) {
        self.label = label
        self.writer = writer
        self.logLevel = logLevel
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let stamp = Date().formatted(.iso8601)
        let fields = metadata.merging(event.metadata ?? [:]) { $1 }.sorted { $0.key < $1.key }.map {
            "\($0.key)=\($0.value)"
        }
        writer.write(
            Self.escapingControls(
                ([stamp, "\(event.level)", "\(label):", "\(event.message)"] + fields).joined(separator: " ")))
    }

    /// `text` with C0 and C1 controls and DEL written as `\u{..}`.
    static func escapingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            return text
        }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
