import Foundation
import Glibc
import Testing
import FakeNFTTesting

extension EndToEnd {
    /// The real binary in tmux: tabs, help, resize, and the terminal restored on every exit path.
    @Suite struct ShellEndToEndTests {
        /// Starts fakenft between two `stty -a` snapshots; `EXIT=<code>` marks its end.
        func launch(_ tmux: Tmux) async throws {
            // One `sh -c` job, so that the commands after fakenft still run after Ctrl-Z and `fg`.
            // The markers are split in the command ("EX""IT") so that only the output matches.
            try await tmux.type(
                "sh -c 'stty -a > before.txt; \(Tmux.binary); echo \"EX\"\"IT=$?\"; stty -a > after.txt; echo DO\"\"NE'"
            )
            try await tmux.passWelcome(waitingFor: "4 Statistics")
        }

        func expectTerminalRestored(_ tmux: Tmux) async throws {
            try await tmux.waitFor("DONE")
            let before = try tmux.file("before.txt"), after = try tmux.file("after.txt")
            #expect(before == after, "stty -a changed:\n\(before)\n---\n\(after)")
        }

        /// Waits until the breadcrumb (the second line) names `title`.
        func waitForTab(_ tmux: Tmux, _ title: String) async throws {
            try await tmux.waitUntil("tab \(title)") {
                $0.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().first?
                    .trimmingCharacters(in: .whitespaces) == title
            }
        }

        @Test func tabsSwitchByNumberAndTabAndHelpOpensAndCloses() async throws {
            let tmux = try await Tmux()
            try await launch(tmux)
            try await tmux.keys("2")
            try await waitForTab(tmux, "Cart")
            try await tmux.keys("Tab")
            try await waitForTab(tmux, "Profile")
            try await tmux.keys("BTab")
            try await waitForTab(tmux, "Cart")
            try await tmux.keys("4")
            try await waitForTab(tmux, "Statistics")
            try await tmux.keys("?")
            try await tmux.waitFor("Keys: Statistics")
            try await tmux.keys("Escape")
            try await tmux.waitUntil("help to close") { !$0.contains("Keys: Statistics") }
            try await waitForTab(tmux, "Statistics")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            try await expectTerminalRestored(tmux)
        }

        @Test func resizeToTinyShowsTooSmallAndBackRestores() async throws {
            let tmux = try await Tmux()
            try await launch(tmux)
            try await tmux.resize(width: 30, height: 8)
            try await tmux.waitFor("Terminal too small")
            try await tmux.resize(width: 100, height: 30)
            try await tmux.waitUntil("restored screen") { $0.contains("4 Statistics") && !$0.contains("too small") }
            try await tmux.keys("C-c")
            try await tmux.waitFor("EXIT=0")
            try await expectTerminalRestored(tmux)
        }

        /// Every signal whose default ends the process (USR2, ALRM, XFSZ, the real-time ones… once
        /// left it raw).
        @Test(arguments: [
            SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGSEGV, SIGABRT, SIGUSR2, SIGALRM, SIGXFSZ, SIGXCPU, SIGVTALRM,
            SIGPROF, SIGSYS, __libc_current_sigrtmin(), __libc_current_sigrtmin() + 1, __libc_current_sigrtmax(),
        ])
        func terminalIsRestoredAfterSignal(_ signal: Int32) async throws {
            let tmux = try await Tmux()
            try await launch(tmux)
            kill(try await tmux.childPID(), signal)
            try await tmux.waitFor("EXIT=")
            try await expectTerminalRestored(tmux)
        }

        /// A session whose main actor never comes back (a frozen screen): an ending signal still
        /// restores the terminal and ends the process (128 + the signal) within about a second, from
        /// the input thread. The session is the test bundle's own `BusySessionChild`.
        @Test func anEndingSignalEndsABusySession() async throws {
            let tmux = try await Tmux()
            let busy = tmux.directory.appendingPathComponent("busy").path
            try await tmux.type(
                """
                sh -c 'stty -a > before.txt; FAKENFT_BUSY_SESSION=\(busy) \(CommandLine.arguments[0]) \
                --testing-library swift-testing --filter BusySessionChild; echo \"EX\"\"IT=$?\"; stty -a > after.txt; \
                echo DO\"\"NE'
                """
            )
            #expect(await polled(within: .seconds(30)) { FileManager.default.fileExists(atPath: busy) })
            kill(try await tmux.childPID(), SIGTERM)
            try await tmux.waitFor("EXIT=\(128 + SIGTERM)", timeout: 10)
            try await expectTerminalRestored(tmux)
        }

        /// A stack overflow on one of Swift's worker threads (no stack left for a handler, unless it
        /// has a signal stack of its own) restores the terminal and writes the crash log. The process
        /// is the test bundle's own `StackOverflowChild`.
        @Test func aStackOverflowOnAWorkerThreadLeavesATrace() async throws {
            let tmux = try await Tmux()
            let log = tmux.directory.appendingPathComponent("crash.log").path
            try await tmux.type(
                """
                sh -c 'stty -a > before.txt; env -u SWIFT_BACKTRACE FAKENFT_OVERFLOW_CRASH_LOG=\(log) \
                \(CommandLine.arguments[0]) --testing-library swift-testing --filter StackOverflowChild; \
                echo \"EX\"\"IT=$?\"; stty -a > after.txt; echo DO\"\"NE'
                """
            )
            // The backtracer symbolicates the whole test bundle: it takes a while.
            try await tmux.waitFor("EXIT=", timeout: 120)
            try await expectTerminalRestored(tmux)
            #expect(try await tmux.screen().contains("crashed; the backtrace is in"))
            let written = try tmux.file("crash.log")
            #expect(written.contains("Program crashed"), "\(written.prefix(500))")
        }

