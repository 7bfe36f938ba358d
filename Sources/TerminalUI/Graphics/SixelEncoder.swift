import CChafa
import Glibc

/// Sixel images through libchafa's pixel mode: a picture becomes one DCS escape of exactly the
/// pixel size asked for (its height rounded down to whole sixel bands of 6 rows, so it never
/// reaches into the row below).
public enum SixelEncoder {
    /// `pixels` (RGBA, `width` × `height`, already fitted to `size`) as a sixel escape of `size`
    /// pixels, the height rounded down to a multiple of 6; nil when nothing fits.
    public static func encode(rgba pixels: [UInt8], width: Int, height: Int, size: Size) -> String? {
        let bandHeight = size.height / 6 * 6
        guard size.width > 0, bandHeight > 0, width > 0, height > 0, pixels.count >= width * height * 4 else {
            return nil
        }
        let config = chafa_canvas_config_new()
        chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SIXELS)
        chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
        chafa_canvas_config_set_geometry(config, 1, 1)
        chafa_canvas_config_set_cell_geometry(config, Int32(size.width), Int32(bandHeight))
        chafa_canvas_config_set_dither_mode(config, CHAFA_DITHER_MODE_NONE)
        let canvas = chafa_canvas_new(config)
        defer {
            chafa_canvas_unref(canvas)
            chafa_canvas_config_unref(config)
        }
        pixels.withUnsafeBufferPointer {
            chafa_canvas_draw_all_pixels(
                canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, $0.baseAddress, Int32(width), Int32(height), Int32(width * 4))
        }
        var length = 0
        guard let printed = cchafa_print(canvas, &length) else { return nil }
        defer { free(printed) }
        return String(decoding: UnsafeRawBufferPointer(start: printed, count: length), as: UTF8.self)
    }
}
