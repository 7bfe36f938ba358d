import Foundation
import Synchronization

/// Fans a value out to any number of `AsyncStream` subscribers; each new subscriber first
/// gets the latest value.
public final class Broadcast<Value: Sendable>: Sendable {
    private struct State {
        var latest: Value?
        var subscribers: [UUID: AsyncStream<Value>.Continuation] = [:]
    }
    private let state: Mutex<State>

    public init(_ initial: Value? = nil) { state = Mutex(State(latest: initial)) }

    public var latest: Value? { state.withLock { $0.latest } }

    /// A stream of values, starting with the latest one.
    public func subscribe() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        let latest = state.withLock { state -> Value? in
            state.subscribers[id] = continuation
            return state.latest
        }
        if let latest { continuation.yield(latest) }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    public func publish(_ value: Value) {
        let subscribers = state.withLock { state in
            state.latest = value
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.yield(value) }
    }
}
