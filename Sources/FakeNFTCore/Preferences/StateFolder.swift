import Foundation

/// The app's state folder, `$XDG_STATE_HOME/fakenft` (default `~/.local/state/fakenft`): the
/// log, the signed-in account, whether onboarding was shown.
public enum StateFolder {
    public static func url(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base =
            environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".local/state")
        return base.appendingPathComponent("fakenft")
    }
}
