import Synchronization

/// The keys the user gave actions (`config.toml`'s `[keys]` table), by qualified name
/// (`catalog.sort`): the app runs inside ``with(_:isolation:_:)``, and every ``KeyMap`` built
/// in that task (or a task it starts) takes them, so dispatch, help, footer hints and the
/// buttons that press keys all follow them; ``replace(_:)`` gives it new ones (the settings read
/// again), which the next frame's maps take. An app beside it in the same process (a test's)
/// keeps its own.
public enum KeyRemap {
    /// Keys that keep their meaning whatever the table says: F1 (help) and Ctrl-C (quit) work
    /// on every screen, over every dialog and field.
    public static let fixed: Set<Key> = [.function(1), .ctrl("c")]

    /// The keys given in this task, by qualified name (none: every action has its defaults).
    public static var current: [String: [Key]] { given?.keys.withLock { $0 } ?? [:] }

    /// Runs `work` with `keys` (already checked: no fixed keys, no conflicts) given to the actions
    /// they name, in this task and the tasks it starts.
    public static func with<R>(
        _ keys: [String: [Key]], isolation: isolated (any Actor)? = #isolation, _ work: () async throws -> R
    ) async rethrows -> R {
        try await $given.withValue(Given(keys), operation: work, isolation: isolation)
    }

    /// Runs `work` with `keys` given to the actions they name (none: the defaults).
    public static func with<R>(_ keys: [String: [Key]], _ work: () throws -> R) rethrows -> R {
        try $given.withValue(Given(keys), operation: work)
    }

    /// Gives the actions `keys` in place of the ones given to this task's ``with(_:isolation:_:)``
    /// (and the tasks it started); outside one, nothing.
    public static func replace(_ keys: [String: [Key]]) { given?.keys.withLock { $0 = keys } }

    /// The keys one ``with(_:isolation:_:)`` gave, which ``replace(_:)`` changes for all its tasks.
    private final class Given: Sendable {
        let keys: Mutex<[String: [Key]]>
        init(_ keys: [String: [Key]]) { self.keys = Mutex(keys) }
    }

    @TaskLocal private static var given: Given?

    /// `binding` with the keys `table` gives `scope.name`, and the fixed keys it had; unchanged when none.
    static func applied<Action>(to binding: KeyBinding<Action>, in scope: String, from table: [String: [Key]])
        -> KeyBinding<Action>
    {
        guard let keys = table[scope + "." + binding.name] else { return binding }
        var remapped = binding
        remapped.keys = keys + binding.keys.filter(fixed.contains)
        remapped.hintKeys = nil
        return remapped
    }
}

extension Key {
    /// The key a `[keys]` entry names: one character (`"o"`, `"G"`, `"/"`), or a name, any case:
    /// `ctrl-d`, `f5`, `enter`, `esc`, `tab`, `shift-tab`, `backspace`, `delete`, `space`, `up`,
    /// `down`, `left`, `right`, `pgup`, `pgdn`, `home`, `end`.
    public init?(configName text: String) {
        if text.count == 1, let character = text.first, !character.isWhitespace,
            !character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        {
            self = .char(character)
            return
        }
        let name = text.lowercased()
        if name.hasPrefix("ctrl-"), name.count == 6, let letter = name.last, letter.isASCII, letter.isLetter {
            self = .ctrl(letter)
            return
        }
        if name.hasPrefix("f"), let number = Int(name.dropFirst()), (1...12).contains(number) {
            self = .function(number)
            return
        }
        guard let key = Self.named.first(where: { $0.name == name })?.key else { return nil }
        self = key
    }

    /// How `[keys]` and `fakenft config --keys` spell this key.
    public var configName: String {
        switch self {
        case .char(" "): return "space"
        case .char(let character): return String(character)
        case .ctrl(let letter): return "ctrl-\(letter)"
        case .function(let number): return "f\(number)"
        default: return Self.named.first { $0.key == self }?.name ?? description
        }
    }

    /// Every spelling `[keys]` reads, for messages: "one character, ctrl-a…ctrl-z, f1…f12, enter, …".
    public static var configNames: String {
        (["one character", "ctrl-a…ctrl-z", "f1…f12"] + named.map(\.name)).joined(separator: ", ")
    }

    private static let named: [(name: String, key: Key)] = [
        ("enter", .enter), ("esc", .escape), ("tab", .tab), ("shift-tab", .backTab), ("backspace", .backspace),
        ("delete", .delete), ("space", .char(" ")), ("up", .up), ("down", .down), ("left", .left),
        ("right", .right), ("pgup", .pageUp), ("pgdn", .pageDown), ("home", .home), ("end", .end),
    ]
}
