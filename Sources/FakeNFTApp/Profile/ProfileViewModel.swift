import FakeNFTCore
import Foundation

/// The profile screen's data: the profile, and saving edits.
@MainActor
public final class ProfileViewModel {
    public private(set) var state: LoadState = .loading
    public private(set) var saving = false
    let context: AppContext

    public init(context: AppContext) { self.context = context }

    public var profile: Profile? { context.profileValue }

    public func load() async {
        if profile == nil { state = .loading }
        context.invalidate()
        do {
            try await context.profile.load()
            state = .loaded
        } catch {
            state = profile == nil ? .failed(AppContext.message(for: error)) : .loaded
            if profile != nil { context.showToast(.init("Could not refresh the profile: \(AppContext.message(for: error))", kind: .error)) }
        }
        context.invalidate()
    }

    /// Sends the form's changed fields; returns an error message, or nil when saved.
    public func save(_ form: ProfileForm) async -> String? {
        guard form.isValid else { return "Fix the marked fields first." }
        guard form.hasChanges else { return nil }
        saving = true
        context.invalidate()
        defer { saving = false; context.invalidate() }
        do {
            try await context.profile.update(form.changes)
            return nil
        } catch {
            return "Not saved: \(AppContext.message(for: error))"
        }
    }
}
