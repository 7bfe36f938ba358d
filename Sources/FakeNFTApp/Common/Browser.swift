import ChildProcesses
import FakeNFTCore
import Foundation
import Glibc

/// Opens a URL in the system browser (`$BROWSER`, else `xdg-open`), detached from the terminal.
enum Browser {
    /// The command that would open URLs, if there is one.
    static func command(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let browser = environment["BROWSER"], !browser.isEmpty {
            return browser.split(separator: ":").first.map(String.init)
        }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/xdg-open" }.first { access($0, X_OK) == 0 }
    }

    /// Starts the browser; returns false when there is none or it could not start.
    static func open(_ url: String) -> Bool {
        guard let command = command() else { return false }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        // None of the app's descriptors: a browser that outlives the app must not keep the
        // embedded server's port, its connections or the database open.
        ChildDescriptors.closeInherited(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A process group of its own: our Ctrl-Z and signals do not reach it.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        ChildSignals.reset(&attributes)  // and none of our blocked or ignored signals
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(command), strdup(url), nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        return posix_spawnp(&pid, command, &actions, &attributes, argv, environ) == 0
    }
}
