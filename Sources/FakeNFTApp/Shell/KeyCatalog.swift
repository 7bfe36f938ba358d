import Localization
import TerminalUI

/// An entry of `config.toml`'s `[keys]` table: an action's qualified name, the keys as written,
/// and its line.
public struct KeyEntry: Sendable, Equatable {
    public var action: String
    public var keys: [String]
    public var line: Int
    public init(action: String, keys: [String], line: Int) {
        self.action = action
        self.keys = keys
        self.line = line
    }
}

/// Every key map of the app, by scope: the action names `fakenft config --keys` lists, and the
/// check and use of a `[keys]` table. An entry is refused, naming its line, when its action is
/// unknown, a key cannot be read, it takes F1 or Ctrl-C, a character would be typed text, or a
/// key is another action's where both work (the same map, or maps active on the same screen);
/// its action keeps its default keys.
@MainActor
public enum KeyCatalog {
    /// One map as the catalog sees it.
    struct Scope {
        struct Binding {
            var name: String
            var keys: [Key]
            var help: String
        }
        let name: String
        let bindings: [Binding]
        /// Maps whose keys work on the same screens as this one's.
        let with: [String]
        /// The map's keys are read while text is typed: a character would be text there.
        let takesText: Bool

        init<Action>(_ map: KeyMap<Action>, with: [String] = [], takesText: Bool = false) {
            name = map.scope
            bindings = map.bindings.map { Binding(name: $0.name, keys: $0.keys, help: $0.help) }
            self.with = with
            self.takesText = takesText
        }
    }

    /// Every map, with the keys in effect now.
    static var scopes: [Scope] {
        _ = WidgetWords.given
        let screen = ["shell"]
        return [
            Scope(ShellKeys.map), Scope(HelpOverlay.keys), Scope(ListState.keys, with: screen),
            Scope(GridState.keys, with: screen), Scope(ActionSheet.keys, with: ["list"]),
            Scope(ConfirmDialog.keys), Scope(ListSearch.typingKeys, takesText: true),
            Scope(FinderPanel.keys, takesText: true),
            Scope(Marks.keys(count: 0), with: screen + ["list", "grid", "nft-grid", "cart", "favorites", "matches"]),
            Scope(
                ListSearch.matchKeys,
                with: screen + ["list", "grid", "catalog", "nft-grid", "cart", "my-nfts", "favorites", "statistics"]),
            Scope(CatalogScreen.keys, with: screen + ["list"]), Scope(NFTGridKeys.collection, with: screen + ["grid"]),
            Scope(NFTScreen.keys, with: screen), Scope(ReaderScreen.keys, with: screen),
            Scope(CartScreen.keys, with: screen + ["list"]), Scope(PaymentScreen.keys, with: screen + ["grid"]),
            Scope(PaymentScreen.successKeys, with: screen), Scope(ProfileScreen.keys, with: screen + ["list"]),
            Scope(ProfileScreen.formKeys, takesText: true), Scope(MyNFTsScreen.keys, with: screen + ["list"]),
            Scope(OrdersScreen.keys, with: screen + ["list"]), Scope(OrderScreen.keys, with: screen + ["list"]),
            Scope(KeysScreen.keys, with: screen + ["list"]),
            Scope(NFTGridKeys.favorites, with: screen + ["grid"]),
            Scope(StatisticsScreen.keys, with: screen + ["list"]),
            Scope(UserScreen.keys, with: screen + ["list"]), Scope(OnboardingScene.keys),
            Scope(SignInScene.keys, takesText: true), Scope(ConfigProblemsScene.keys),
            Scope(SceneKeys.map, with: ["onboarding", "sign-in", "problems"]), Scope(RatingPrompt.keys),
        ]
    }

    /// Checks `entries` (from `file`) against the maps' defaults: the keys of every accepted one
    /// (for ``KeyRemap/with(_:isolation:_:)``), and the problems of the others, each naming its line.
    public static func check(_ entries: [KeyEntry], file: String) -> (keys: [String: [Key]], problems: [String]) {
        check(entries, file: file, against: KeyRemap.with([:]) { scopes })
    }

