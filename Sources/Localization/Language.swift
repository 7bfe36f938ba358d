import Synchronization

/// The languages the interface speaks.
public enum Language: String, CaseIterable, Sendable {
    case en, ru

    /// The language of the locale variables, as the C library reads them: the first of `LC_ALL`,
    /// `LC_MESSAGES` and `LANG` that is set and not empty decides (`ru_RU.UTF-8` is Russian);
    /// nil when none is set or it names a language the app does not speak.
    public static func fromLocale(_ environment: [String: String]) -> (language: Language, variable: String)? {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            let code = value.prefix { $0.isLetter }.lowercased()
            return Language(rawValue: code).map { ($0, name) }
        }
        return nil
    }

    /// The language strings are looked up in: the task's (tests draw in both languages at once),
    /// else the process's (set once at start-up).
    public static var current: Language { taskLanguage ?? processLanguage.withLock { $0 } }

    /// Sets the process's language (the app does it once, before drawing anything).
    public static func setProcessLanguage(_ language: Language) { processLanguage.withLock { $0 = language } }

    /// Runs `work` with `language` as the current language of this task and the tasks it starts.
    public static func with<R>(
        _ language: Language, isolation: isolated (any Actor)? = #isolation,
        _ work: () async throws -> R
    ) async rethrows -> R {
        try await $taskLanguage.withValue(language, operation: work, isolation: isolation)
    }

    @TaskLocal private static var taskLanguage: Language?
    private static let processLanguage = Mutex(Language.en)
}
