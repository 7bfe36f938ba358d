@testable import TerminalUI

/// A terminal screen as an xterm keeps it, for what ``TerminalSurface`` writes: text with its
/// attributes, absolute and relative cursor moves (CUP, VPA, CUF, CUB, CR, NEL), clearing (ED 2),
/// scroll regions and scrolling (DECSTBM, IND, RI, SU, SD), SGR, cursor save and restore; OSC, APC and
/// DCS strings and private modes are read and ignored. Wide characters take two cells, and
/// writing over half of one blanks the other half.
struct ScreenEmulator {
    /// A cell as shown: its character ("" on a wide character's right half) and attributes.
    struct Shown: Equatable, CustomStringConvertible {
        var text = " "
        var attributes = Attributes()
        var description: String { "\"\(text)\" \(attributes)" }
    }

    /// SGR state: colours as curses numbers (-1 the terminal's own).
    struct Attributes: Equatable {
        var bold = false, dim = false, underline = false, reverse = false
        var foreground: Int32 = -1, background: Int32 = -1
    }

    let width: Int, height: Int
    private(set) var cells: [Shown]
    private var x = 0, y = 0
    private var pendingWrap = false
    private var attributes = Attributes()
    private var region: Range<Int>
    private var saved: (x: Int, y: Int, attributes: Attributes)?

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        cells = Array(repeating: Shown(), count: width * height)
        region = 0..<height
    }

    subscript(x: Int, y: Int) -> Shown { cells[y * width + x] }

    mutating func feed(_ bytes: [UInt8]) {
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == 0x1B, i + 1 < bytes.count {
                i = escape(bytes, at: i + 1)
            } else if byte == 0x0D {
                (x, pendingWrap) = (0, false)
                i += 1
            } else if byte < 0x20 {
                i += 1
            } else {
                var end = i + 1
                while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
                for character in String(decoding: bytes[i..<end], as: UTF8.self) { put(character) }
                i = end
            }
        }
    }

    private mutating func escape(_ bytes: [UInt8], at start: Int) -> Int {
        switch bytes[start] {
        case UInt8(ascii: "["):
            var end = start + 1
            while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
            guard end < bytes.count else { return end }
            control(String(decoding: bytes[(start + 1)..<end], as: UTF8.self), final: bytes[end])
            return end + 1
        case UInt8(ascii: "]"), UInt8(ascii: "_"), UInt8(ascii: "P"):
            var end = start + 1
            while end < bytes.count {
                if bytes[end] == 0x07 { return end + 1 }
                if bytes[end] == 0x1B, end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "\\") { return end + 2 }
                end += 1
            }
            return end
        case UInt8(ascii: "D"): lineFeed()
        case UInt8(ascii: "E"):
            lineFeed()
            x = 0
        case UInt8(ascii: "M"):
            if y == region.lowerBound { scroll(by: -1) } else { y = max(0, y - 1) }
            pendingWrap = false
        case UInt8(ascii: "7"): saved = (x, y, attributes)
        case UInt8(ascii: "8"):
            if let saved { (x, y, attributes, pendingWrap) = (saved.x, saved.y, saved.attributes, false) }
        case UInt8(ascii: "("): return start + 2
        default: break
        }
        return start + 1
    }

    private mutating func control(_ parameters: String, final: UInt8) {
        guard !parameters.hasPrefix("?"), !parameters.hasPrefix(">"), !parameters.hasPrefix("<") else { return }
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        func number(_ index: Int, _ otherwise: Int) -> Int {
            index < numbers.count ? (numbers[index] ?? otherwise) : otherwise
        }
        pendingWrap = false
        switch final {
        case UInt8(ascii: "H"): (y, x) = (min(height, number(0, 1)) - 1, min(width, number(1, 1)) - 1)
        case UInt8(ascii: "d"): y = min(height, number(0, 1)) - 1
        case UInt8(ascii: "C"): x = min(width - 1, x + max(1, number(0, 1)))
        case UInt8(ascii: "D"): x = max(0, x - max(1, number(0, 1)))
        case UInt8(ascii: "J") where number(0, 0) == 2:
            cells = Array(
                repeating: Shown(text: " ", attributes: Attributes(background: attributes.background)),
                count: width * height)
        case UInt8(ascii: "S"): scroll(by: max(1, number(0, 1)))
        case UInt8(ascii: "T"): scroll(by: -max(1, number(0, 1)))
        case UInt8(ascii: "r"):
            region = (number(0, 1) - 1)..<min(height, number(1, height))
            (x, y) = (0, 0)
        case UInt8(ascii: "m"): graphicRendition(numbers.map { $0 ?? 0 })
        default: break
        }
    }

    private mutating func graphicRendition(_ codes: [Int]) {
        var i = 0
        while i < codes.count {
            let code = codes[i]
            switch code {
            case 0: attributes = Attributes()
            case 1: attributes.bold = true
            case 2: attributes.dim = true
            case 4: attributes.underline = true
            case 7: attributes.reverse = true
            case 22: (attributes.bold, attributes.dim) = (false, false)
            case 24: attributes.underline = false
            case 27: attributes.reverse = false
            case 30...37: attributes.foreground = Int32(code - 30)
            case 90...97: attributes.foreground = Int32(code - 90 + 8)
            case 39: attributes.foreground = -1
            case 40...47: attributes.background = Int32(code - 40)
            case 100...107: attributes.background = Int32(code - 100 + 8)
            case 49: attributes.background = -1
            case 38, 48:
                if i + 2 < codes.count, codes[i + 1] == 5 {
                    if code == 38 {
                        attributes.foreground = Int32(codes[i + 2])
                    } else {
                        attributes.background = Int32(codes[i + 2])
                    }
                    i += 2
                }
            default: break
            }
            i += 1
        }
        if codes.isEmpty { attributes = Attributes() }
    }

    private mutating func put(_ character: Character) {
        let w = DisplayWidth.of(character)
        guard w > 0 else { return }
        if pendingWrap || x + w > width {
            x = 0
            lineFeed()
        }
        blankHalves(at: x, width: w)
        cells[y * width + x] = Shown(text: String(character), attributes: attributes)
        if w == 2 { cells[y * width + x + 1] = Shown(text: "", attributes: attributes) }
        if x + w >= width {
            x = width - 1
            pendingWrap = true
        } else {
            x += w
        }
    }

    /// Writing over half of a wide character blanks its other half.
    private mutating func blankHalves(at column: Int, width w: Int) {
        let row = y * width
        if cells[row + column].text.isEmpty, column > 0 { cells[row + column - 1].text = " " }
        let after = column + w
        if after < width, cells[row + after].text.isEmpty { cells[row + after].text = " " }
    }

    private mutating func lineFeed() {
        pendingWrap = false
        if y == region.upperBound - 1 { scroll(by: 1) } else { y = min(height - 1, y + 1) }
    }

    /// Moves the region's rows up (positive) or down, blanks in the current background.
    private mutating func scroll(by distance: Int) {
        let blank = Shown(text: " ", attributes: Attributes(background: attributes.background))
        var moved = cells
        for row in region {
            let from = row + distance
            for column in 0..<width {
                moved[row * width + column] = region.contains(from) ? cells[from * width + column] : blank
            }
        }
        cells = moved
    }
}
