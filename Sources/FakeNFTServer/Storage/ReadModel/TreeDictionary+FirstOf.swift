import HashTreeCollections

extension TreeDictionary {
    /// The dictionary of `pairs`; of two with one key, the first is kept.
    init(firstOf pairs: some Sequence<(Key, Value)>) {
        self.init(pairs, uniquingKeysWith: { first, _ in first })
    }
}
