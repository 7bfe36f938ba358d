/// How styles look on the terminal: a ``Style`` resolved by the ``Theme`` for the terminal's
/// colours, and the SGR parameters that set it.
struct GraphicRenditions {
    let theme: Theme
    let colors: ColorSupport

    /// The style as the terminal is told it: theme roles resolved, colours the terminal has.
    func resolve(_ style: Style) -> Style { theme.resolve(style, colors: colors) }

    /// How a cell with `text` in the resolved `style` looks: a blank shows only its background,
    /// reverse video and underline, so its foreground and weight are dropped (a blank then joins
    /// the text around it instead of needing attributes of its own).
    static func visible(_ style: Style, text: String) -> Style {
        guard text == " ", !style.reverse, !style.underline else { return style }
        return Style(background: style.background)
    }

    /// SGR parameters for the resolved `style`, after a reset: "1;38;5;81".
    func codes(_ style: Style) -> String {
        var codes: [String] = []
        if style.bold { codes.append("1") }
        if style.dim { codes.append("2") }
        if style.underline { codes.append("4") }
        if style.reverse { codes.append("7") }
        if let fg = code(style.foreground, base: 30) { codes.append(fg) }
        if let bg = code(style.background, base: 40) { codes.append(bg) }
        return codes.joined(separator: ";")
    }

    /// SGR parameters that turn the resolved `old` into `new` without a reset: "39;7".
    func changes(from old: Style, to new: Style) -> String {
        var codes: [String] = []
        // One code (22) ends both bold and dim.
        if (old.bold && !new.bold) || (old.dim && !new.dim) {
            codes.append("22")
            if new.bold { codes.append("1") }
            if new.dim { codes.append("2") }
        } else {
            if new.bold && !old.bold { codes.append("1") }
            if new.dim && !old.dim { codes.append("2") }
        }
        if new.underline != old.underline { codes.append(new.underline ? "4" : "24") }
        if new.reverse != old.reverse { codes.append(new.reverse ? "7" : "27") }
        if new.foreground != old.foreground { codes.append(code(new.foreground, base: 30) ?? "39") }
        if new.background != old.background { codes.append(code(new.background, base: 40) ?? "49") }
        return codes.joined(separator: ";")
    }

    private func code(_ color: Color, base: Int) -> String? {
        guard let n = colors.cursesNumber(color), n >= 0 else { return nil }
        return n < 8 ? "\(base + Int(n))" : n < 16 ? "\(base + 60 + Int(n) - 8)" : "\(base + 8);5;\(n)"
    }
}
