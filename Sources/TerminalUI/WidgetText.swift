import Synchronization

/// The words TerminalUI's widgets show themselves (the movement keys' help, the menu's and the
/// dialog's hints, the help overlay's footer, the too-small screen): named here and worded by the
/// app (``useWords(_:)``), so the kit holds no app strings and speaks the app's language.
public enum WidgetText: String, CaseIterable, Sendable {
    case tooSmallTitle, tooSmallSizes, tooSmallAdvice
    case moveUp, moveDown, moveLeft, moveRight, moveFirst, moveLast, pageUp, pageDown
    case scrollUp, scrollDown, closeHelp, helpScroll, helpClose
    case menuChoose, menuClose, menuChooseByNumber, hintChoose, hintClose, hintMove
    case dialogSwitch, dialogPress, dialogConfirm, dialogCancel, hintPress, hintCancel
    case editorMove, editorDelete, editorDeleteMore

    /// Until the app gives its words, a word is its name.
    private static let words = Mutex<@Sendable (WidgetText, [String]) -> String>({ word, _ in word.rawValue })

    /// Gives the widgets their words: `words` returns a word's text in the current language, its
    /// `{0}`, `{1}`… filled from the arguments.
    public static func useWords(_ words: @escaping @Sendable (WidgetText, [String]) -> String) {
        self.words.withLock { $0 = words }
    }

    /// This word as the app says it, with `arguments` in its places.
    func callAsFunction(_ arguments: any CustomStringConvertible...) -> String {
        let words = Self.words.withLock { $0 }
        return words(self, arguments.map(\.description))
    }
}
