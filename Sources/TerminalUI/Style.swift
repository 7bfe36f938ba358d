/// A terminal colour: the terminal's default, one of the 16 ANSI colours, or a 256-colour index.
public enum Color: Sendable, Hashable {
    case `default`
    case black, red, green, yellow, blue, magenta, cyan, white
    /// An xterm 256-colour palette index (16-255 are the colour cube and grey ramp).
    case indexed(UInt8)
    /// The theme's colour for a role, chosen when the frame reaches the terminal (``Theme``).
    case theme(Theme.Role)

    /// The colour cube entry nearest to an RGB value (0-255 per channel).
    public static func rgb(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Color {
        func level(_ v: UInt8) -> Int { v < 48 ? 0 : v < 115 ? 1 : (Int(v) - 35) / 40 }
        return .indexed(UInt8(16 + 36 * level(r) + 6 * level(g) + level(b)))
    }
}

/// How a run of text looks: colours plus attributes.
public struct Style: Sendable, Hashable {
    public var foreground: Color
    public var background: Color
    public var bold: Bool
    public var dim: Bool
    public var reverse: Bool
    public var underline: Bool

    public init(
        foreground: Color = .default, background: Color = .default,
        bold: Bool = false, dim: Bool = false, reverse: Bool = false, underline: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    public static let plain = Style()
    public static let bold = Style(bold: true)
    public static let dim = Style(dim: true)
    /// The selection highlight: reverse video stays visible without colours (NO_COLOR).
    public static let selected = Style(bold: true, reverse: true)
    public static let accent = Style(foreground: .theme(.accent), bold: true)
    public static let error = Style(foreground: .theme(.error), bold: true)
    public static let success = Style(foreground: .theme(.success), bold: true)
    public static let link = Style(foreground: .theme(.link), underline: true)
    /// Rating stars.
    public static let star = Style(foreground: .theme(.star))
    /// A liked NFT's heart.
    public static let heart = Style(foreground: .theme(.heart), bold: true)

    public func with(foreground: Color) -> Style {
        var s = self
        s.foreground = foreground
        return s
    }
    public func with(background: Color) -> Style {
        var s = self
        s.background = background
        return s
    }
    public func bolded() -> Style {
        var s = self
        s.bold = true
        return s
    }
}
