import ChildProcesses
import FakeNFTCore
import Foundation
import Glibc

/// Runs a program to completion with posix_spawn and waitpid, returning its exit status and
/// output (stdout and stderr, through a temporary file so daemons cannot hold a pipe open).
/// It blocks its thread: for a deinit or a benchmark. Tests waiting on a program in a loop use
/// ``spawned(_:_:)``, which blocks no thread of Swift's cooperative pool.
public func spawnAndWait(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let child = try SpawnedChild(path, arguments)
    return child.waitForExit()
}

/// Runs a program to completion, as ``spawnAndWait(_:_:)`` does, waiting for its exit on a
/// thread of its own: end-to-end tests run tmux hundreds of times, and a blocking wait on the
/// cooperative pool's two threads starved every other test in the process (an in-process
/// server took 15 s to send 8 MB once).
public func spawned(_ path: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
    let child = try SpawnedChild(path, arguments)
    return await withCheckedContinuation { finished in
        Thread { finished.resume(returning: child.waitForExit()) }.start()
    }
}

/// A program started with its output in a temporary file.
private struct SpawnedChild: Sendable {
    let pid: pid_t
    let outputPath: String

    init(_ path: String, _ arguments: [String]) throws {
        outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("spawn-\(UUID().uuidString)").path
        pid = try Self.start(path, arguments, output: outputPath)
    }

    /// Waits for the exit; the status and what it wrote.
    func waitForExit() -> (status: Int32, output: String) {
        defer { unlink(outputPath) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return ((status >> 8) & 0xFF, output)
    }

    private static func start(_ path: String, _ arguments: [String], output outputPath: String) throws -> pid_t {
        let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw SpawnError(description: "cannot write \(outputPath)") }
        defer { close(output) }
        do { return try spawnInBackground(path, arguments, output: output) } catch {
            unlink(outputPath)
            throw error
        }
    }
}

public struct SpawnError: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}

/// Starts a program in the background with `output` as its stdout and stderr, and stdin from
/// /dev/null; `closeInChild` are descriptors the child must not inherit. Returns its pid.
public func spawnInBackground(_ path: String, _ arguments: [String], output: Int32, closeInChild: [Int32] = []) throws
    -> pid_t
{
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, output, 1)
    posix_spawn_file_actions_adddup2(&actions, output, 2)
    for descriptor in closeInChild { posix_spawn_file_actions_addclose(&actions, descriptor) }
    ChildDescriptors.closeInherited(&actions)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    ChildSignals.reset(&attributes)  // a tmux shell must die when its server is killed
    let rc = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
    guard rc == 0 else { throw SpawnError(description: "cannot run \(path): \(String(cString: strerror(rc)))") }
    return pid
}

/// A TCP port on loopback that was free a moment ago.
public func freeLoopbackPort() throws -> Int {
    let (socket, port) = try loopbackListener()
    close(socket)
    return port
}
