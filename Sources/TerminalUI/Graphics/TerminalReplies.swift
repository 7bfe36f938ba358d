/// What a terminal answered to the start-up queries, read from the raw bytes: its name and
/// version (XTVERSION), the kitty graphics query's answer, the cell and window sizes in pixels
/// (`CSI 16 t`, `CSI 14 t`), its background colour (OSC 11) and colour scheme (`CSI ? 997 n`),
/// the kitty keyboard protocol's flags (`CSI ? u`), whether it synchronizes output (DECRQM of
/// mode 2026) and the device attributes (DA1, the end marker). Anything else in the bytes
/// (garbage, keys typed meanwhile, cut replies) is skipped.
public struct TerminalReplies: Sendable, Hashable {
    /// XTVERSION answers, in order: e.g. "kitty(0.35.2)", "foot(1.16.2)", "XTerm(379)",
    /// "WezTerm 20240203-110809-5046fc22", "tmux 3.3a" (inside tmux, tmux answers too).
    public var versions: [String] = []
    /// The kitty graphics query (id 31) was answered OK.
    public var kittyGraphics = false
    /// A cell's size in pixels.
    public var cellPixels: Size?
    /// The text area's size in pixels.
    public var windowPixels: Size?
    /// The background colour (OSC 11), for the theme.
    public var background: RGB?
    /// The colour scheme the terminal reports (`CSI ? 997 ; 1|2 n`: its answer to `CSI ? 996 n`,
    /// or a report of its own once subscribed with mode 2031).
    public var colorScheme: ColorScheme?
    /// The kitty keyboard protocol's flags now (`CSI ? flags u`): the terminal speaks it.
    public var keyboardFlags: Int?
    /// The DECRQM answer for synchronized output (mode 2026): 0 unknown, 1 or 2 known (set or
    /// reset), 3 or 4 permanently set or reset.
    public var synchronizedOutput: Int?
    /// The parameters of each DA1 answer, in order (a `4` means sixel graphics).
    public var deviceAttributes: [[Int]] = []

    /// Whether the terminal said it cannot synchronize output (it does not know mode 2026, or
    /// has it off for good); a terminal that did not answer is not known to be unable.
    public var cannotSynchronize: Bool { synchronizedOutput == 0 || synchronizedOutput == 4 }

    /// These replies with what `later` answered in their place (a background or a colour
    /// scheme reported after the start): what `later` does not say is kept.
    public func updated(with later: TerminalReplies) -> TerminalReplies {
        var merged = self
        merged.background = later.background ?? background
        merged.colorScheme = later.colorScheme ?? colorScheme
        return merged
    }

    public init() {}

    /// The kitty query's id, so its answer is told apart from anything else.
    public static let kittyQueryID = 31

    public init(parsing bytes: [UInt8]) {
        var i = 0
        while i < bytes.count {
            guard bytes[i] == 0x1B, i + 1 < bytes.count else {
                i += 1
                continue
            }
            switch bytes[i + 1] {
            case UInt8(ascii: "]"):
                guard let (end, next) = Self.stringTerminator(bytes, from: i + 2) else { return }
                let body = String(decoding: bytes[(i + 2)..<end], as: UTF8.self)
                if body.hasPrefix("11;") { background = Self.color(body.dropFirst(3)) }
                i = next
            case UInt8(ascii: "P"), UInt8(ascii: "_"):
                guard let (end, next) = Self.stringTerminator(bytes, from: i + 2) else { return }
                let body = String(decoding: bytes[(i + 2)..<end], as: UTF8.self)
                if bytes[i + 1] == UInt8(ascii: "P"), body.hasPrefix(">|") {
                    versions.append(SafeText.sanitize(String(body.dropFirst(2).prefix(80))))
                } else if body.hasPrefix("G") {
                    let parts = body.dropFirst().split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
                    if parts.count == 2, parts[0].split(separator: ",").contains("i=\(Self.kittyQueryID)"),
                        parts[1].hasPrefix("OK")
                    {
                        kittyGraphics = true
                    }
                }
                i = next
            case UInt8(ascii: "["):
                var j = i + 2
                while j < bytes.count, (0x20...0x3F).contains(bytes[j]) { j += 1 }
                guard j < bytes.count else { return }
                let parameters = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
                record(csi: parameters, final: bytes[j])
                i = j + 1
            default:
                i += 2
            }
        }
    }

