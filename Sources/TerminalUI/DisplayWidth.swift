import CNCursesW
import Glibc

/// Display widths as the terminal sees them (wcwidth), and cutting text to a width with "…".
public enum DisplayWidth {
    /// wcwidth needs a UTF-8 locale; tests and tools may start in the C locale.
    private static let localeReady: Bool = {
        if String(cString: cnc_codeset()) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
        return true
    }()

    /// Cells one grapheme cluster takes when drawn (in its ``displayForm(_:)``): 0, 1 or 2.
    public static func of(_ c: Character) -> Int {
        _ = localeReady
        let scalars = displayForm(c).unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F { return first.value >= 0x20 ? 1 : 0 }
        // a flag: two letters or one glyph, 2 cells
        if (0x1F1E6...0x1F1FF).contains(first.value) { return scalars.count > 1 ? 2 : 1 }
        if first.properties.isEmojiPresentation { return 2 }
        return max(0, Int(cnc_wcwidth(wchar_t(bitPattern: first.value))))
    }

    /// Cells `scalar` takes when it is a character by itself whatever surrounds it and drawn as
    /// it is (Latin, Greek, Cyrillic, punctuation, currency, symbols, arrows, box drawing): the
    /// same as ``of(_:)-(Character)`` says, without breaking text into characters. Nil for any
    /// other scalar (combining marks, joiners, selectors, emoji modifiers, flags, CJK).
    static func standaloneWidth(_ scalar: Unicode.Scalar) -> Int? {
        let v = scalar.value
        if v < 0x7F { return v >= 0x20 ? 1 : 0 }
        guard
            v < 0x300 || (0x370...0x482).contains(v) || (0x48A...0x52F).contains(v) || (0x2010...0x2027).contains(v)
                || (0x2030...0x205E).contains(v) || (0x2070...0x20CF).contains(v) || (0x2100...0x2BFF).contains(v)
        else { return nil }
        _ = localeReady
        if v >= 0x231A, scalar.properties.isEmojiPresentation { return 2 }
        return max(0, Int(cnc_wcwidth(wchar_t(bitPattern: v))))
    }

    /// Cells `text` takes when every scalar of it has a ``standaloneWidth(_:)``; nil otherwise.
    static func standaloneWidth(_ text: String) -> Int? {
        var total = 0
        for scalar in text.unicodeScalars {
            guard let width = standaloneWidth(scalar) else { return nil }
            total += width
        }
        return total
    }

    /// The form of a grapheme cluster the app draws, one whose width terminals agree on.
    /// Terminals disagree on emoji sequences: a ZWJ family is one glyph in some and three in
    /// others, `❤️` (with VS16) one cell or two. So a ZWJ sequence is drawn as its first part,
    /// and presentation selectors, skin-tone modifiers, keycaps and tag characters are left out;
    /// at most 5 scalars remain (what a curses cell holds).
    public static func displayForm(_ c: Character) -> Character {
        let scalars = c.unicodeScalars
        guard scalars.count > 1, let first = scalars.first, !(0x1F1E6...0x1F1FF).contains(first.value) else { return c }
        var kept = String.UnicodeScalarView()
        for scalar in scalars {
            let v = scalar.value
            if v == 0x200D || kept.count == 5 { break }
            if v == 0xFE0E || v == 0xFE0F || v == 0x20E3 || (0x1F3FB...0x1F3FF).contains(v)
                || (0xE0020...0xE007F).contains(v)
            {
                continue
            }
            kept.append(scalar)
        }
        let form = String(kept)
        return form.count == 1 ? Character(form) : (form.first ?? " ")
    }

    /// `text` with every grapheme cluster in its ``displayForm(_:)``.
    public static func displayText(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) || standaloneWidth(text) != nil { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text { out.append(displayForm(c)) }
        return out
    }

    /// Cells a whole string takes.
    public static func of(_ s: String) -> Int {
        if let width = standaloneWidth(s) { return width }
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
            line = ""
            lineWidth = 0
        }
        func placeWord() {
            guard !word.isEmpty else { return }
            if lineWidth > 0 && lineWidth + 1 + wordWidth <= width {
                line += " " + word
                lineWidth += 1 + wordWidth
            } else if word == "—" || word == "–", let space = line.lastIndex(of: " ") {
                // A dash never starts a line: the word before it goes down with it.
                let last = String(line[line.index(after: space)...])
                line = String(line[..<space])
                endLine()
                line = last + " " + word
                lineWidth = of(line)
            } else {
                if lineWidth > 0 { endLine() }
                line = word
                lineWidth = wordWidth
            }
            word = ""
            wordWidth = 0
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
                if !word.isEmpty && wordWidth + cw > width {  // a word longer than a line: hard-break it
                    if lineWidth > 0 { endLine() }
                    line = word
                    lineWidth = wordWidth
                    endLine()
                    word = ""
                    wordWidth = 0
                }
                word.append(c)
                wordWidth += cw
            }
        }
        placeWord()
        endLine()
        return lines
    }
}
