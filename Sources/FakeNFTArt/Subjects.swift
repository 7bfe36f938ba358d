import Foundation

/// What an NFT picture shows: one of a few kinds of subject, with colours and features drawn
/// from the NFT's name, so its three images show the same subject.
struct Subject {
    enum Kind: CaseIterable { case creature, gem, potion, mushroom, planet }

    var kind: Kind
    var body: RGB
    var accent: RGB
    /// Feature switches: ears or antennae, spots, a ring…
    var variant: Int

    /// The subject named `name` (the same name always gives the same subject).
    init(named name: String) {
        var random = SplitMix("subject:" + name)
        kind = random.pick(Kind.allCases)
        body = RGB(
            hex: random.pick([
                0xE4572E, 0x29335C, 0xF3A712, 0x669BBC, 0x8E44AD, 0x2A9D8F, 0xE76F51, 0x3D5A80, 0xD62828, 0x6A994E,
                0xF4A261, 0x5E548E,
            ]))
        accent = RGB(hex: random.pick([0xFFFFFF, 0xFFE66D, 0x9BF6FF, 0xFFC6FF, 0xCAFFBF, 0xFDFFB6]))
        variant = Int(random.next() % 4)
    }

    /// Draws the subject centred at (`cx`, `cy`), `size` pixels tall; `look` turns the eyes
    /// (-1 left … 1 right).
    func draw(on painter: inout Painter, cx: Double, cy: Double, size s: Double, look: Double) {
        painter.ellipse(cx, cy + s * 0.48, s * 0.42, s * 0.07, .black, opacity: 0.25)  // shadow on the floor
        switch kind {
        case .creature: creature(&painter, cx, cy, s, look)
        case .gem: gem(&painter, cx, cy, s)
        case .potion: potion(&painter, cx, cy, s)
        case .mushroom: mushroom(&painter, cx, cy, s, look)
        case .planet: planet(&painter, cx, cy, s)
        }
    }

    private func creature(_ p: inout Painter, _ cx: Double, _ cy: Double, _ s: Double, _ look: Double) {
        if variant % 2 == 0 {  // ears
            p.polygon(
                [(cx - s * 0.33, cy - s * 0.18), (cx - s * 0.22, cy - s * 0.52), (cx - s * 0.08, cy - s * 0.28)],
                body.scaled(0.8))
            p.polygon(
                [(cx + s * 0.33, cy - s * 0.18), (cx + s * 0.22, cy - s * 0.52), (cx + s * 0.08, cy - s * 0.28)],
                body.scaled(0.8))
        } else {  // antennae
            for side in [-1.0, 1.0] {
                p.stroke(body.scaled(0.7), thickness: s * 0.03) { t in
                    (cx + side * s * (0.1 + 0.15 * t), cy - s * (0.25 + 0.25 * t))
                }
                p.sphere(cx + side * s * 0.25, cy - s * 0.5, s * 0.05, s * 0.05, accent)
            }
        }
        p.sphere(cx, cy, s * 0.38, s * 0.36, body)
        p.ellipse(cx, cy + s * 0.12, s * 0.2, s * 0.14, accent, opacity: 0.35)  // belly
        for side in [-1.0, 1.0] {
            let ex = cx + side * s * 0.13, ey = cy - s * 0.06
            p.ellipse(ex, ey, s * 0.085, s * 0.1, .white)
            p.ellipse(ex + look * s * 0.03, ey + s * 0.01, s * 0.04, s * 0.05, RGB(hex: 0x1B1B1E))
            p.ellipse(ex + look * s * 0.03 - s * 0.012, ey - s * 0.015, s * 0.012, s * 0.012, .white)
        }
        p.stroke(RGB(hex: 0x1B1B1E), thickness: s * 0.025) { t in
            let a = Double.pi * (0.2 + 0.6 * t)
            return (cx + cos(a) * s * 0.1, cy + s * 0.08 + sin(a) * s * 0.06)
        }
    }

