import Testing
@testable import TerminalUI

/// Letters of another keyboard layout reach the command of the key at their place.
@Suite struct KeyboardLayoutTests {
    @Test func russianAndUkrainianLettersAreTheirQWERTYPlaces() {
        let row = "йцукенгшщзхъфывапролджэячсмитьбю"
        #expect(String(row.compactMap(KeyboardLayout.qwerty)) == "qwertyuiop[]asdfghjkl;'zxcvbnm,.")
        #expect(KeyboardLayout.qwerty(Character("Й")) == "Q" && KeyboardLayout.qwerty(Character("Ж")) == ":")
        #expect(KeyboardLayout.qwerty(Character("ё")) == "`" && KeyboardLayout.qwerty(Character("Ё")) == "~")
        #expect(KeyboardLayout.qwerty(Character("і")) == "s" && KeyboardLayout.qwerty(Character("Ї")) == "}")
        #expect(Set(KeyboardLayout.russian.values).count == KeyboardLayout.russian.count, "one place per letter")
        for other: Character in ["q", "1", "?", " ", "ß", "日", "\u{1B}"] {
            #expect(KeyboardLayout.qwerty(other) == nil, "\(other)")
        }
        #expect(KeyboardLayout.qwerty(Key.ctrl("й")) == nil && KeyboardLayout.qwerty(Key.enter) == nil)
    }

    @Test func aKeyMapFindsTheCommandAtTheLettersPlaceButTheExactKeyFirst() {
        enum Action { case quit, like, other }
        let map = KeyMap<Action>(
            "test",
            [
                KeyBinding([.char("q")], "Quit", .quit), KeyBinding([.char("l")], "Like", .like),
                KeyBinding([.char("д")], "Other", .other),
            ])
        #expect(map.action(for: .char("й")) == .quit && map.action(for: .char("q")) == .quit)
        #expect(map.action(for: .char("д")) == .other, "a key bound itself is that binding")
        #expect(map.action(for: .char("ж")) == nil)
        #expect(map.exactAction(for: .char("й")) == nil, "in a field, the letter is text")
    }
}
