import CNCursesW
import Glibc

/// Display widths as the terminal sees them (wcwidth), and cutting text to a width with "…".
public enum DisplayWidth {
    /// wcwidth needs a UTF-8 locale; tests and tools may start in the C locale.
    private static let localeReady: Bool = {
        if String(cString: cnc_codeset()) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
        return true
    }()

    /// Cells one grapheme cluster takes: 0, 1 or 2.
    public static func of(_ c: Character) -> Int {
        _ = localeReady
        let scalars = c.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F { return first.value >= 0x20 ? 1 : 0 }
        if scalars.contains(where: { $0.value == 0xFE0F }) || first.properties.isEmojiPresentation { return 2 }
        if (0x1F1E6...0x1F1FF).contains(first.value) { return scalars.count > 1 ? 2 : 1 }
        let w = Int(cnc_wcwidth(wchar_t(bitPattern: first.value)))
        return max(0, w)
    }

    /// Cells a whole string takes.
    public static func of(_ s: String) -> Int {
        var total = 0
        for c in s { total += of(c) }
        return total
    }

    /// Cuts `s` so that it fits in `width` cells, ending with "…" when something was cut.
    public static func truncate(_ s: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if s.utf8.count <= width, s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return s }
        if of(s) <= width { return s }
        var out = ""
        var used = 0
        for c in s {
            let w = of(c)
            if used + w > width - 1 { break }
            out.append(c)
            used += w
        }
        return out + "…"
    }

    /// Pads `s` with spaces (or cuts it) to exactly `width` cells.
    public static func pad(_ s: String, to width: Int) -> String {
        let t = truncate(s, to: width)
        return t + String(repeating: " ", count: max(0, width - of(t)))
    }

    /// Splits `text` into lines of at most `width` cells, breaking at spaces where possible
    /// (runs of spaces become one) and hard-breaking words longer than a line. Explicit newlines
    /// start new lines. One pass that stops after `maxLines` lines, so a caller that shows a few
    /// lines of a huge text pays only for those.
    public static func wrap(_ text: String, width: Int, maxLines: Int = .max) -> [String] {
        guard width > 0, maxLines > 0 else { return [] }
        var lines: [String] = []
        var line = "", lineWidth = 0
        var word = "", wordWidth = 0
        func endLine() {
            if lines.count < maxLines { lines.append(line) }
            line = ""; lineWidth = 0
        }
        func placeWord() {
            guard !word.isEmpty else { return }
            if lineWidth > 0 && lineWidth + 1 + wordWidth <= width {
                line += " " + word; lineWidth += 1 + wordWidth
            } else {
                if lineWidth > 0 { endLine() }
                line = word; lineWidth = wordWidth
            }
            word = ""; wordWidth = 0
        }
        for c in text {
            if lines.count >= maxLines { return lines }
            switch c {
            case "\n", "\r\n":
                placeWord()
                endLine()
            case " ":
                placeWord()
            default:
                let cw = of(c)
                if !word.isEmpty && wordWidth + cw > width {   // a word longer than a line: hard-break it
                    if lineWidth > 0 { endLine() }
                    line = word; lineWidth = wordWidth
                    endLine()
                    word = ""; wordWidth = 0
                }
                word.append(c); wordWidth += cw
            }
        }
        placeWord()
        endLine()
        return lines
    }
}
