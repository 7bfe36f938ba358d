import Foundation

/// The colours the app draws with, for the terminal's background: every coloured style names a
/// role (``Color/theme(_:)``) and the theme gives it a colour when the frame reaches the
/// terminal, so one frame serves a dark, a light and a monochrome terminal.
public struct Theme: Sendable, Hashable {
    /// What a colour is for.
    public enum Role: String, Sendable, Hashable, CaseIterable {
        case accent, error, success, link, star, heart, muted, border

        /// Text must reach 4.5:1 against the background; symbols (stars, hearts, borders) 3:1.
        public var minimumContrast: Double { self == .star || self == .heart || self == .border ? 3 : 4.5 }
    }

    public enum Name: String, Sendable, Hashable, CaseIterable { case dark, light, mono }

    public let name: Name
    /// The background the colours were chosen for, for the contrast check.
    public let background: RGB
    /// A 256-colour palette index per role (16-255: the fixed cube and greys, not the user's 16).
    public let colors: [Role: UInt8]
    /// The 8 ANSI colours per role, for terminals with fewer than 256 colours.
    public let basic: [Role: Color]

    public static let dark = Theme(
        name: .dark, background: RGB(0, 0, 0),
        colors: [
            .accent: 81, .error: 203, .success: 77, .link: 75, .star: 220, .heart: 203, .muted: 246, .border: 243,
        ],
        basic: [
            .accent: .cyan, .error: .red, .success: .green, .link: .blue, .star: .yellow, .heart: .red, .muted: .white,
            .border: .white,
        ])

    public static let light = Theme(
        name: .light, background: RGB(255, 255, 255),
        colors: [
            .accent: 25, .error: 160, .success: 22, .link: 25, .star: 136, .heart: 160, .muted: 242, .border: 245,
        ],
        basic: [
            .accent: .blue, .error: .red, .success: .green, .link: .blue, .star: .yellow, .heart: .red, .muted: .black,
            .border: .black,
        ])

    /// Bold, reverse, underline and dim only.
    public static let mono = Theme(name: .mono, background: RGB(0, 0, 0), colors: [:], basic: [:])

    public static func named(_ name: Name) -> Theme {
        switch name {
        case .dark: dark
        case .light: light
        case .mono: mono
        }
    }

    /// `style` with its roles turned into colours (or, in mono, into attributes): dim text gets
    /// the muted colour instead of the terminal's faint rendering, which light backgrounds wash out.
    public func resolve(_ style: Style, colors support: ColorSupport) -> Style {
        var out = style
        if name == .mono || support == .none {
            if case .theme(let role) = style.foreground {
                out.foreground = .default
                switch role {
                case .accent, .error, .success, .heart: out.bold = true
                case .link: out.underline = true
                case .muted, .border: out.dim = true
                case .star: break
                }
            }
            if case .theme = style.background {
                out.background = .default
                out.reverse = true
            }
            return out
        }
        if style.dim, style.foreground == .default, !style.reverse {
            out.foreground = .theme(.muted)
            out.dim = false
        }
        out.foreground = color(out.foreground, support)
        out.background = color(out.background, support)
        return out
    }

    private func color(_ color: Color, _ support: ColorSupport) -> Color {
        guard case .theme(let role) = color else { return color }
        if support == .full, let index = colors[role] { return .indexed(index) }
        return basic[role] ?? .default
    }

    /// `--theme`: one of the themes, or `auto` (the terminal's background decides).
    public enum Choice: String, Sendable, Hashable, CaseIterable { case auto, dark, light, mono }

    /// The theme for `choice`: for `auto`, the background the terminal reported (OSC 11), else
    /// `COLORFGBG`, else dark; with the reason, for `--probe-terminal`.
    public static func decide(choice: Choice, environment: [String: String], replies: TerminalReplies?) -> (
        theme: Theme, reason: String
    ) {
        if let name = Name(rawValue: choice.rawValue) { return (named(name), "--theme \(name.rawValue) was given") }
        if let v = environment["NO_COLOR"], !v.isEmpty { return (.mono, "NO_COLOR is set: no colours") }
        if let scheme = replies?.colorScheme {
            return (scheme == .light ? .light : .dark, "the terminal reports a \(scheme.rawValue) colour scheme")
        }
        if let background = replies?.background {
            let theme = forBackground(background)
            return (theme, "the terminal's background is \(background) (OSC 11): \(theme.name.rawValue)")
        }
        if let last = environment["COLORFGBG"]?.split(separator: ";").last, let index = Int(last) {
            let light = index == 7 || (9...15).contains(index)
            return (
                light ? .light : .dark, "COLORFGBG says the background is colour \(index): \(light ? "light" : "dark")"
            )
        }
        return (.dark, "the terminal did not say its background colour: dark assumed")
    }

    /// The theme for a terminal whose background is `rgb` (its relative luminance decides).
    public static func forBackground(_ rgb: RGB) -> Theme {
        luminance(rgb) > 0.4 ? .light : .dark
    }

    /// WCAG relative luminance of an sRGB colour.
    public static func luminance(_ rgb: RGB) -> Double {
        func linear(_ v: UInt8) -> Double {
            let c = Double(v) / 255
            return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(rgb.red) + 0.7152 * linear(rgb.green) + 0.0722 * linear(rgb.blue)
    }

    /// WCAG contrast ratio between two colours (1 to 21).
    public static func contrast(_ a: RGB, _ b: RGB) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    /// The RGB of a 256-colour palette index 16-255 (xterm's cube and grey ramp).
    public static func rgb(_ index: UInt8) -> RGB {
        if index >= 232 {
            let v = UInt8(8 + Int(index - 232) * 10)
            return RGB(v, v, v)
        }
        let levels: [UInt8] = [0, 95, 135, 175, 215, 255], i = max(0, Int(index) - 16)
        return RGB(levels[i / 36], levels[(i / 6) % 6], levels[i % 6])
    }
}

/// The colour scheme a terminal says it shows (mode 2031): dark or light, as its user set it.
public enum ColorScheme: String, Sendable, Hashable {
    case dark, light
}

/// A colour as red, green and blue, 0-255 each.
public struct RGB: Sendable, Hashable, CustomStringConvertible {
    public var red, green, blue: UInt8
    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }
    public var description: String {
        "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
