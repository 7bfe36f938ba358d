/// `FakeNFT-Generation`: the generation of the server's data an answer came from, which a client
/// sends back to read its own writes through any server (docs/server.md). Written as 1 to 18
/// digits, by the server and by the client; anything else is not a generation.
public enum GenerationHeader {
    public static let name = "FakeNFT-Generation"

    /// The generation `text` says, when it is written as servers write one; nil for anything else.
    public static func parse(_ text: String) -> Int? {
        guard (1...18).contains(text.utf8.count), text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int(text)
    }
}
