/// One key binding: the keys, what the help overlay says, and the action dispatched.
public struct KeyBinding<Action: Sendable>: Sendable {
    public var keys: [Key]
    public var help: String
    public var action: Action
    public init(_ keys: [Key], _ help: String, _ action: Action) {
        self.keys = keys; self.help = help; self.action = action
    }
}

/// Keys mapped to actions. The help overlay and the key-hint bar are generated from the
/// same map that dispatches keys, so they cannot drift apart.
public struct KeyMap<Action: Sendable>: Sendable {
    public var bindings: [KeyBinding<Action>]
    public init(_ bindings: [KeyBinding<Action>]) { self.bindings = bindings }

    /// The action bound to `key`, if any.
    public func action(for key: Key) -> Action? {
        bindings.first { $0.keys.contains(key) }?.action
    }

    /// Lines for the help overlay: keys and description.
    public var helpEntries: [HelpEntry] {
        bindings.map { HelpEntry(keys: $0.keys.map(\.description).joined(separator: " "), text: $0.help) }
    }
}

/// One line of the help overlay.
public struct HelpEntry: Sendable, Hashable {
    public var keys: String
    public var text: String
    public init(keys: String, text: String) { self.keys = keys; self.text = text }
}
