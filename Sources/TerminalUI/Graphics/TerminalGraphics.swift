/// What the terminal can show pictures with, decided once before curses starts: the mode, a
/// cell's size in pixels, whether escapes go through tmux, and why (for `--probe-terminal`).
public struct TerminalGraphics: Sendable, Hashable {
    public var mode: ImageMode
    /// A cell's size in pixels (measured, or assumed when the terminal does not say).
    public var cellPixels: Size
    /// Pixel escapes are wrapped for tmux passthrough.
    public var throughTmux: Bool
    /// Why: one line per fact that decided.
    public var reasons: [String]

    public init(
        mode: ImageMode, cellPixels: Size = TerminalGraphics.assumedCellPixels, throughTmux: Bool = false,
        reasons: [String] = []
    ) {
        self.mode = mode
        self.cellPixels = cellPixels
        self.throughTmux = throughTmux
        self.reasons = reasons
    }

    /// The cell size used when the terminal reports none.
    public static let assumedCellPixels = Size(width: 10, height: 20)
    /// What tmux users set so pictures in pixels reach their terminal.
    public static let tmuxAdvice = "set -g allow-passthrough on"

    /// Decides from the environment and the replies (nil when no query was made).
    /// - Parameters:
    ///   - choice: `--images`; anything but `auto` wins.
    ///   - windowSize: the terminal's size in cells and in pixels (TIOCGWINSZ; pixels 0 when unknown).
    public static func decide(
        choice: ImagesChoice, environment: [String: String], replies: TerminalReplies?,
        windowSize: (cells: Size, pixels: Size)? = nil
    ) -> TerminalGraphics {
        let inTmux = !(environment["TMUX"] ?? "").isEmpty
        var reasons: [String] = []
        let cellPixels = measureCell(replies: replies, windowSize: windowSize, reasons: &reasons)
        if inTmux { reasons.append("inside tmux (TMUX is set)" + (replies?.tmuxVersion.map { ": \($0)" } ?? "")) }
        func result(_ mode: ImageMode, _ why: String) -> TerminalGraphics {
            TerminalGraphics(
                mode: mode, cellPixels: cellPixels, throughTmux: inTmux && (mode == .kitty || mode == .iterm2),
                reasons: reasons + [why])
        }
        if let forced = choice.forced { return result(forced, "--images \(forced.rawValue) was given") }
        let term = environment["TERM"] ?? ""
        if term.isEmpty || term == "dumb" || term == "linux" || term.hasPrefix("vt1") {
            return result(.symbols, "TERM=\(term.isEmpty ? "(unset)" : term) shows no pixels")
        }
        guard let replies else { return result(.symbols, "the terminal was not asked (no controlling terminal)") }
        if replies.versions.isEmpty, replies.deviceAttributes.isEmpty, !replies.kittyGraphics {
            return result(.symbols, "the terminal answered no query within 250 ms: character art")
        }
        if let program = replies.program {
            reasons.append(
                "the terminal says it is \(program.name) \(program.version.map(String.init).joined(separator: "."))")
        }
        if replies.kittyGraphics {
            if supportsPlaceholders(program: replies.program, environment: environment) {
                return result(
                    .kitty, "it answered the kitty graphics query and has Unicode placeholders (kitty 0.28+, Ghostty)")
            }
            reasons.append(
                "it answered the kitty graphics query but has no Unicode placeholders (kitty 0.28+ or Ghostty needed)")
        } else if inTmux, environment["KITTY_WINDOW_ID"] != nil || environment["GHOSTTY_RESOURCES_DIR"] != nil {
            reasons.append(
                "the kitty graphics query got no answer through tmux: to see pictures in pixels, \(tmuxAdvice)")
        }
        if !inTmux, isITerm2(program: replies.program, environment: environment) {
            return result(.iterm2, "iTerm2 inline images (iTerm2, WezTerm)")
        }
        // Inside tmux both tmux and the terminal behind it must have sixel: tmux 3.4+ built with
        // it draws sixel itself; through passthrough alone tmux's redraws would wipe them.
        if !replies.deviceAttributes.isEmpty, replies.deviceAttributes.allSatisfy({ $0.contains(4) }) {
            return result(
                .sixel,
                inTmux
                    ? "tmux and the terminal both have sixel graphics (DA1 has 4)"
                    : "its device attributes (DA1) include sixel graphics (4)")
        }
        return result(.symbols, "no pixel protocol answered: character art")
    }

    private static func supportsPlaceholders(program: (name: String, version: [Int])?, environment: [String: String])
        -> Bool
    {
        if environment["TERM"] == "xterm-ghostty" || environment["TERM_PROGRAM"] == "ghostty" { return true }
        guard let program else { return environment["GHOSTTY_RESOURCES_DIR"] != nil }
        if program.name == "ghostty" { return true }
        if program.name == "kitty" { return program.version.lexicographicallyPrecedes([0, 28]) == false }
        return false
    }

    private static func isITerm2(program: (name: String, version: [Int])?, environment: [String: String]) -> Bool {
        if let name = program?.name, name == "iterm2" || name == "wezterm" { return true }
        return environment["TERM_PROGRAM"] == "iTerm.app" || environment["TERM_PROGRAM"] == "WezTerm"
            || environment["LC_TERMINAL"] == "iTerm2"
    }

    private static func measureCell(
        replies: TerminalReplies?, windowSize: (cells: Size, pixels: Size)?, reasons: inout [String]
    ) -> Size {
        if let windowSize, windowSize.pixels.width > 0, windowSize.pixels.height > 0, windowSize.cells.width > 0,
            windowSize.cells.height > 0
        {
            let cell = Size(
                width: windowSize.pixels.width / windowSize.cells.width,
                height: windowSize.pixels.height / windowSize.cells.height)
            if cell.width > 0, cell.height > 0 {
                reasons.append("cells are \(cell.width)×\(cell.height) pixels (the terminal's window size)")
                return cell
            }
        }
        if let cell = replies?.cellPixels, cell.width <= 200, cell.height <= 400 {
            reasons.append("cells are \(cell.width)×\(cell.height) pixels (CSI 16 t)")
            return cell
        }
        if let window = replies?.windowPixels, let cells = windowSize?.cells, cells.width > 0, cells.height > 0,
            window.width / cells.width > 0, window.height / cells.height > 0
        {
            let cell = Size(width: window.width / cells.width, height: window.height / cells.height)
            reasons.append("cells are \(cell.width)×\(cell.height) pixels (CSI 14 t)")
            return cell
        }
        reasons.append("cell size unknown: \(assumedCellPixels.width)×\(assumedCellPixels.height) pixels assumed")
        return assumedCellPixels
    }
}
