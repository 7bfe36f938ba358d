import CChafa
import CNCursesW

/// Pictures as character art through libchafa: RGBA pixels become cells of block symbols with a
/// foreground and a background colour, drawn into the ``Buffer`` like text, so pictures go
/// through the same diff, clipping and dialogs as everything else.
public enum CharacterArt {
    /// The colours pictures may use, from what the terminal shows.
    public enum Palette: Sendable, Hashable {
        /// 240 colours: the 256-colour cube and greys, without the 16 the user's theme changes.
        case indexed240
        case indexed16
        case indexed8

        /// The palette for `support`; nil when pictures get no colour (the placeholder instead).
        public static func `for`(_ support: ColorSupport) -> Palette? {
            switch support {
            case .none: return nil
            case .basic: return .indexed8
            case .sixteen: return .indexed16
            case .full: return .indexed240
            }
        }
    }

    /// Which one-cell symbols pictures are drawn with.
    public enum Symbols: String, Sendable, Hashable, CaseIterable {
        /// chafa's block set: blocks, borders and spaces (fonts draw them everywhere).
        case blocks
        /// Blocks plus sextants (2×3 cells; finer, but needs a font that has them).
        case sextants
    }

    /// Width over height of a terminal cell, when the terminal does not report its pixels.
    public static let defaultCellAspect = 0.5

    /// The picture in RGBA `pixels` (`width` × `height`) as `columns` × `rows` cells, row by row,
    /// the picture's proportions kept: it is centred on a field of its own edge colour that
    /// fills the box, so the sides blend in.
    public static func cells(
        rgba pixels: [UInt8], width: Int, height: Int, columns: Int, rows: Int, palette: Palette,
        symbols: Symbols = .blocks, cellAspect: Double = defaultCellAspect
    ) -> [Cell] {
        guard columns > 0, rows > 0, width > 0, height > 0, pixels.count >= width * height * 4 else { return [] }
        let (padded, paddedWidth, paddedHeight) = PixelFit.pad(
            pixels, width: width, height: height, toAspect: Double(columns) * cellAspect / Double(rows))
        return render(
            padded, width: paddedWidth, height: paddedHeight, columns: columns, rows: rows, palette: palette,
            symbols: symbols)
    }

    private static func render(
        _ pixels: [UInt8], width: Int, height: Int, columns: Int, rows: Int, palette: Palette,
        symbols set: Symbols
    ) -> [Cell] {
        let symbols = chafa_symbol_map_new()
        var tags = CHAFA_SYMBOL_TAG_BLOCK.rawValue | CHAFA_SYMBOL_TAG_BORDER.rawValue | CHAFA_SYMBOL_TAG_SPACE.rawValue
        if set == .sextants { tags |= CHAFA_SYMBOL_TAG_SEXTANT.rawValue }
        chafa_symbol_map_add_by_tags(symbols, ChafaSymbolTags(rawValue: tags))
        chafa_symbol_map_remove_by_tags(symbols, CHAFA_SYMBOL_TAG_WIDE)
        let config = chafa_canvas_config_new()
        chafa_canvas_config_set_geometry(config, Int32(columns), Int32(rows))
        chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SYMBOLS)
        let mode =
            switch palette {
            case .indexed240: CHAFA_CANVAS_MODE_INDEXED_240
            case .indexed16: CHAFA_CANVAS_MODE_INDEXED_16
            case .indexed8: CHAFA_CANVAS_MODE_INDEXED_8
            }
        chafa_canvas_config_set_canvas_mode(config, mode)
        chafa_canvas_config_set_dither_mode(config, CHAFA_DITHER_MODE_NONE)
        chafa_canvas_config_set_symbol_map(config, symbols)
        let canvas = chafa_canvas_new(config)
        defer {
            chafa_canvas_unref(canvas)
            chafa_canvas_config_unref(config)
            chafa_symbol_map_unref(symbols)
        }
        pixels.withUnsafeBufferPointer {
            chafa_canvas_draw_all_pixels(
                canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, $0.baseAddress, Int32(width), Int32(height), Int32(width * 4))
        }
        var cells: [Cell] = []
        cells.reserveCapacity(columns * rows)
        for y in 0..<rows {
            for x in 0..<columns {
                let scalar = Unicode.Scalar(chafa_canvas_get_char_at(canvas, Int32(x), Int32(y))) ?? " "
                var fg: Int32 = -1, bg: Int32 = -1
                chafa_canvas_get_raw_colors_at(canvas, Int32(x), Int32(y), &fg, &bg)
                cells.append(
                    Cell(text: String(Character(scalar)), style: Style(foreground: color(fg), background: color(bg))))
            }
        }
        return cells
    }

    private static func color(_ pen: Int32) -> Color { (0...255).contains(pen) ? .indexed(UInt8(pen)) : .default }
}
