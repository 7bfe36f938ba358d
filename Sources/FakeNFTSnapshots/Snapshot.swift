import Foundation
import Testing

/// Compares `text` with the snapshot file `__Snapshots__/<name>.txt` next to the calling test file.
///
/// A missing snapshot is recorded and the test fails, so a new snapshot is always looked at
/// once. Set `SNAPSHOT_RECORD=1` to re-record changed snapshots.
public func assertSnapshot(
    _ text: String, named name: String, filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let directory = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__")
    let file = directory.appendingPathComponent("\(name).txt")
    let record = ProcessInfo.processInfo.environment["SNAPSHOT_RECORD"] == "1"
    guard !record, let expected = try? String(contentsOf: file, encoding: .utf8) else {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? (text + "\n").write(to: file, atomically: true, encoding: .utf8)
        Issue.record("Recorded snapshot \(name); check it and run again.", sourceLocation: sourceLocation)
        return
    }
    if expected != text + "\n" {
        Issue.record(
            "Snapshot \(name) differs.\n--- expected\n\(expected)--- actual\n\(text)\n", sourceLocation: sourceLocation)
    }
}
