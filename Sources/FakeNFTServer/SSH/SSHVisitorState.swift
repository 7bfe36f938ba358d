import Foundation

/// What the app keeps for a key's visitor between visits (onboarding seen, the rating prompt's
/// schedule, sort choices, the saved copy for an instant start), carried between the session's
/// folder and the database so that every server of a deployment knows a returning visitor. Only
/// the files named here are read or written, each within a size; what the database holds is
/// checked like any input.
enum SSHVisitorState {
    /// The files kept, relative to the visitor's folder.
    static let files = [
        "state/fakenft/onboarding-done", "state/fakenft/rating.json", "config/fakenft/preferences.json",
    ]
    /// The folders whose plain-named files are kept (the saved copy).
    static let folders = ["cache/fakenft/last-seen"]
    /// The most one visitor's files may come to; beyond it the saved copy is left out.
    static let maxBytes = 4 << 20

    /// The kept files of `folder`, encoded for the database; nil when there are none.
    static func read(from folder: String) -> String? {
        let root = URL(fileURLWithPath: folder)
        var found: [String: Data] = [:], total = 0
        let inFolders = folders.flatMap { path in
            ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(path).path)) ?? [])
                .filter(isPlainName).sorted().map { path + "/" + $0 }
        }
        for path in files + inFolders {
            guard let data = try? Data(contentsOf: root.appendingPathComponent(path)), total + data.count <= maxBytes
            else { continue }
            found[path] = data
            total += data.count
        }
        guard !found.isEmpty, let encoded = try? JSONEncoder().encode(found) else { return nil }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// Writes `state`'s files into `folder`: those at the paths kept, within the size; anything
    /// else in it is ignored. Returns how many were written.
    @discardableResult
    static func write(_ state: String, into folder: String) -> Int {
        guard state.utf8.count <= maxBytes * 2,
            let kept = try? JSONDecoder().decode([String: Data].self, from: Data(state.utf8))
        else { return 0 }
        let root = URL(fileURLWithPath: folder)
        var written = 0, total = 0
        for (path, data) in kept.sorted(by: { $0.key < $1.key }) where isKept(path) {
            total += data.count
            guard total <= maxBytes else { break }
            let file = root.appendingPathComponent(path)
            do {
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
                try data.write(to: file, options: .atomic)
                written += 1
            } catch {
                continue
            }
        }
        return written
    }

    /// Whether `path` is one of the files kept, or a plain-named file right in a folder kept.
    static func isKept(_ path: String) -> Bool {
        if files.contains(path) { return true }
        return folders.contains { folder in
            path.hasPrefix(folder + "/") && isPlainName(String(path.dropFirst(folder.count + 1)))
        }
    }

    /// Letters, digits, `.`, `_` and `-`, not starting with a dot, at most 128: a file's own name.
    private static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 128 && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
            }
    }
}
