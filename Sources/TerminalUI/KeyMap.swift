/// One key binding: the keys, what the help overlay says, the short label in the footer (when
/// the binding is worth a hint there), and the action dispatched.
public struct KeyBinding<Action: Sendable>: Sendable {
    public var keys: [Key]
    public var help: String
    public var hint: String?
    /// The keys as the footer names them, when not the first key alone ("←→").
    public var hintKeys: String?
    /// Whether the action changes data on the server (absent in read-only mode).
    public var changesData: Bool
    public var action: Action
    public init(
        _ keys: [Key], _ help: String, hint: String? = nil, hintKeys: String? = nil, changesData: Bool = false,
        _ action: Action
    ) {
        self.keys = keys
        self.help = help
        self.hint = hint
        self.hintKeys = hintKeys
        self.changesData = changesData
        self.action = action
    }
}

/// One footer hint: a key and what it does, in a word or two.
public struct KeyHint: Sendable, Hashable {
    public var key: String
    public var label: String
    public init(_ key: String, _ label: String) {
        self.key = key
        self.label = label
    }
}

/// Keys mapped to actions. The help overlay and the key-hint bar are generated from the
/// same map that dispatches keys, so they cannot drift apart.
public struct KeyMap<Action: Sendable>: Sendable {
    public var bindings: [KeyBinding<Action>]
    public init(_ bindings: [KeyBinding<Action>]) { self.bindings = bindings }

    /// The map without the bindings that change data (read-only mode).
    public var readingOnly: KeyMap { KeyMap(bindings.filter { !$0.changesData }) }

    /// The action bound to `key`, if any: a letter typed in another keyboard layout finds the
    /// action of the key at its place (``KeyboardLayout``).
    public func action(for key: Key) -> Action? {
        exactAction(for: key) ?? KeyboardLayout.qwerty(key).flatMap(exactAction(for:))
    }

    /// The action bound to `key` itself: where a key that is no command is text for a field.
    public func exactAction(for key: Key) -> Action? {
        bindings.first { $0.keys.contains(key) }?.action
    }

    /// Lines for the help overlay: keys and description.
    public var helpEntries: [HelpEntry] { helpEntries { _ in true } }

    /// Help lines for the bindings whose action passes `include`.
    public func helpEntries(where include: (Action) -> Bool) -> [HelpEntry] {
        bindings.filter { include($0.action) }.map {
            HelpEntry(keys: $0.keys.map(\.description).joined(separator: " "), text: $0.help)
        }
    }

    /// Footer hints (first key and label) for the bindings that have one and pass `include`.
    public func hints(where include: (Action) -> Bool = { _ in true }) -> [KeyHint] {
        bindings.compactMap { binding in
            guard let hint = binding.hint, let key = binding.hintKeys ?? binding.keys.first?.description,
                include(binding.action)
            else { return nil }
            return KeyHint(key, hint)
        }
    }
}

/// One line of the help overlay.
public struct HelpEntry: Sendable, Hashable {
    public var keys: String
    public var text: String
    public init(keys: String, text: String) {
        self.keys = keys
        self.text = text
    }
}
