import FakeNFTApp
import FakeNFTCore
import FakeNFTServer
import Foundation
import TerminalUI

func fail(_ message: String, code: Int32) -> Never {
    let bytes = Array("fakenft: \(message)\n".utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }   // a closed stderr is no reason to trap
    exit(code)
}

let command: Command
do {
    command = try Options.parse(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch {
    fail("\(error)", code: 2)
}

switch command {
case .help(let text):
    print(text)

case .serve(let configuration):
    // A closed stdout or stderr (`fakenft serve | true`) must not end the server: writes to it
    // fail quietly instead of raising SIGPIPE, and go through a writer that never blocks.
    signal(SIGPIPE, SIG_IGN)
    ProcessLimits.raiseOpenFileLimit()
    do {
        try await FakeNFTServer.serve(configuration) { port in
            LineWriter.standardOutput.write("FakeNFT server listening on http://\(configuration.host):\(port)/api/v1 (data: \(configuration.dataDirectory.path))")
        }
    } catch {
        fail("server stopped: \(error)", code: 1)
    }

case .app(let options):
    // No terminal (or no TERM), no app: say so before starting (and perhaps seeding) the embedded server.
    if let problem = TerminalSession.problem() { fail(problem.description, code: 1) }
    CrashLog.routeBacktraces(to: options.dataDirectory.appendingPathComponent("crash.log"))
    // The embedded server starts first, so the UI opens on a server that answers.
    var embedded: RunningServer?
    let apiConfiguration: APIConfiguration
    if let server = options.server {
        apiConfiguration = APIConfiguration(baseURL: server, token: options.token)
    } else {
        do {
            embedded = try await FakeNFTServer.start(ServerConfiguration(port: 0, dataDirectory: options.dataDirectory))
        } catch {
            fail("could not start the embedded server (data in \(options.dataDirectory.path)): \(error)", code: 1)
        }
        apiConfiguration = APIConfiguration(baseURL: embedded!.baseURL)
    }
    let exitSignal: Int32?
    do {
        exitSignal = try await FakeNFTTerminalApp.run(api: apiConfiguration, mouse: options.mouse)
    } catch {
        await embedded?.stop()
        fail("\(error)", code: 1)
    }
    await embedded?.stop()
    if let exitSignal { exit(128 + exitSignal) }
}
