import Foundation

/// Drawing on a ``Raster`` with soft (anti-aliased) edges: gradients, shaded spheres, flat
/// shapes and strokes, in canvas pixels.
struct Painter {
    var raster: Raster
    /// Where the light comes from (towards the viewer, up and to the left by default).
    var light = (x: -0.45, y: -0.55, z: 0.70)

    init(width: Int, height: Int) { raster = Raster(width: width, height: height) }

    var width: Double { Double(raster.width) }
    var height: Double { Double(raster.height) }

    /// `top` at the top edge to `bottom` at the bottom edge.
    mutating func verticalGradient(_ top: RGB, _ bottom: RGB) {
        for y in 0..<raster.height {
            let color = top.mixed(with: bottom, Double(y) / max(1, height - 1))
            for x in 0..<raster.width { raster.blend(x: x, y: y, color) }
        }
    }

    /// Darkens towards the corners.
    mutating func vignette(_ strength: Double) {
        for y in 0..<raster.height {
            for x in 0..<raster.width {
                let dx = (Double(x) / width - 0.5) * 2, dy = (Double(y) / height - 0.5) * 2
                let d = min(1, (dx * dx + dy * dy) / 2)
                raster.blend(x: x, y: y, .black, coverage: d * d * strength)
            }
        }
    }

    /// Soft round spots of `color` (bokeh), placed by `random`.
    mutating func spots(_ count: Int, _ color: RGB, random: inout SplitMix) {
        for _ in 0..<count {
            let cx = random.unit() * width, cy = random.unit() * height * 0.7
            let r = (0.02 + random.unit() * 0.05) * width
            ellipse(cx, cy, r, r, color, opacity: 0.25 + random.unit() * 0.25)
        }
    }

    /// A flat ellipse (its edge softened over one pixel).
    mutating func ellipse(_ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double, _ color: RGB, opacity: Double = 1) {
        forEachPixel(near: cx, cy, rx, ry) { x, y in
            let d = Self.ellipseDistance(x, y, cx, cy, rx, ry)
            return (color, Self.edge(d) * opacity)
        }
    }

    /// An ellipse shaded as a lit sphere: diffuse light, ambient, a specular highlight.
    mutating func sphere(_ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double, _ color: RGB, shine: Double = 0.6) {
        let light = self.light
        forEachPixel(near: cx, cy, rx, ry) { x, y in
            let nx = (x - cx) / rx, ny = (y - cy) / ry
            let r2 = nx * nx + ny * ny
            let nz = (max(0, 1 - r2)).squareRoot()
            let diffuse = max(0, nx * light.x + ny * light.y + nz * light.z)
            // Reflection of the light about the normal, seen from the front (0, 0, 1).
            let reflected = 2 * (nx * light.x + ny * light.y + nz * light.z) * nz - light.z
            let specular = pow(max(0, reflected), 24) * shine
            var shaded = color.scaled(0.35 + 0.85 * diffuse)
            shaded = shaded.mixed(with: .white, min(1, specular))
            return (shaded, Self.edge(Self.ellipseDistance(x, y, cx, cy, rx, ry)))
        }
    }

    /// A filled polygon (points in order), with soft edges from 4×4 samples per pixel.
    mutating func polygon(_ points: [(Double, Double)], _ color: RGB, opacity: Double = 1) {
        guard points.count >= 3 else { return }
        let xs = points.map(\.0), ys = points.map(\.1)
        let x0 = max(0, Int(xs.min()!) - 1), x1 = min(raster.width - 1, Int(xs.max()!) + 1)
        let y0 = max(0, Int(ys.min()!) - 1), y1 = min(raster.height - 1, Int(ys.max()!) + 1)
        guard x0 <= x1, y0 <= y1 else { return }
        for y in y0...y1 {
            for x in x0...x1 {
                var inside = 0
                for sy in 0..<4 {
                    for sx in 0..<4
                    where Self.contains(points, Double(x) + (Double(sx) + 0.5) / 4, Double(y) + (Double(sy) + 0.5) / 4)
                    {
                        inside += 1
                    }
                }
                if inside > 0 { raster.blend(x: x, y: y, color, coverage: Double(inside) / 16 * opacity) }
            }
        }
    }

    /// A stroke of round dabs along `curve` (t in 0...1), `thickness` pixels wide.
    mutating func stroke(_ color: RGB, thickness: Double, steps: Int = 48, _ curve: (Double) -> (Double, Double)) {
        for i in 0...steps {
            let (x, y) = curve(Double(i) / Double(steps))
            ellipse(x, y, thickness / 2, thickness / 2, color)
        }
    }

    private mutating func forEachPixel(
        near cx: Double, _ cy: Double, _ rx: Double, _ ry: Double,
        _ shade: (Double, Double) -> (RGB, Double)
    ) {
        let x0 = max(0, Int(cx - rx) - 2), x1 = min(raster.width - 1, Int(cx + rx) + 2)
        let y0 = max(0, Int(cy - ry) - 2), y1 = min(raster.height - 1, Int(cy + ry) + 2)
        guard x0 <= x1, y0 <= y1 else { return }
        for y in y0...y1 {
            for x in x0...x1 {
                let (color, coverage) = shade(Double(x) + 0.5, Double(y) + 0.5)
                raster.blend(x: x, y: y, color, coverage: coverage)
            }
        }
    }

    /// Roughly the distance in pixels from (`x`, `y`) to the ellipse's edge: negative inside.
    private static func ellipseDistance(
        _ x: Double, _ y: Double, _ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double
    ) -> Double {
        let nx = (x - cx) / max(0.5, rx), ny = (y - cy) / max(0.5, ry)
        return ((nx * nx + ny * ny).squareRoot() - 1) * min(rx, ry)
    }

    /// Coverage for a signed distance: 1 inside, 0 outside, a one-pixel ramp on the edge.
    private static func edge(_ distance: Double) -> Double { max(0, min(1, 0.5 - distance)) }

    private static func contains(_ points: [(Double, Double)], _ x: Double, _ y: Double) -> Bool {
        var inside = false
        var j = points.count - 1
        for i in points.indices {
            let (xi, yi) = points[i], (xj, yj) = points[j]
            if (yi > y) != (yj > y), x < (xj - xi) * (y - yi) / (yj - yi) + xi { inside.toggle() }
            j = i
        }
        return inside
    }
}

/// A small deterministic random generator (SplitMix64): the same seed gives the same picture
/// on every machine.
struct SplitMix {
    private var state: UInt64

    /// Seeded from `text` (FNV-1a of its UTF-8).
    init(_ text: String) {
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        state = hash
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<1.
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    mutating func pick<T>(_ choices: [T]) -> T { choices[Int(next() % UInt64(choices.count))] }
}
