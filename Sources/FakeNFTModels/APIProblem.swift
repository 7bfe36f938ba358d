/// What a FakeNFT server names a 503's cause with, beside its message, so that a client can say
/// it in its own words: the header, and its values.
public enum APIProblem {
    public static let header = "FakeNFT-Problem"
    /// The server cannot store changes now (its disk is full, its database read-only): nothing was changed.
    public static let cannotStore = "cannot-store"
}
