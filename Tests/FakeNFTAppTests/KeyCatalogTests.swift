import Foundation
import Testing
import TerminalUI
@testable import FakeNFTApp

/// `[keys]` checked against every key map of the app: names, refusals with their line, conflicts.
@MainActor
@Suite struct KeyCatalogTests {
    static func check(_ entries: [(String, [String])]) -> (keys: [String: [Key]], problems: [String]) {
        KeyCatalog.check(
            entries.enumerated().map { KeyEntry(action: $0.element.0, keys: $0.element.1, line: $0.offset + 2) },
            file: "config.toml", against: KeyCatalog.scopes)
    }

    /// Every key map the app's and the widgets' code makes is in the catalog, so that its keys
    /// can be set in `[keys]`, are checked for conflicts and are listed by `config --keys`: the
    /// maps' names as the code gives them (the first argument of each `KeyMap(`).
    @Test func everyKeyMapInTheCodeIsInTheCatalog() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources").standardized
        let made = try Regex(#"KeyMap\(\s*"([a-z-]+)""#)
        var named: Set<String> = []
        for folder in ["FakeNFTApp", "TerminalUI"] {
            let files = FileManager.default.enumerator(atPath: sources.appendingPathComponent(folder).path)
            while let file = files?.nextObject() as? String {
                guard file.hasSuffix(".swift") else { continue }
                let text = try String(
                    contentsOf: sources.appendingPathComponent(folder).appendingPathComponent(file), encoding: .utf8)
                for match in text.matches(of: made) { named.insert(String(match.output[1].substring ?? "")) }
            }
        }
        #expect(named.count >= 20, "the maps were found: \(named.sorted())")
        let catalogued = Set(KeyCatalog.scopes.map(\.name))
        #expect(named.subtracting(catalogued).isEmpty, "made in the code but not in KeyCatalog.scopes")
    }

    @Test func everyActionHasANameOfItsOwnInItsMap() {
        let scopes = KeyCatalog.scopes
        #expect(Set(scopes.map(\.name)).count == scopes.count, "scope names are unique")
        for scope in scopes {
            let names = scope.bindings.map(\.name)
            #expect(Set(names).count == names.count, "\(scope.name): \(names)")
            for name in names + [scope.name] {
                #expect(name.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }, "\(name)")
            }
            for other in scope.with { #expect(scopes.contains { $0.name == other }, "\(scope.name) with \(other)") }
            #expect(scope.bindings.allSatisfy { !$0.keys.isEmpty })
        }
    }

    @Test func goodEntriesGiveTheirKeys() {
        let result = Self.check([
            ("catalog.sort", ["o"]), ("shell.quit", ["x", "Q"]), ("catalog.open", ["q"]), ("list.down", ["down", "J"]),
            ("sign-in.down", ["ctrl-n"]), ("help.close", ["esc"]),
        ])
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.keys["catalog.sort"] == [.char("o")] && result.keys["shell.quit"] == [.char("x"), .char("Q")])
        #expect(result.keys["catalog.open"] == [.char("q")], "q is free once quit has other keys")
        #expect(result.keys["list.down"] == [.down, .char("J")] && result.keys["sign-in.down"] == [.ctrl("n")])
    }

    @Test func badEntriesAreRefusedWithTheirLineAndKeepTheDefaults() {
        let result = Self.check([
            ("bogus.thing", ["z"]), ("catalog", ["z"]), ("catalog.nothing", ["z"]), ("cart.remove", ["zz"]),
            ("shell.help", ["ctrl-c"]), ("catalog.sort", ["f1"]), ("sign-in.down", ["j"]), ("cart.pay", []),
            ("search.keep", ["x"]),
        ])
        #expect(result.keys.isEmpty, "\(result.keys)")
        let expected = [
            "line 2: [keys] bogus.thing: no such action", "line 3: [keys] catalog: no such action",
            "line 4: [keys] catalog.nothing: no such action", "line 5: [keys] cart.remove: 'zz' is not a key",
            "line 6: [keys] shell.help: ctrl-c always means quit", "line 7: [keys] catalog.sort: f1 always means help",
            "line 8: [keys] sign-in.down: 'j' would be typed into the field",
            "line 9: [keys] cart.pay: give at least one key",
            "line 10: [keys] search.keep: 'x' would be typed",
        ]
        #expect(result.problems.count == expected.count, "\(result.problems)")
        for (problem, start) in zip(result.problems, expected) {
            #expect(
                problem.hasPrefix("config.toml " + start) && problem.hasSuffix("the default keys stay"), "\(problem)")
        }
    }

    @Test func aKeyAnotherActionHasWhereBothWorkIsAConflict() {
        // In the same map; with the shell's keys; with the list under a screen's keys.
        for (entry, other) in [
            (("catalog.sort", ["r"]), "catalog.retry"), (("catalog.sort", ["q"]), "shell.quit"),
            (("shell.quit", ["s"]), "catalog.sort"), (("catalog.sort", ["j"]), "list.down"),
            (("nft-grid.like", ["k"]), "grid.up"),
        ] {
            let result = Self.check([entry])
            #expect(result.keys.isEmpty, "\(entry)")
            #expect(
                result.problems.first?.contains("is already \(other)'s key on the same screen") == true,
                "\(result.problems)")
        }
        // Maps never active together do not conflict: the cart's list and a grid, a dialog and the shell.
        #expect(Self.check([("nft-grid.like", ["J"]), ("list.down", ["J"])]).problems.isEmpty)
        #expect(Self.check([("dialog.confirm", ["q"])]).problems.isEmpty)
    }

    @Test func ofTwoEntriesInConflictTheLaterLineGivesWayAndItsDefaultsAreCheckedAgain() {
        let twice = Self.check([("catalog.sort", ["x"]), ("catalog.retry", ["x"])])
        #expect(twice.keys == ["catalog.sort": [.char("x")]], "\(twice)")
        #expect(twice.problems.count == 1 && twice.problems[0].hasPrefix("config.toml line 3: [keys] catalog.retry"))
        // sort takes r, free while retry takes q; but q is the shell's quit, so retry (the later
        // line) keeps its r, and then sort's r meets it: both keep their defaults.
        let chain = Self.check([("catalog.sort", ["r"]), ("catalog.retry", ["q"])])
        #expect(chain.keys.isEmpty, "\(chain)")
        #expect(chain.problems.count == 2, "\(chain.problems)")
    }
}
