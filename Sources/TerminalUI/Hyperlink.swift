/// A run of drawn cells that links to a web address: the surface writes it again inside an
/// OSC 8 hyperlink, so terminals that know them make the text clickable and open the address on
/// the user's machine (the only one that may, over SSH). It is written only while the cells
/// drawn are all still there, like a ``PixelOverlay``.
public struct Hyperlink: Sendable, Hashable {
    /// The first cell of the run.
    public var origin: Point
    /// The cells the text was drawn as (one row).
    public var cells: [Cell]
    /// The address: printable ASCII only (see ``isWritable(_:)``).
    public var url: String

    /// Whether `url` may go inside the escape: 1 to 2,000 bytes of printable ASCII, so nothing
    /// in it can end the escape or start another. Callers pass addresses already checked as
    /// web links; this is the terminal's own guard.
    public static func isWritable(_ url: String) -> Bool {
        !url.isEmpty && url.utf8.count <= 2000 && url.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}

/// Whether the terminal is sent OSC 8 hyperlinks. Terminals that do not know them ignore the
/// escape; the consoles that would print it (`linux`, `vt*` and their kind) get none.
public enum HyperlinkSupport {
    /// Decides from `TERM`.
    public static func detect(environment: [String: String]) -> Bool {
        let term = environment["TERM"] ?? ""
        return !["linux", "vt", "dumb", "cons", "ansi", "sun"].contains { term.hasPrefix($0) }
    }
}