    /// The keys `entries` give, of those that pass the checks against `defaults`, and the
    /// problems of the others, in line order.
    static func check(_ entries: [KeyEntry], file: String, against defaults: [Scope])
        -> (keys: [String: [Key]], problems: [String])
    {
        var problems: [(line: Int, text: String)] = []
        var wanted: [String: (keys: [Key], line: Int)] = [:]
        for entry in entries {
            let name = SafeText.sanitize(entry.action).prefix(60)
            func refuse(_ why: String) {
                problems.append(
                    (entry.line, "\(file) line \(entry.line): [keys] \(name): \(why); the default keys stay"))
            }
            let parts = entry.action.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, let scope = defaults.first(where: { $0.name == parts[0] }),
                scope.bindings.contains(where: { $0.name == parts[1] })
            else {
                refuse("no such action (fakenft config --keys lists them)")
                continue
            }
            if let unread = entry.keys.first(where: { Key(configName: $0) == nil }) {
                refuse("'\(SafeText.sanitize(unread).prefix(20))' is not a key (\(Key.configNames))")
                continue
            }
            var keys: [Key] = []
            for key in entry.keys.compactMap(Key.init(configName:)) where !keys.contains(key) { keys.append(key) }
            if keys.isEmpty {
                refuse("give at least one key")
            } else if let fixed = keys.first(where: KeyRemap.fixed.contains) {
                refuse("\(fixed.configName) always means \(fixed == .ctrl("c") ? "quit" : "help")")
            } else if scope.takesText, let typed = keys.first(where: { if case .char = $0 { true } else { false } }) {
                refuse("'\(typed.configName)' would be typed into the field there; use a key that types nothing")
            } else {
                wanted[entry.action] = (keys, entry.line)
            }
        }
        // A key the user gave that another action has where both work: the later line gives way,
        // and its action's defaults may in turn meet another's given keys, so until none is left.
        while let (action, key, other) = firstConflict(wanted, in: defaults) {
            let line = wanted[action]?.line ?? 0
            problems.append(
                (
                    line,
                    """
                    \(file) line \(line): [keys] \(action): \(key.configName) is already \(other)'s key on the same \
                    screen; the default keys stay
                    """
                ))
            wanted[action] = nil
        }
        return (wanted.mapValues(\.keys), problems.sorted { $0.line < $1.line }.map(\.text))
    }

    /// The given keys' conflict on the latest line, if any: the action, its key and the other action.
    private static func firstConflict(_ wanted: [String: (keys: [Key], line: Int)], in defaults: [Scope])
        -> (String, Key, String)?
    {
        func effective(_ scope: Scope) -> [(name: String, keys: [Key])] {
            scope.bindings.map { binding in
                let qualified = scope.name + "." + binding.name
                guard let keys = wanted[qualified]?.keys else { return (qualified, binding.keys) }
                return (qualified, keys + binding.keys.filter(KeyRemap.fixed.contains))
            }
        }
        for (action, given) in wanted.sorted(by: { $0.value.line > $1.value.line }) {
            let home = action.split(separator: ".")[0]
            let together = defaults.filter {
                $0.name == home || $0.with.contains(String(home))
                    || defaults.first { $0.name == home }?.with.contains($0.name) == true
            }
            for scope in together {
                for binding in effective(scope) where binding.name != action {
                    if let key = given.keys.first(where: binding.keys.contains) { return (action, key, binding.name) }
                }
            }
        }
        return nil
    }

    /// What `fakenft config --keys` prints: every action, its keys in effect and what it does,
    /// in columns two spaces or more apart, with the entries of the file that changed them.
    public static func listing(_ entries: [KeyEntry]) -> String {
        let given = Dictionary(entries.map { ($0.action, $0.line) }, uniquingKeysWith: { first, _ in first })
        let all = scopes
        let rows = all.map { scope in
            scope.bindings.map { binding in
                (
                    name: scope.name + "." + binding.name,
                    keys: binding.keys.map(\.configName).joined(separator: " "), help: binding.help
                )
            }
        }
        let nameWidth = rows.joined().map(\.name.count).max() ?? 0
        let keysWidth = rows.joined().map(\.keys.count).max() ?? 0
        func padded(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: width - text.count) }
        var lines: [String] = []
        for (scope, rows) in zip(all, rows) {
            lines.append("[\(scope.name)]")
            for row in rows {
                let source = KeyRemap.current[row.name] != nil ? "  (config line \(given[row.name] ?? 0))" : ""
                lines.append(
                    "  " + padded(row.name, nameWidth + 2) + padded(row.keys, keysWidth + 2) + row.help + source)
            }
        }
        return lines.joined(separator: "\n")
    }
}
