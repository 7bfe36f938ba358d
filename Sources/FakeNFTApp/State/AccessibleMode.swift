import Synchronization

/// `fakenft --accessible` (config `accessible`): for screen readers. Besides the cursor on the
/// selection and still spinners (``TerminalUI``), what is drawn reads aloud as words: pictures as
/// their names, ratings as "4 of 5". Set once, at start.
public enum AccessibleMode {
    private static let on = Atomic<Bool>(false)

    public static var isOn: Bool {
        get { on.load(ordering: .relaxed) }
        set { on.store(newValue, ordering: .relaxed) }
    }
}
