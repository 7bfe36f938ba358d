import Foundation

/// The offline image set: pictures for the data set's image URLs, drawn by code from the URL's
/// path alone, so every machine makes the same bytes.
///
/// - `Mobile/iOS/NFT/<Collection>/<Name>/<n>.png`: the NFT `<Name>`'s image `n` (1-3), on a
///   background in the collection's colour; the three images show the same subject.
/// - `Mobile/iOS/NFT/Обложки_коллекций/<Collection>.png`: the collection's cover.
/// - `Mobile/iOS/Currencies/<Name>.png`: a coin for the currency.
/// - anything under an `avatar` folder, and the profile's picture: a face.
public enum Artwork {
    /// The side of NFT images and covers, in pixels.
    public static let size = 256
    /// The side of avatars and currency logos.
    public static let smallSize = 128

    /// The picture for `path` (without a leading slash), or nil when the path is not one of the
    /// image set's.
    public static func picture(for path: String) -> Raster? {
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count >= 2, !parts.contains(".."), let file = parts.last,
            [".png", ".jpg", ".jpeg"].contains(where: { file.lowercased().hasSuffix($0) })
        else { return nil }
        let stem = String(file.prefix(upTo: file.lastIndex(of: ".")!))
        if parts.starts(with: ["Mobile", "iOS", "NFT"]) {
            if parts.count == 5, parts[3] == "Обложки_коллекций" { return cover(collection: stem) }
            if parts.count == 6, let n = Int(stem), (1...9).contains(n) {
                return nft(name: parts[4], collection: parts[3], image: n)
            }
            return nil
        }
        if parts.starts(with: ["Mobile", "iOS", "Currencies"]), parts.count == 4 { return coin(stem) }
        if parts.contains("avatar") || parts.first == "landings-v2-ios-developer" { return avatar(path) }
        return nil
    }

    /// The colour of a collection: the gen1 collections are named after theirs.
    static func color(ofCollection name: String) -> RGB {
        let named: [String: UInt32] = [
            "Beige": 0xE3CBA5, "Blue": 0x5B8DEF, "Gray": 0x9EA3A8, "Green": 0x6CBF6C, "Peach": 0xFFB38A,
            "Pink": 0xF49AC2, "White": 0xF4F4F0, "Yellow": 0xF5D547, "Brown": 0x9C6B43,
        ]
        if let hex = named[name] { return RGB(hex: hex) }
        var random = SplitMix("collection:" + name)
        return RGB(0.35 + random.unit() * 0.55, 0.35 + random.unit() * 0.55, 0.35 + random.unit() * 0.55)
    }

    static func nft(name: String, collection: String, image: Int) -> Raster {
        var painter = Painter(width: size, height: size)
        let base = color(ofCollection: collection)
        // Image 1 by day, 2 lighter and closer, 3 by night with lights in the air.
        switch image {
        case 2: painter.verticalGradient(base.mixed(with: .white, 0.55), base.mixed(with: .white, 0.15))
        case 3: painter.verticalGradient(base.scaled(0.45), base.scaled(0.25))
        default: painter.verticalGradient(base.mixed(with: .white, 0.3), base.scaled(0.8))
        }
        var random = SplitMix("bokeh:\(name):\(image)")
        if image == 3 { painter.spots(14, base.mixed(with: .white, 0.6), random: &random) }
        painter.ellipse(
            painter.width / 2, painter.height * 0.86, painter.width * 0.5, painter.height * 0.12, base.scaled(0.7),
            opacity: 0.5)
        let scale = image == 2 ? 0.72 : 0.6
        Subject(named: name).draw(
            on: &painter, cx: painter.width * (image == 2 ? 0.52 : 0.5), cy: painter.height * 0.55,
            size: painter.height * scale, look: [0, -0.8, 0.8][(image - 1) % 3])
        painter.vignette(0.35)
        return painter.raster
    }

    static func cover(collection: String) -> Raster {
        var painter = Painter(width: size, height: size)
        let base = color(ofCollection: collection)
        painter.verticalGradient(base.mixed(with: .white, 0.4), base.scaled(0.75))
        var random = SplitMix("cover:" + collection)
        painter.spots(10, base.mixed(with: .white, 0.7), random: &random)
        for (i, x) in [0.25, 0.75, 0.5].enumerated() {
            Subject(named: "\(collection) \(i)").draw(
                on: &painter, cx: painter.width * x, cy: painter.height * (i == 2 ? 0.62 : 0.42),
                size: painter.height * 0.38, look: x < 0.5 ? 0.6 : -0.6)
        }
        painter.vignette(0.3)
        return painter.raster
    }

    static func coin(_ name: String) -> Raster {
        var painter = Painter(width: smallSize, height: smallSize)
        var random = SplitMix("coin:" + name)
        let metal = RGB(
            hex: random.pick([0xF2A900, 0xC2A633, 0x26A17B, 0x0033AD, 0x627EEA, 0x8247E5, 0xB0B0B0, 0xE84142]))
        painter.verticalGradient(RGB(hex: 0xFAFAFA), RGB(hex: 0xE6E6E6))
        let c = painter.width / 2
        painter.sphere(c, c, c * 0.8, c * 0.8, metal.scaled(0.8), shine: 0.4)
        painter.sphere(c, c, c * 0.64, c * 0.64, metal, shine: 0.8)
        let sides = 3 + Int(random.next() % 4)
        let points = (0..<sides).map { i -> (Double, Double) in
            let a = Double(i) / Double(sides) * 2 * Double.pi - Double.pi / 2
            return (c + cos(a) * c * 0.34, c + sin(a) * c * 0.34)
        }
        painter.polygon(points, RGB.white, opacity: 0.85)
        return painter.raster
    }

    static func avatar(_ seed: String) -> Raster {
        var painter = Painter(width: smallSize, height: smallSize)
        var random = SplitMix("avatar:" + seed)
        let background = RGB(0.4 + random.unit() * 0.5, 0.4 + random.unit() * 0.5, 0.4 + random.unit() * 0.5)
        painter.verticalGradient(background.mixed(with: .white, 0.3), background)
        let skin = RGB(hex: random.pick([0xF1C27D, 0xE0AC69, 0xC68642, 0x8D5524, 0xFFDBAC]))
        let hair = RGB(hex: random.pick([0x2C1B18, 0x6A4E42, 0xB55239, 0xD6B370, 0x1B1B1E, 0x9E9E9E]))
        let c = painter.width / 2
        painter.sphere(
            c, painter.height * 1.05, c * 0.8, c * 0.45,
            RGB(hex: random.pick([0x3D5A80, 0xE76F51, 0x2A9D8F, 0x8E44AD])))  // shoulders
        painter.sphere(c, c * 0.95, c * 0.42, c * 0.5, skin, shine: 0.2)
        painter.sphere(c, c * 0.6, c * 0.46, c * 0.3, hair, shine: 0.3)
        for side in [-1.0, 1.0] {
            painter.ellipse(c + side * c * 0.16, c * 0.98, c * 0.05, c * 0.06, RGB(hex: 0x1B1B1E))
        }
        painter.stroke(RGB(hex: 0x8C3B3B), thickness: c * 0.05) { t in
            let a = Double.pi * (0.25 + 0.5 * t)
            return (c + cos(a) * c * 0.15, c * 1.12 + sin(a) * c * 0.08)
        }
        return painter.raster
    }
}
