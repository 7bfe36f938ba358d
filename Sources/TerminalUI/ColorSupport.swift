/// How many colours the terminal shows.
public enum ColorSupport: Sendable, Hashable {
    /// No colours; 8 (the ANSI colours); 16 (with their bright variants); 256.
    case none, basic, sixteen, full

    /// Decides from the environment and what curses reports. `NO_COLOR` (any non-empty value) wins.
    public static func detect(environment: [String: String], cursesColors: Int, hasColors: Bool) -> ColorSupport {
        if let v = environment["NO_COLOR"], !v.isEmpty { return .none }
        guard hasColors else { return .none }
        return cursesColors >= 256 ? .full : cursesColors >= 16 ? .sixteen : .basic
    }

    /// The curses colour number for `color`, or nil when colours are off.
    func cursesNumber(_ color: Color) -> Int32? {
        switch self {
        case .none: return nil
        case .basic, .sixteen, .full:
            switch color {
            case .default: return -1
            case .black: return 0
            case .red: return 1
            case .green: return 2
            case .yellow: return 3
            case .blue: return 4
            case .magenta: return 5
            case .cyan: return 6
            case .white: return 7
            case .indexed(let n):
                if self == .full || (self == .sixteen && n < 16) { return Int32(n) }
                return Int32(Self.nearestBasic(n))
            case .theme:
                return -1  // resolved by the theme before it gets here
            }
        }
    }

    /// The nearest of the 8 ANSI colours to a 256-colour index.
    static func nearestBasic(_ n: UInt8) -> UInt8 {
        if n < 16 { return n % 8 }
        let (r, g, b): (Int, Int, Int)
        if n >= 232 {
            let v = 8 + Int(n - 232) * 10
            (r, g, b) = (v, v, v)
        } else {
            let i = Int(n) - 16
            let levels = [0, 95, 135, 175, 215, 255]
            (r, g, b) = (levels[i / 36], levels[(i / 6) % 6], levels[i % 6])
        }
        let hi = 128
        return UInt8((r >= hi ? 1 : 0) | (g >= hi ? 2 : 0) | (b >= hi ? 4 : 0))
    }
}