    private mutating func record(csi parameters: String, final: UInt8) {
        let numbers = parameters.dropFirst().split(separator: ";").map { Int($0.filter(\.isNumber).prefix(9)) }
        if final == UInt8(ascii: "c"), parameters.hasPrefix("?") {
            deviceAttributes.append(numbers.compactMap { $0 })
        } else if final == UInt8(ascii: "u"), parameters.hasPrefix("?"), numbers.count == 1 {
            keyboardFlags = numbers[0]
        } else if final == UInt8(ascii: "y"), parameters.hasPrefix("?2026;"), parameters.hasSuffix("$"),
            numbers.count == 2
        {
            synchronizedOutput = numbers[1]
        } else if final == UInt8(ascii: "n"), parameters.hasPrefix("?997;"), numbers.count == 2 {
            colorScheme = numbers[1] == 1 ? .dark : numbers[1] == 2 ? .light : colorScheme
        } else if final == UInt8(ascii: "t") {
            let numbers = parameters.split(separator: ";").compactMap { Int($0) }
            guard numbers.count == 3, (1...100_000).contains(numbers[1]), (1...100_000).contains(numbers[2]) else {
                return
            }
            let size = Size(width: numbers[2], height: numbers[1])
            if numbers[0] == 6 { cellPixels = size } else if numbers[0] == 4 { windowPixels = size }
        }
    }

    /// Where the string begun at `start` ends (its `ESC \` or BEL) and where the next reply starts.
    private static func stringTerminator(_ bytes: [UInt8], from start: Int) -> (end: Int, next: Int)? {
        var j = start
        while j < bytes.count {
            if bytes[j] == 0x07 { return (j, j + 1) }
            if bytes[j] == 0x1B, j + 1 < bytes.count, bytes[j + 1] == UInt8(ascii: "\\") { return (j, j + 2) }
            j += 1
        }
        return nil
    }

    /// An X11 colour `rgb:R/G/B` (1-4 hex digits per channel) as 8-bit RGB.
    private static func color(_ text: Substring) -> RGB? {
        guard text.hasPrefix("rgb:") else { return nil }
        let parts = text.dropFirst(4).split(separator: "/")
        guard parts.count == 3 else { return nil }
        let channels = parts.compactMap { part -> UInt8? in
            guard (1...4).contains(part.count), let value = Int(part, radix: 16) else { return nil }
            let maximum = (1 << (4 * part.count)) - 1
            return UInt8(value * 255 / maximum)
        }
        return channels.count == 3 ? RGB(channels[0], channels[1], channels[2]) : nil
    }

    /// True once `count` DA1 answers arrived: the end of the replies.
    public func isComplete(expectingDeviceAttributes count: Int) -> Bool { deviceAttributes.count >= count }

    /// The terminal's name (lowercased) and version numbers from XTVERSION, tmux's own answer
    /// left out: ("kitty", [0, 35, 2]).
    public var program: (name: String, version: [Int])? {
        versions.lazy.compactMap(Self.program).first { $0.name != "tmux" }
    }

    /// tmux's own XTVERSION answer, when it gave one.
    public var tmuxVersion: String? { versions.first { $0.lowercased().hasPrefix("tmux") } }

    private static func program(_ version: String) -> (name: String, version: [Int])? {
        guard !version.isEmpty else { return nil }
        let name = String(version.prefix { $0.isLetter || $0 == "-" })
        let digits = version.dropFirst(name.count).drop { !$0.isNumber }
        let numbers = digits.prefix { $0.isNumber || $0 == "." }.split(separator: ".").compactMap { Int($0) }
        return (name.lowercased(), numbers)
    }
}
