/// Makes strings from outside (network, files, paste) inert before they reach the terminal.
///
/// Removes C0 and C1 controls, DEL, whole escape sequences (CSI, OSC, DCS, APC, PM, SOS and
/// two-byte ESC sequences) and bidirectional override and isolate characters. Tabs become a
/// space. Newlines survive only with `keepNewlines` (for widgets that wrap text).
public enum SafeText {
    public static func sanitize(_ input: String, keepNewlines: Bool = false) -> String {
        if input.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return input }  // plain ASCII: nothing to remove
        var out = String.UnicodeScalarView()
        let scalars = Array(input.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let v = scalars[i].value
            if v == 0x1B || v == 0x9B || v == 0x9D || v == 0x90 || v == 0x9E || v == 0x9F || v == 0x98 {
                i = skipEscape(scalars, from: i)
                continue
            }
            if v == 0x0A && keepNewlines {
                out.append("\n")
            } else if v == 0x0D && keepNewlines {
                if i + 1 < scalars.count, scalars[i + 1].value == 0x0A {} else { out.append("\n") }
            } else if v == 0x09 {
                out.append(" ")
            } else if !isUnsafe(v) {
                out.append(scalars[i])
            }
            i += 1
        }
        return String(out)
    }

    /// True for scalars that must never be drawn.
    static func isUnsafe(_ v: UInt32) -> Bool {
        v < 0x20 || (v >= 0x7F && v <= 0x9F)
            || (v >= 0x202A && v <= 0x202E)  // LRE RLE PDF LRO RLO
            || (v >= 0x2066 && v <= 0x2069)  // LRI RLI FSI PDI
            || v == 0x200E || v == 0x200F || v == 0x061C  // LRM RLM ALM
    }

    /// Returns the index after the escape sequence starting at `start`.
    private static func skipEscape(_ s: [Unicode.Scalar], from start: Int) -> Int {
        var i = start
        let first = s[i].value
        var kind: UInt32
        if first == 0x1B {
            i += 1
            guard i < s.count else { return i }
            kind = s[i].value
            // Two-byte ESC sequences (ESC c, ESC 7, ESC ( B ...): drop ESC and the final byte.
            if kind != 0x5B && kind != 0x5D && kind != 0x50 && kind != 0x5F && kind != 0x5E && kind != 0x58 {
                i += 1
                // ESC ( X and ESC ) X designate a charset: one more byte.
                if (kind == 0x28 || kind == 0x29 || kind == 0x23 || kind == 0x25), i < s.count { i += 1 }
                return i
            }
        } else {
            kind = [0x9B: 0x5B, 0x9D: 0x5D, 0x90: 0x50, 0x9E: 0x5E, 0x9F: 0x5F, 0x98: 0x58][first]!
        }
        i += 1
        if kind == 0x5B {  // CSI: parameters and intermediates, then a final byte 0x40-0x7E
            while i < s.count {
                let v = s[i].value
                i += 1
                if v >= 0x40 && v <= 0x7E { break }
                if v < 0x20 && v != 0x1B { continue }
                if v == 0x1B { return i - 1 }
            }
            return i
        }
        // OSC, DCS, APC, PM, SOS: a string terminated by BEL, ST (ESC \) or C1 ST.
        while i < s.count {
            let v = s[i].value
            if v == 0x07 || v == 0x9C { return i + 1 }
            if v == 0x1B { return (i + 1 < s.count && s[i + 1].value == 0x5C) ? i + 2 : i }
            i += 1
        }
        return i
    }
}
