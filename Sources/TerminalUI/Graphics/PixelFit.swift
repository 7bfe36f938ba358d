/// Fits RGBA pictures into boxes: centred on a field of their own edge colour so the box's
/// proportions are met without cutting or stretching, and scaled to an exact pixel size.
public enum PixelFit {
    /// `pixels` (`width` × `height`, RGBA) as exactly `size` pixels, proportions kept.
    public static func fit(_ pixels: [UInt8], width: Int, height: Int, into size: Size) -> [UInt8] {
        guard size.width > 0, size.height > 0, width > 0, height > 0, pixels.count >= width * height * 4 else {
            return []
        }
        let padded = pad(pixels, width: width, height: height, toAspect: Double(size.width) / Double(size.height))
        return scale(padded.pixels, width: padded.width, height: padded.height, to: size)
    }

    /// `pixels` centred on a field of their edge colour whose width over height is `aspect`.
    public static func pad(_ pixels: [UInt8], width: Int, height: Int, toAspect aspect: Double) -> (
        pixels: [UInt8], width: Int, height: Int
    ) {
        let newWidth = max(width, Int((Double(height) * aspect).rounded()))
        let newHeight = max(height, Int((Double(width) / aspect).rounded()))
        guard newWidth != width || newHeight != height else { return (pixels, width, height) }
        let edge = edgeColor(pixels, width: width, height: height)
        var out = [UInt8](repeating: 255, count: newWidth * newHeight * 4)
        for i in 0..<(newWidth * newHeight) {
            out[i * 4] = edge.0
            out[i * 4 + 1] = edge.1
            out[i * 4 + 2] = edge.2
        }
        let left = (newWidth - width) / 2, top = (newHeight - height) / 2
        for y in 0..<height {
            let source = y * width * 4, target = ((top + y) * newWidth + left) * 4
            out.replaceSubrange(target..<target + width * 4, with: pixels[source..<source + width * 4])
        }
        return (out, newWidth, newHeight)
    }

    /// `pixels` resampled to `size`: each target pixel is the average of the source pixels it
    /// covers (the nearest one when enlarging).
    public static func scale(_ pixels: [UInt8], width: Int, height: Int, to size: Size) -> [UInt8] {
        if size.width == width, size.height == height { return pixels }
        var out = [UInt8](repeating: 0, count: size.width * size.height * 4)
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for ty in 0..<size.height {
                    let y0 = ty * height / size.height, y1 = max(y0 + 1, (ty + 1) * height / size.height)
                    for tx in 0..<size.width {
                        let x0 = tx * width / size.width, x1 = max(x0 + 1, (tx + 1) * width / size.width)
                        var sum = (0, 0, 0, 0)
                        for sy in y0..<y1 {
                            var i = (sy * width + x0) * 4
                            for _ in x0..<x1 {
                                sum.0 += Int(source[i])
                                sum.1 += Int(source[i + 1])
                                sum.2 += Int(source[i + 2])
                                sum.3 += Int(source[i + 3])
                                i += 4
                            }
                        }
                        let n = (y1 - y0) * (x1 - x0), o = (ty * size.width + tx) * 4
                        target[o] = UInt8(sum.0 / n)
                        target[o + 1] = UInt8(sum.1 / n)
                        target[o + 2] = UInt8(sum.2 / n)
                        target[o + 3] = UInt8(sum.3 / n)
                    }
                }
            }
        }
        return out
    }

    /// The average colour of the picture's outermost pixels, for the field around it.
    static func edgeColor(_ pixels: [UInt8], width: Int, height: Int) -> (UInt8, UInt8, UInt8) {
        var sum = (0, 0, 0), n = 0
        func add(_ x: Int, _ y: Int) {
            let i = (y * width + x) * 4
            sum.0 += Int(pixels[i])
            sum.1 += Int(pixels[i + 1])
            sum.2 += Int(pixels[i + 2])
            n += 1
        }
        for x in 0..<width {
            add(x, 0)
            add(x, height - 1)
        }
        for y in 0..<height {
            add(0, y)
            add(width - 1, y)
        }
        return (UInt8(sum.0 / n), UInt8(sum.1 / n), UInt8(sum.2 / n))
    }
}
