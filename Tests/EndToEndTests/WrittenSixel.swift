/// One sixel image the app wrote to the terminal: the cell it was put at (0-based), its size in
/// pixels (its raster attributes) and where in the output it starts.
struct WrittenSixel: Equatable {
    var column: Int, row: Int
    var width: Int, height: Int
    var offset: Int

    /// The sixel images in `output` from byte `start` on (the app writes each as DECSC, CUP, the DCS, DECRC).
    static func all(in output: [UInt8], from start: Int = 0) -> [WrittenSixel] {
        let text = String(decoding: output.dropFirst(start), as: UTF8.self)
        var found: [WrittenSixel] = []
        var rest = text[...]
        while let save = rest.range(of: "\u{1B}7\u{1B}[") {
            let afterSave = rest[save.upperBound...]
            rest = afterSave
            let position = afterSave.prefix { $0 != "H" }
            let numbers = position.split(separator: ";").compactMap { Int($0) }
            let body = afterSave.dropFirst(position.count + 1)
            guard numbers.count == 2, body.hasPrefix("\u{1B}P"), let raster = body.prefix(200).range(of: "\"1;1;")
            else { continue }
            let size = body[raster.upperBound...].prefix { $0.isNumber || $0 == ";" }.split(separator: ";").compactMap {
                Int($0)
            }
            guard size.count == 2 else { continue }
            found.append(
                WrittenSixel(
                    column: numbers[1] - 1, row: numbers[0] - 1, width: size[0], height: size[1],
                    offset: start + text.utf8.distance(from: text.startIndex, to: save.lowerBound)))
        }
        return found
    }
}
