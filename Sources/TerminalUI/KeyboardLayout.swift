/// Letters typed with another keyboard layout active, read as the key at the same place on a US
/// QWERTY keyboard, so that `q` quits and `j` moves whatever layout is on. One table per layout
/// (a letter belongs to one layout, so no guessing is needed), applied only to commands: text
/// typed into a field stays as typed (``KeyMap/exactAction(for:)``).
public enum KeyboardLayout {
    /// Russian ЙЦУКЕН (the standard layout of Windows, macOS and X11 `ru`), lower case.
    static let russian: [Character: Character] = [
        "й": "q", "ц": "w", "у": "e", "к": "r", "е": "t", "н": "y", "г": "u", "ш": "i", "щ": "o", "з": "p",
        "х": "[", "ъ": "]", "ф": "a", "ы": "s", "в": "d", "а": "f", "п": "g", "р": "h", "о": "j", "л": "k",
        "д": "l", "ж": ";", "э": "'", "я": "z", "ч": "x", "с": "c", "м": "v", "и": "b", "т": "n", "ь": "m",
        "б": ",", "ю": ".", "ё": "`",
    ]
    /// Ukrainian ЙЦУКЕН: Russian's places, with і, ї, є and ґ where ы, ъ, э and ё are.
    static let ukrainian: [Character: Character] = ["і": "s", "ї": "]", "є": "'", "ґ": "`"]
    /// Shifted: the upper-case letters and the symbols the shifted QWERTY keys give.
    static let shifted: [Character: Character] = [
        "[": "{", "]": "}", ";": ":", "'": "\"", ",": "<", ".": ">", "`": "~",
    ]

    /// The QWERTY key at the place of `character` in a known layout; nil for anything else.
    public static func qwerty(_ character: Character) -> Character? {
        let lower = Character(character.lowercased())
        guard let place = russian[lower] ?? ukrainian[lower] else { return nil }
        guard lower != character else { return place }
        return shifted[place] ?? Character(place.uppercased())
    }

    /// `key` as the QWERTY key at its place, when it is a letter of a known layout.
    public static func qwerty(_ key: Key) -> Key? {
        guard case .char(let character) = key, let place = qwerty(character) else { return nil }
        return .char(place)
    }
}
