/// Starts a screen's first load once, the first time the screen appears.
@MainActor
struct FirstAppearance {
    private var done = false

    mutating func load(_ work: @escaping @MainActor () async -> Void) {
        guard !done else { return }
        done = true
        Task { await work() }
    }
}
