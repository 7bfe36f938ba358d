/// How pictures reach the screen.
public enum ImageMode: String, Sendable, Hashable, CaseIterable {
    /// Kitty graphics with Unicode placeholders (kitty ≥ 0.28, Ghostty): pixels placed as text cells.
    case kitty
    /// Sixel images written over the text (xterm -ti vt340, foot, WezTerm, mlterm, Konsole…).
    case sixel
    /// iTerm2 inline images written over the text (iTerm2, WezTerm, VS Code).
    case iterm2
    /// Character art: block symbols in the terminal's colours (every colour terminal).
    case symbols
    /// No pictures: a neutral placeholder.
    case off

    /// True for the protocols that send pixels.
    public var isPixels: Bool { self == .kitty || self == .sixel || self == .iterm2 }
}

/// What `--images` asks for: detection, or one mode.
public enum ImagesChoice: String, Sendable, Hashable, CaseIterable {
    case auto, kitty, sixel, iterm2, symbols, off

    /// The mode forced by this choice; nil for `auto`.
    public var forced: ImageMode? { ImageMode(rawValue: rawValue) }
}