        /// A crash restores the terminal at once, says where the backtrace is, and never waits in
        /// the interactive backtracer (a key pressed right after the crash is not taken by it).
        @Test func aCrashGoesToTheLogNotToAPrompt() async throws {
            let tmux = try await Tmux()
            try await tmux.type(
                """
                sh -c 'stty -a > before.txt; env -u SWIFT_BACKTRACE \(Tmux.binary) --data data; echo \"EX\"\"IT=$?\"; \
                stty -a > after.txt; echo DO\"\"NE'
                """
            )
            try await tmux.passWelcome(waitingFor: "4 Statistics")
            kill(try await tmux.childPID(), SIGSEGV)
            try await tmux.keys("x")
            // The backtracer symbolicates a 140 MB binary: about 10 s alone, longer beside the rest of the suite.
            try await tmux.waitFor("EXIT=", timeout: 90)
            try await expectTerminalRestored(tmux)
            let screen = try await tmux.screen()
            #expect(screen.contains("fakenft crashed; the backtrace is in"), "\(screen)")
            #expect(!screen.contains("Press space"), "no interactive backtracer")
            // Complete: the backtracer got to its last line (a fault in its helper once killed the
            // app halfway and left swift-backtrace waiting forever).
            let log = try tmux.file("data/crash.log")
            #expect(log.contains("Program crashed") && log.contains("Backtrace took"), "\(log)")
        }

        /// The app logs its requests (status and duration) and its end to a file, never the token.
        @Test func requestsAreLoggedToAFileWithoutTheToken() async throws {
            let tmux = try await Tmux()
            try await launch(tmux)
            try await tmux.waitFor("Cart [3]")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            try await tmux.type(
                "\(Tmux.binary) --server http://127.0.0.1:9 --token SECRET-42 --log-level debug; echo \"EX\"\"IT2=$?\"")
            try await tmux.waitFor("Can't reach")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT2=0")
            let log = try tmux.file(".local/state/fakenft/fakenft.log")
            #expect(
                log.contains("GET /api/v1/collections 200 in ") && log.contains("GET /api/v1/orders/1 200 in "),
                "\(log)")
            #expect(
                log.contains("starting (embedded server)")
                    && log.components(separatedBy: "info fakenft: quit").count == 3,
                "both runs logged their last line")
            #expect(log.contains("GET /api/v1/profile/1 failed"), "the unreachable server's failures are logged")
            #expect(!log.contains("SECRET-42"), "never the token")
        }

        /// A token the server refuses is said before the sign-in screen or the tabs, not after the
        /// first requests fail.
        @Test func aRefusedTokenIsSaidBeforeAnythingElse() async throws {
            let tmux = try await Tmux()
            let server = try await tmux.startServer(arguments: "--token RIGHT-TOKEN")
            try await tmux.launchApp(
                "--server \(server.absoluteString) --token WRONG-TOKEN", waitingFor: "Welcome to FakeNFT",
                throughWelcome: false)
            try await tmux.keys("s")
            let screen = try await tmux.waitFor("The server refused the token given")
            #expect(screen.contains("401") && screen.contains("Unauthorized"), "\(screen)")
            try await tmux.keys("C-c")
            try await tmux.waitFor("EXIT=")
        }

        /// With a Russian keyboard layout on, a letter is the command of the key at its place:
        /// `й` is `q`, and quits.
        @Test func aRussianLayoutsLettersAreCommandsToo() async throws {
            let tmux = try await Tmux()
            try await launch(tmux)
            try await tmux.keys("3")
            try await waitForTab(tmux, "Profile")
            try await tmux.keys("й")
            try await tmux.waitFor("EXIT=0")
            try await expectTerminalRestored(tmux)
        }

        /// SIGPIPE (a closed output) once killed the app with the terminal left raw; it is ignored.
        @Test func sigpipeIsIgnored() async throws {
            let tmux = try await Tmux()
            try await launch(tmux)
            kill(try await tmux.childPID(), SIGPIPE)
            try await tmux.keys("3")
            try await waitForTab(tmux, "Profile")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            try await expectTerminalRestored(tmux)
        }

        /// An unset, unknown or cursorless TERM gets a message that says what to set.
        @Test(arguments: [
            ("-u TERM", "TERM is not set"), ("TERM=nosuchterm", "no terminfo entry for TERM=nosuchterm"),
            ("TERM=dumb", "TERM=dumb cannot move the cursor"),
        ])
        func badTerminalTypesAreExplained(environment: String, message: String) async throws {
            let tmux = try await Tmux()
            try await tmux.type("env \(environment) \(Tmux.binary) --data d; echo \"EX\"\"IT=$?\"")
            try await tmux.waitFor("EXIT=1")
            let screen = try await tmux.screen().replacingOccurrences(of: "\n", with: "")
            #expect(screen.contains(message), "\(screen)")
        }

        @Test func ctrlZThenFgRepaints() async throws {
            let tmux = try await Tmux()
            try await launch(tmux)
            let pid = try await tmux.childPID()
            try await tmux.keys("C-z")
            // The process stopping is the criterion; the shell's "Stopped" line is not waited for
            // (under heavy load it was once not shown, see the session notes).
            #expect(await polled(within: .seconds(15)) { Tmux.state(of: pid) == "T" }, "Ctrl-Z stopped the app")
            try await tmux.type("clear; fg")
            try await tmux.passWelcome(waitingFor: "4 Statistics")
            try await tmux.keys("3")
            try await waitForTab(tmux, "Profile")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            try await expectTerminalRestored(tmux)
        }
    }
}