    private func gem(_ p: inout Painter, _ cx: Double, _ cy: Double, _ s: Double) {
        let top = cy - s * 0.3, girdle = cy - s * 0.1, bottom = cy + s * 0.42, w = s * 0.42
        let crown = [(cx - w * 0.55, top), (cx + w * 0.55, top), (cx + w, girdle), (cx - w, girdle)]
        p.polygon(crown, body.scaled(1.25))
        p.polygon([(cx - w, girdle), (cx + w, girdle), (cx, bottom)], body.scaled(0.75))
        p.polygon(
            [(cx - w * 0.2, top), (cx + w * 0.2, top), (cx + w * 0.35, girdle), (cx - w * 0.35, girdle)],
            body.scaled(1.45))
        p.polygon([(cx - w * 0.35, girdle), (cx + w * 0.35, girdle), (cx, bottom)], body)
        p.polygon([(cx + w * 0.35, girdle), (cx + w, girdle), (cx, bottom)], body.scaled(0.55))
        p.ellipse(cx - w * 0.3, top + s * 0.06, s * 0.04, s * 0.025, .white, opacity: 0.9)  // glint
    }

    private func potion(_ p: inout Painter, _ cx: Double, _ cy: Double, _ s: Double) {
        p.polygon(
            [
                (cx - s * 0.08, cy - s * 0.45), (cx + s * 0.08, cy - s * 0.45), (cx + s * 0.08, cy - s * 0.2),
                (cx - s * 0.08, cy - s * 0.2),
            ],
            RGB(hex: 0xCFE8EF))
        p.polygon(
            [
                (cx - s * 0.1, cy - s * 0.5), (cx + s * 0.1, cy - s * 0.5), (cx + s * 0.1, cy - s * 0.44),
                (cx - s * 0.1, cy - s * 0.44),
            ],
            RGB(hex: 0x8B5A2B))  // cork
        p.sphere(cx, cy + s * 0.1, s * 0.34, s * 0.34, RGB(hex: 0xDDEEF5), shine: 0.9)  // glass
        p.sphere(cx, cy + s * 0.17, s * 0.28, s * 0.26, body, shine: 0.3)  // liquid
        if variant >= 2 {
            for i in 0..<3 {
                p.ellipse(
                    cx - s * 0.1 + Double(i) * s * 0.1, cy + s * 0.05 + Double(i % 2) * s * 0.08, s * 0.025, s * 0.025,
                    accent)
            }
        }
    }

    private func mushroom(_ p: inout Painter, _ cx: Double, _ cy: Double, _ s: Double, _ look: Double) {
        p.sphere(cx, cy + s * 0.2, s * 0.15, s * 0.26, RGB(hex: 0xF5EBDC), shine: 0.2)  // stem
        p.sphere(cx, cy - s * 0.1, s * 0.42, s * 0.28, body)
        p.polygon(
            [
                (cx - s * 0.44, cy - s * 0.08), (cx + s * 0.44, cy - s * 0.08), (cx + s * 0.44, cy + s * 0.2),
                (cx - s * 0.44, cy + s * 0.2),
            ],
            RGB(0, 0, 0), opacity: 0)  // keeps the cap's lower edge crisp
        for (dx, dy, r) in [(-0.2, -0.2, 0.06), (0.12, -0.24, 0.05), (0.25, -0.08, 0.04), (-0.05, -0.05, 0.045)] {
            p.ellipse(cx + dx * s, cy + dy * s, r * s, r * s * 0.8, accent)
        }
        for side in [-1.0, 1.0] {
            p.ellipse(cx + side * s * 0.06 + look * s * 0.015, cy + s * 0.2, s * 0.022, s * 0.035, RGB(hex: 0x1B1B1E))
        }
    }

    private func planet(_ p: inout Painter, _ cx: Double, _ cy: Double, _ s: Double) {
        p.stroke(accent.scaled(0.9), thickness: s * 0.04, steps: 90) { t in  // the ring's far half
            let a = Double.pi * (1 + t)
            return (cx + cos(a) * s * 0.5, cy + sin(a) * s * 0.12)
        }
        p.sphere(cx, cy, s * 0.33, s * 0.33, body)
        for band in [-0.12, 0.05, 0.18] {
            p.ellipse(cx, cy + band * s, s * 0.3, s * 0.025, body.scaled(0.75), opacity: 0.5)
        }
        p.stroke(accent, thickness: s * 0.04, steps: 90) { t in  // the ring's near half
            let a = Double.pi * t
            return (cx + cos(a) * s * 0.5, cy + sin(a) * s * 0.12)
        }
    }
}
