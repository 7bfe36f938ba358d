/// One key binding: the keys, what the help overlay says, the short label in the footer (when
/// the binding is worth a hint there), and the action dispatched.
public struct KeyBinding<Action: Sendable>: Sendable {
    /// The action's name in its map, as `config.toml`'s `[keys]` table and `fakenft config --keys`
    /// spell it after the map's scope: `sort`, `clear-search`. Made when asked: maps are built
    /// for every key, and naming an action takes reflection.
    public var name: String { givenName ?? Self.kebabCase(String(describing: action)) }
    private let givenName: String?
    public var keys: [Key]
    public var help: String
    public var hint: String?
    /// The keys as the footer names them, when not the first key alone ("←→").
    public var hintKeys: String?
    /// Whether the action changes data on the server (absent in read-only mode).
    public var changesData: Bool
    public var action: Action
    /// A binding named after its action's case (`clearSearch` is `clear-search`) unless `name` says.
    public init(
        _ keys: [Key], _ help: String, hint: String? = nil, hintKeys: String? = nil, changesData: Bool = false,
        name: String? = nil, _ action: Action
    ) {
        givenName = name
        self.keys = keys
        self.help = help
        self.hint = hint
        self.hintKeys = hintKeys
        self.changesData = changesData
        self.action = action
    }

    private static func kebabCase(_ text: String) -> String {
        text.reduce(into: "") { name, character in
            if character.isUppercase { name += "-" + character.lowercased() } else { name.append(character) }
        }
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
/// same map that dispatches keys, so they cannot drift apart. Each map has a scope (`catalog`),
/// and each binding's keys are those ``KeyRemap`` gives `scope.name`, else its defaults.
public struct KeyMap<Action: Sendable>: Sendable {
    /// The map's name in `config.toml`'s `[keys]` table: `catalog` in `catalog.sort`.
    public let scope: String
    public private(set) var bindings: [KeyBinding<Action>]

    /// The map of `scope`, with the keys `remapped` (the user's in this task, ``KeyRemap/current``) gives its actions.
    public init(_ scope: String, _ bindings: [KeyBinding<Action>], remapped: [String: [Key]] = KeyRemap.current) {
        self.scope = scope
        self.bindings =
            remapped.isEmpty ? bindings : bindings.map { KeyRemap.applied(to: $0, in: scope, from: remapped) }
    }

    private init(scope: String, keeping bindings: [KeyBinding<Action>]) {
        self.scope = scope
        self.bindings = bindings
    }

    /// The same map with only the bindings that pass `include`.
    public func filter(_ include: (KeyBinding<Action>) -> Bool) -> KeyMap {
        KeyMap(scope: scope, keeping: bindings.filter(include))
    }

    /// The map without the bindings that change data (read-only mode).
    public var readingOnly: KeyMap { filter { !$0.changesData } }

    /// The action bound to `key`, if any: a letter typed in another keyboard layout finds the
    /// action of the key at its place (``KeyboardLayout``).
    public func action(for key: Key) -> Action? { binding(for: key)?.action }

    /// The binding `key` presses, found as ``action(for:)`` finds its action.
    public func binding(for key: Key) -> KeyBinding<Action>? {
        exactBinding(for: key) ?? KeyboardLayout.qwerty(key).flatMap(exactBinding(for:))
    }

    private func exactBinding(for key: Key) -> KeyBinding<Action>? { bindings.first { $0.keys.contains(key) } }

    /// The action bound to `key` itself: where a key that is no command is text for a field.
    public func exactAction(for key: Key) -> Action? { exactBinding(for: key)?.action }

    /// Lines for the help overlay: keys and description.
    public var helpEntries: [HelpEntry] {
        bindings.map { HelpEntry(keys: $0.keys.map(\.description).joined(separator: " "), text: $0.help) }
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

extension KeyMap where Action: Equatable {
    /// The first key of `action`: what a button that does it sends when clicked.
    public func key(for action: Action) -> Key? {
        bindings.first { $0.action == action }?.keys.first
    }

    /// The first key of `action` as a button's label names it: "p" in "Pay (p)".
    public func keyLabel(for action: Action) -> String { key(for: action)?.description ?? "" }
}

/// An action as the command palette lists it: what it does, its keys (the first is pressed
/// when it is run from the palette), and why it cannot act now (nil: it can).
public struct Command: Sendable, Hashable {
    public var text: String
    public var keys: [Key]
    public var reason: String?
    public init(text: String, keys: [Key], reason: String?) {
        self.text = text
        self.keys = keys
        self.reason = reason
    }

    /// The keys as the help names them.
    public var keysLabel: String { keys.map(\.description).joined(separator: " ") }
}

extension KeyMap {
    /// Every binding as a command: `reason` says why its action cannot act now (nil: it can).
    public func commands(reason: (KeyBinding<Action>) -> String?) -> [Command] {
        bindings.filter { !$0.keys.isEmpty }.map { Command(text: $0.help, keys: $0.keys, reason: reason($0)) }
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
