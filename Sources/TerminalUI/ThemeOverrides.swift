/// The user's own colours for theme roles (`[colors]` in config.toml): a 256-colour index, or
/// `#rrggbb` taken to the nearest one; terminals with 8 colours get the nearest of those.
public struct ThemeOverrides: Sendable, Hashable {
    public private(set) var colors: [Theme.Role: UInt8] = [:]

    public init() {}

    /// Sets `role` from `value` (`"#rrggbb"`, or an index 16-255); false when `value` is neither.
    public mutating func set(_ role: Theme.Role, _ value: String) -> Bool {
        guard let index = Self.index(value) else { return false }
        colors[role] = index
        return true
    }

    public var isEmpty: Bool { colors.isEmpty }

    /// The roles whose colour falls short of their contrast against `background`.
    public func weakRoles(on background: RGB) -> [Theme.Role] {
        colors.filter { Theme.contrast(Theme.rgb($0.value), background) < $0.key.minimumContrast }.map(\.key)
            .sorted { $0.rawValue < $1.rawValue }
    }

    /// The palette index for `value`: `#rrggbb` (the nearest of 16-255), or a number 16-255.
    static func index(_ value: String) -> UInt8? {
        if value.hasPrefix("#"), value.count == 7, let number = UInt32(value.dropFirst(), radix: 16) {
            return nearestIndex(RGB(UInt8(number >> 16), UInt8((number >> 8) & 0xFF), UInt8(number & 0xFF)))
        }
        guard let number = UInt8(value), number >= 16 else { return nil }
        return number
    }

    /// The palette index (16-255) nearest to `rgb`.
    static func nearestIndex(_ rgb: RGB) -> UInt8 {
        func distance(_ a: RGB, _ b: RGB) -> Int {
            let (r, g, b) = (Int(a.red) - Int(b.red), Int(a.green) - Int(b.green), Int(a.blue) - Int(b.blue))
            return r * r + g * g + b * b
        }
        return (16...255).map(UInt8.init).min { distance(Theme.rgb($0), rgb) < distance(Theme.rgb($1), rgb) } ?? 16
    }

    /// The 8 ANSI colour nearest to palette `index` (xterm's defaults), for terminals with fewer.
    static func nearestBasic(_ index: UInt8) -> Color {
        let basics: [(Color, RGB)] = [
            (.black, RGB(0, 0, 0)), (.red, RGB(205, 0, 0)), (.green, RGB(0, 205, 0)), (.yellow, RGB(205, 205, 0)),
            (.blue, RGB(0, 0, 238)), (.magenta, RGB(205, 0, 205)), (.cyan, RGB(0, 205, 205)),
            (.white, RGB(229, 229, 229)),
        ]
        let target = Theme.rgb(index)
        func distance(_ a: RGB) -> Int {
            let (r, g, b) = (
                Int(a.red) - Int(target.red), Int(a.green) - Int(target.green), Int(a.blue) - Int(target.blue)
            )
            return r * r + g * g + b * b
        }
        return basics.min { distance($0.1) < distance($1.1) }?.0 ?? .default
    }
}

extension Theme {
    /// This theme with `overrides` for its roles (the monochrome theme has no colours to override).
    public func overriding(_ overrides: ThemeOverrides) -> Theme {
        guard name != .mono, !overrides.isEmpty else { return self }
        return Theme(
            name: name, background: background, colors: colors.merging(overrides.colors) { $1 },
            basic: basic.merging(overrides.colors.mapValues(ThemeOverrides.nearestBasic)) { $1 })
    }
}
