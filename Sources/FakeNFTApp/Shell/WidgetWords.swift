import Localization
import TerminalUI

/// TerminalUI's words in the app's language: each ``WidgetText`` is worded by the ``TextKey`` of
/// its name.
enum WidgetWords {
    /// Gives TerminalUI its words, once per process (touched by every shell and the key listing).
    static let given: Void = WidgetText.useWords { word, arguments in
        guard let key = TextKey(rawValue: word.rawValue) else { return word.rawValue }
        return Catalog.text(key, arguments, in: Language.current)
    }
}
