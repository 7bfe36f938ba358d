#ifndef FAKENFT_DECODE_H
#define FAKENFT_DECODE_H

#include <stddef.h>
#include <stdint.h>

/// A decoded image: RGBA, 8 bits per channel, rows top to bottom, `width * 4` bytes per row.
typedef struct {
    int width;
    int height;
    uint8_t *pixels;   /* malloc'd; free with fakenft_image_free */
} fakenft_image;

/// Decodes a PNG or a JPEG (told apart by their first bytes) into RGBA. Images larger than
/// `max_side` pixels on a side or `max_pixels` decoded pixels in all are refused before anything
/// is allocated; a JPEG is decoded at the smallest scale (1/1 to 1/8) that stays at least
/// `want_side` on its longer side (`max_pixels` bounds the scaled size), and one that would need
/// more memory than that (a large progressive JPEG) is refused. Returns 0 on success; otherwise
/// writes a reason into `error`.
int fakenft_decode(const uint8_t *data, size_t length, int max_side, long max_pixels, int want_side,
                   fakenft_image *out, char *error, size_t error_length);

void fakenft_image_free(fakenft_image *image);

#endif
