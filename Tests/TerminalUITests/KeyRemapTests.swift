import Testing
@testable import TerminalUI

/// The keys a `[keys]` table names, and a key map with the keys it gives.
@Suite struct KeyRemapTests {
    @Test func keysAreReadByCharacterOrNameAndWrittenBack() {
        let read: [String: Key] = [
            "o": .char("o"), "G": .char("G"), "/": .char("/"), "й": .char("й"), "ctrl-d": .ctrl("d"),
            "Ctrl-D": .ctrl("d"), "f5": .function(5), "F12": .function(12), "enter": .enter, "esc": .escape,
            "tab": .tab, "shift-tab": .backTab, "backspace": .backspace, "delete": .delete, "space": .char(" "),
            "up": .up, "down": .down, "left": .left, "right": .right, "pgup": .pageUp, "pgdn": .pageDown,
            "home": .home, "end": .end,
        ]
        for (text, key) in read {
            #expect(Key(configName: text) == key, "\(text)")
            #expect(Key(configName: key.configName) == key, "\(key.configName) reads back")
        }
        for bad in ["", "zz", "ctrl-", "ctrl-1", "ctrl-dd", "f0", "f13", " ", "\u{1B}", "\t", "enter!", "esc ape"] {
            #expect(Key(configName: bad) == nil, "\(bad.debugDescription)")
        }
    }

    @Test func aMapTakesTheKeysGivenToItsActionsInHelpHintsAndDispatch() {
        enum Action { case sort, quit, open }
        let bindings = [
            KeyBinding([.char("s")], "Sort", hint: "sort", Action.sort),
            KeyBinding([.char("q"), .ctrl("c")], "Quit", hint: "quit", hintKeys: "q", .quit),
            KeyBinding([.enter], "Open", .open),
        ]
        let map = KeyMap(
            "screen", bindings, remapped: ["screen.sort": [.char("o"), .function(5)], "screen.quit": [.char("x")]])
        #expect(map.action(for: .char("o")) == .sort && map.action(for: .function(5)) == .sort)
        #expect(map.action(for: .char("s")) == nil, "the given keys replace the defaults")
        #expect(map.action(for: .char("x")) == .quit && map.action(for: .ctrl("c")) == .quit, "Ctrl-C stays")
        #expect(map.action(for: .char("щ")) == .sort, "the letter at o's place in ЙЦУКЕН")
        #expect(map.action(for: .enter) == .open)
        #expect(map.helpEntries.map(\.keys) == ["o F5", "x Ctrl-C", "Enter"])
        #expect(map.hints() == [KeyHint("o", "sort"), KeyHint("x", "quit")], "the footer names the key in effect")
        #expect(map.key(for: .sort) == .char("o") && map.keyLabel(for: .quit) == "x")
        #expect(KeyMap("other", bindings, remapped: ["screen.sort": [.char("o")]]).action(for: .char("s")) == .sort)
        #expect(map.filter { $0.action != .open }.bindings.map(\.name) == ["sort", "quit"])
    }

    /// The keys given are the task's: a map built in it or a task it starts takes them, one built
    /// in a task beside it does not, and after it the defaults are back.
    @Test func theKeysGivenAreTheTasks() async {
        enum Action { case sort }
        func built() -> KeyMap<Action> { KeyMap("screen", [KeyBinding([.char("s")], "Sort", Action.sort)]) }
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await KeyRemap.with(["screen.sort": [.char("o")]]) {
                    await Task.yield()
                    let child = await Task { built().action(for: .char("o")) == .sort }.value
                    return child && built().action(for: .char("s")) == nil
                }
            }
            group.addTask {
                await Task.yield()
                return built().action(for: .char("s")) == .sort && built().action(for: .char("o")) == nil
            }
            for await kept in group { #expect(kept) }
        }
        #expect(KeyRemap.current.isEmpty && built().action(for: .char("s")) == .sort)
    }

    @Test func bindingsAreNamedAfterTheirActionInKebabCase() {
        enum Action { case clearSearch, nextLink, open }
        #expect(KeyBinding([.escape], "", Action.clearSearch).name == "clear-search")
        #expect(KeyBinding([.char("]")], "", Action.nextLink).name == "next-link")
        #expect(KeyBinding([.enter], "", name: "go", Action.open).name == "go")
    }

    /// The list's keys are a key map too: other layouts move it, as they run commands.
    @Test func aListMovesWithTheLettersOfAnotherLayout() {
        var list = ListState(count: 5)
        let down = list.handle(.char("о"))
        #expect(down && list.selected == 1, "о is j's place")
        let up = list.handle(.char("л"))
        #expect(up && list.selected == 0, "л is k's place")
        var grid = GridState(count: 5)
        let moved = grid.handle(.char("о"))
        #expect(moved, "the grid's too")
    }
}
