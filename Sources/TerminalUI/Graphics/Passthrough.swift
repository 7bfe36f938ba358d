/// tmux passthrough: an escape sequence for the terminal tmux runs in, wrapped so tmux forwards
/// it (`ESC P tmux; … ESC \`, every ESC inside doubled). tmux forwards it only when the user set
/// `allow-passthrough on`; the app never changes that setting.
public enum Passthrough {
    public static func tmux(_ sequence: String) -> String {
        var out = "\u{1B}Ptmux;"
        out.reserveCapacity(sequence.utf8.count + 16)
        for scalar in sequence.unicodeScalars {
            if scalar == "\u{1B}" { out += "\u{1B}\u{1B}" } else { out.unicodeScalars.append(scalar) }
        }
        return out + "\u{1B}\\"
    }
}
