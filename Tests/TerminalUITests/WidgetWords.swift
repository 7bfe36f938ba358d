import Localization
import TerminalUI

/// The widgets' words as the app gives them, for the tests that read them (touch it first).
let widgetWords: Void = WidgetText.useWords { word, arguments in
    TextKey(rawValue: word.rawValue).map { Catalog.text($0, arguments, in: Language.current) } ?? word.rawValue
}
