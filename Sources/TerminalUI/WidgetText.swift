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

    /// The words in use: the app's.
    static let wording = Wording()

    /// Gives the widgets their words: `words` returns a word's text in the current language, its
    /// `{0}`, `{1}`… filled from the arguments.
    public static func useWords(_ words: @escaping @Sendable (WidgetText, [String]) -> String) {
        wording.give(words)
    }

    /// This word as the app says it, with `arguments` in its places.
    func callAsFunction(_ arguments: any CustomStringConvertible...) -> String {
        Self.wording.word(self, arguments.map(\.description))
    }
}

/// Where the app's wording is kept. The function lives in an immutable object and only that
/// object's reference crosses the lock: a function value kept in a lock and read back out is
/// wrapped in one more re-abstraction thunk on every read, so each word would cost more than the
/// last, until the stack overflows (5,000 list moves did).
final class Wording: Sendable {
    typealias Words = @Sendable (WidgetText, [String]) -> String

    private final class Given: Sendable {
        let words: Words
        init(_ words: @escaping Words) { self.words = words }
    }

    private let given = Mutex<Given?>(nil)

    /// Keeps `words` in place of any given before.
    func give(_ words: @escaping Words) {
        let given = Given(words)
        self.given.withLock { $0 = given }
    }

    /// The word's text with `arguments`; until words are given, the word's name.
    func word(_ word: WidgetText, _ arguments: [String]) -> String {
        guard let given = given.withLock({ $0 }) else { return word.rawValue }
        return given.words(word, arguments)
    }
}
