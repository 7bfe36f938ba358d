import ArgumentParser
import Foundation
import Testing
@testable import fakenft

/// The completion scripts, loaded by the shells themselves: the shop's commands complete after
/// `fakenft`, their second words and options after the first, and the app's subcommands and
/// options still as ArgumentParser completes them.
@Suite struct CompletionScriptsTests {
    @Test func theFlagIsReadBothWays() {
        #expect(CompletionScripts.asked(["--generate-completion-script", "zsh"]) == .zsh)
        #expect(CompletionScripts.asked(["--generate-completion-script=fish"]) == .fish)
        #expect(CompletionScripts.asked(["--generate-completion-script", "tcsh"]) == nil, "ArgumentParser says why")
        #expect(CompletionScripts.asked(["cart"]) == nil)
    }

    /// What bash offers for the words of `line` (the last one being completed).
    private func bash(_ line: [String]) throws -> Set<String> {
        let words = (["fakenft"] + line).map { "'\($0)'" }.joined(separator: " ")
        let program = """
            source "$1"
            COMP_WORDS=(\(words)); COMP_CWORD=\(line.count); COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            _fakenft_shop fakenft "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        return Set(
            try run("/bin/bash", ["-c", program, "bash"], script: .bash).split(separator: "\n").map(String.init))
    }

    @Test func bashCompletesTheShopsCommands() throws {
        let first = try bash([""])
        #expect(first.isSuperset(of: ["collections", "nft", "cart", "token", "keys", "pay", "help"]), "\(first)")
        #expect(first.isSuperset(of: ["app", "serve", "config"]), "the subcommands too: \(first)")
        #expect(try bash(["ca"]) == ["cart"])
        #expect(try bash(["cart", ""]) == ["add", "clear", "remove", "--json", "--data", "--server", "--token"])
        #expect(try bash(["cart", "add", "--"]) == ["--json", "--data", "--server", "--token"], "no second verb")
        #expect(try bash(["--server", "http://x", "pay", "--c"]) == ["--currency"], "past the connection's options")
        #expect(try bash(["token", "c"]) == ["create"])
        #expect(try bash(["serve", "--ssh-p"]).contains("--ssh-port"), "serve's options as ArgumentParser has them")
        #expect(try bash(["--the"]) == ["--theme"], "the app's options")
    }

    @Test func fishCompletesTheShopsCommands() throws {
        func fish(_ line: String) throws -> Set<String> {
            let output = try run("/usr/bin/fish", ["-c", "source $argv[1]; complete -C '\(line)'"], script: .fish)
            return Set(output.split(separator: "\n").map { String($0.split(separator: "\t")[0]) })
        }
        #expect(try fish("fakenft ca") == ["cart"])
        #expect(try fish("fakenft ").isSuperset(of: ["collections", "nft", "keys", "serve"]))
        #expect(try fish("fakenft cart ").isSuperset(of: ["add", "clear", "remove"]))
        #expect(try fish("fakenft pay --cur") == ["--currency"])
    }

    @Test func zshLoadsTheScriptWithTheParserBehindIt() throws {
        let program = """
            autoload -U compinit && compinit -u -D
            source "$1"
            whence -w _fakenft _fakenft_parser _fakenft_parser_serve
            """
        let output = try run("/usr/bin/zsh", ["-c", program, "zsh"], script: .zsh)
        #expect(
            output == "_fakenft: function\n_fakenft_parser: function\n_fakenft_parser_serve: function\n", "\(output)")
        let script = CompletionScripts.script(for: .zsh)
        #expect(script.hasPrefix("#compdef fakenft\n"))
        #expect(script.contains("cart) ((CURRENT == at + 1)) && candidates=(add clear remove)"))
    }

    /// Runs `program` with the script for `shell` in a file as its last argument; its output.
    private func run(_ program: String, _ arguments: [String], script shell: CompletionShell) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID().uuidString)")
        try CompletionScripts.script(for: shell).write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments + [file.path]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = FileManager.default.temporaryDirectory.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
