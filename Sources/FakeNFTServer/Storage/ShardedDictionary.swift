/// A dictionary kept in 256 shards by the keys' hashes. A copy shares the shards until one is
/// changed: a change copies that shard and the list of shards, not every entry, so changing one
/// entry of a copy costs the same at any size (see ``ChunkedArray``).
struct ShardedDictionary<Key: Hashable, Value> {
    private static var shardMask: Int { 255 }

    private var shards: [[Key: Value]]

    init() { shards = Array(repeating: [:], count: Self.shardMask + 1) }

    /// The dictionary of `pairs`; of two with one key, the first is kept.
    init(_ pairs: some Collection<(Key, Value)>) {
        self.init()
        if pairs.count >= 8 * shards.count {
            for index in shards.indices { shards[index].reserveCapacity(pairs.count / shards.count * 5 / 4) }
        }
        for (key, value) in pairs where self[key] == nil { self[key] = value }
    }

    subscript(key: Key) -> Value? {
        get { shards[key.hashValue & Self.shardMask][key] }
        set { shards[key.hashValue & Self.shardMask][key] = newValue }
    }
}

extension ShardedDictionary: Sendable where Key: Sendable, Value: Sendable {}
