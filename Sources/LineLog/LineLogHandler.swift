import Foundation
import Logging
import Synchronization

/// A swift-log handler that writes one line per message through a ``LineWriter``: as text, time,
/// level, label, message, then the metadata as sorted `key=value` pairs; as JSON, one object per
/// line with the fields `time`, `level`, `label`, `message` and the metadata's. Control
/// characters (which a request path or a server's answer can carry) are written escaped, so a
/// log read in a terminal cannot drive it.
public struct LineLogHandler: LogHandler {
    /// How each line is written.
    public enum Format: String, Sendable, CaseIterable {
        case text, json
    }

    let label: String
    let writer: LineWriter
    let format: Format
    /// The level, which every handler given the same ``Level`` shares.
    private let level: Level
    public var metadata: Logger.Metadata = [:]

    /// The least level written: held by every logger made with it, so that a change (a server's
    /// reload) reaches them all at once.
    public final class Level: Sendable {
        private let value: Mutex<Logger.Level>
        public init(_ value: Logger.Level) { self.value = Mutex(value) }
        public var current: Logger.Level {
            get { value.withLock { $0 } }
            set { value.withLock { $0 = newValue } }
        }
    }

    public var logLevel: Logger.Level {
        get { level.current }
        set { level.current = newValue }
    }

    public init(label: String, writer: LineWriter, logLevel: Logger.Level, format: Format = .text) {
        self.init(label: label, writer: writer, level: Level(logLevel), format: format)
    }

    /// A handler whose level is `level`, shared with the others given it.
    public init(label: String, writer: LineWriter, level: Level, format: Format = .text) {
        self.label = label
        self.writer = writer
        self.level = level
        self.format = format
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let stamp = Date().formatted(.iso8601)
        let fields = metadata.merging(event.metadata ?? [:]) { $1 }.sorted { $0.key < $1.key }
        switch format {
        case .text:
            let pairs = fields.map { "\($0.key)=\($0.value)" }
            writer.write(
                Self.escapingControls(
                    ([stamp, "\(event.level)", "\(label):", "\(event.message)"] + pairs).joined(separator: " ")))
        case .json:
            var object: [String: String] = [:]
            for (key, value) in fields { object[key] = "\(value)" }
            object["time"] = stamp
            object["level"] = "\(event.level)"
            object["label"] = label
            object["message"] = "\(event.message)"
            // JSONSerialization escapes C0 controls; DEL and C1 ones are escaped here (a terminal
            // may take U+009B for CSI). Sorted keys keep lines comparable.
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
            var line = ""
            for scalar in String(decoding: data, as: UTF8.self).unicodeScalars {
                if (0x7F...0x9F).contains(scalar.value) {
                    line += "\\u00" + String(scalar.value, radix: 16, uppercase: true)
                } else {
                    line.unicodeScalars.append(scalar)
                }
            }
            writer.write(line)
        }
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
