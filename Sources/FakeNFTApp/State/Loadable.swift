import Localization
import FakeNFTCore
import Observation

/// Data a screen waits for: loading, failed with a typed error, or loaded. The error keeps its
/// type, so a screen can tell "offline, retry" from "not found".
enum Loadable<Value, Failure: LoadFailure> {
    case loading
    case failed(Failure)
    case loaded(Value)

    var value: Value? {
        if case .loaded(let value) = self { return value }
        return nil
    }

    var failure: Failure? {
        if case .failed(let failure) = self { return failure }
        return nil
    }

    var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }
}

extension Loadable: Equatable where Value: Equatable, Failure: Equatable {}
extension Loadable: Sendable where Value: Sendable, Failure: Sendable {}

/// An error a load can end in, made from whatever the work threw, with a message for the user.
protocol LoadFailure: Error {
    init(thrown error: any Error)
    /// What went wrong, in the current language.
    var message: String { get }
}

extension APIError: LoadFailure {}

extension WebPageError: LoadFailure {
    init(thrown error: any Error) {
        self = error as? WebPageError ?? .other(String(describing: error))
    }
}

/// A main-actor view model whose state redraws the screen when it changes.
@MainActor
protocol ViewModel: AnyObject, Observable {}

extension ViewModel {
    /// Runs `work` into the loadable at `path`: loading first (unless it already holds a value
    /// and `keepingValue`), then the value or the typed error. A cancelled load (its screen was
    /// closed) leaves the state as it is.
    func load<Value, Failure>(
        _ path: ReferenceWritableKeyPath<Self, Loadable<Value, Failure>>, keepingValue: Bool = false,
        _ work: () async throws -> Value
    ) async {
        if !keepingValue || self[keyPath: path].value == nil { self[keyPath: path] = .loading }
        do {
            let value = try await work()
            guard !Task.isCancelled else { return }
            self[keyPath: path] = .loaded(value)
        } catch {
            guard !Task.isCancelled else { return }
            self[keyPath: path] = .failed(Failure(thrown: error))
        }
    }
}
