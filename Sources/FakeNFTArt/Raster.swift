import ImageEncoding

/// An RGBA picture in memory, 8 bits per channel, rows top to bottom.
public struct Raster: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes: red, green, blue, alpha.
    public private(set) var pixels: [UInt8]

    /// The raster as a PNG file (the same pixels always give the same bytes).
    public var png: [UInt8] { PNGEncoder.encode(rgba: pixels, width: width, height: height) }

    public init(width: Int, height: Int, fill: RGB = RGB(0, 0, 0)) {
        self.width = max(1, width)
        self.height = max(1, height)
        pixels = [UInt8](repeating: 255, count: self.width * self.height * 4)
        for i in 0..<(self.width * self.height) { set(i, fill) }
    }

    public func color(x: Int, y: Int) -> RGB {
        let i = (y * width + x) * 4
        return RGB(Double(pixels[i]) / 255, Double(pixels[i + 1]) / 255, Double(pixels[i + 2]) / 255)
    }

    /// Blends `color` over the pixel at (`x`, `y`) with `coverage` (0...1); outside is ignored.
    public mutating func blend(x: Int, y: Int, _ color: RGB, coverage: Double = 1) {
        guard x >= 0, y >= 0, x < width, y < height, coverage > 0 else { return }
        let a = min(1, coverage)
        set(y * width + x, coverage >= 1 ? color : self.color(x: x, y: y).mixed(with: color, a))
    }

    private mutating func set(_ index: Int, _ color: RGB) {
        let i = index * 4
        pixels[i] = color.byte(color.r)
        pixels[i + 1] = color.byte(color.g)
        pixels[i + 2] = color.byte(color.b)
        pixels[i + 3] = 255
    }
}

/// A colour with channels in 0...1.
public struct RGB: Sendable, Equatable {
    public var r: Double, g: Double, b: Double

    public init(_ r: Double, _ g: Double, _ b: Double) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// `0xRRGGBB`.
    public init(hex: UInt32) {
        self.init(Double((hex >> 16) & 0xFF) / 255, Double((hex >> 8) & 0xFF) / 255, Double(hex & 0xFF) / 255)
    }

    /// This colour moved towards `other` by `t` (0 keeps it, 1 gives `other`).
    public func mixed(with other: RGB, _ t: Double) -> RGB {
        RGB(r + (other.r - r) * t, g + (other.g - g) * t, b + (other.b - b) * t)
    }

    /// Brightness scaled by `factor` (below 1 darker, above 1 lighter), clamped.
    public func scaled(_ factor: Double) -> RGB { RGB(min(1, r * factor), min(1, g * factor), min(1, b * factor)) }

    public static let white = RGB(1, 1, 1)
    public static let black = RGB(0, 0, 0)

    func byte(_ channel: Double) -> UInt8 { UInt8(max(0, min(255, (channel * 255).rounded()))) }
}
