extension ShopCommand {
    /// What a shell completes after one first word of the commands.
    public struct Completion: Sendable, Equatable {
        /// The first word (`cart`).
        public let word: String
        /// The second words of the commands it begins (`add`, `clear`, `remove`), sorted.
        public let verbs: [String]
        /// The options of those commands (`--currency`) and `--json`, sorted.
        public let options: [String]
    }

    /// One ``Completion`` for each first word of ``all``, in their order, then `help` (which
    /// completes the first words).
    public static var completions: [Completion] {
        var firsts: [String] = []
        var verbs: [String: Set<String>] = [:], options: [String: Set<String>] = [:]
        for command in all {
            let words = command.name.split(separator: " ").map(String.init)
            if verbs[words[0]] == nil { firsts.append(words[0]) }
            verbs[words[0], default: []].formUnion(words.dropFirst())
            options[words[0], default: ["--json"]].formUnion(command.options.map { "--" + $0.name })
        }
        return firsts.map {
            Completion(word: $0, verbs: verbs[$0, default: []].sorted(), options: options[$0, default: []].sorted())
        }
            + [Completion(word: "help", verbs: firsts, options: [])]
    }
}
