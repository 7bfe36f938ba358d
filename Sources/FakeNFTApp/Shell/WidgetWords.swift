import Localization
import TerminalUI

/// TerminalUI's words in the app's language: each ``WidgetText`` is worded by the ``TextKey`` of
/// its name.
enum WidgetWords {
    /// Gives TerminalUI its words, once per process (touched by every shell and the key listing).
    static let given: Void = WidgetText.useWords { word, arguments in
        guard let key = keys[word] else { return word.rawValue }
        return Catalog.text(key, arguments, in: Language.current)
    }

    /// Each word's key, found by name once (words are asked for on every key press).
    private static let keys = Dictionary(
        uniqueKeysWithValues: WidgetText.allCases.compactMap { word in
            TextKey(rawValue: word.rawValue).map { (word, $0) }
        })
}
