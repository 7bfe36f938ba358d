#include "fakenft_decode.h"

#include <png.h>
#include <jpeglib.h>
#include <jerror.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *error, size_t length, const char *reason) {
    if (error && length > 0) snprintf(error, length, "%s", reason);
    return -1;
}

/// The most libjpeg may allocate for one picture.
#define JPEG_MAX_MEMORY (24L * 1024 * 1024)

static int too_large(int width, int height, int max_side, long max_pixels) {
    return width <= 0 || height <= 0 || width > max_side || height > max_side || (long)width * (long)height > max_pixels;
}

static int decode_png(const uint8_t *data, size_t length, int max_side, long max_pixels, fakenft_image *out,
                      char *error, size_t error_length) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, length)) {
        fail(error, error_length, image.message[0] ? image.message : "not a readable PNG");
        png_image_free(&image);
        return -1;
    }
    if (too_large((int)image.width, (int)image.height, max_side, max_pixels)) {
        png_image_free(&image);
        return fail(error, error_length, "the image is too large");
    }
    image.format = PNG_FORMAT_RGBA;
    size_t size = PNG_IMAGE_SIZE(image);
    uint8_t *pixels = malloc(size);
    if (!pixels) {
        png_image_free(&image);
        return fail(error, error_length, "out of memory");
    }
    if (!png_image_finish_read(&image, NULL, pixels, 0, NULL)) {
        fail(error, error_length, image.message[0] ? image.message : "a broken PNG");
        free(pixels);
        png_image_free(&image);
        return -1;
    }
    out->width = (int)image.width;
    out->height = (int)image.height;
    out->pixels = pixels;
    png_image_free(&image);
    return 0;
}

struct jpeg_failure {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

static void jpeg_fail(j_common_ptr info) {
    struct jpeg_failure *failure = (struct jpeg_failure *)info->err;
    (*info->err->format_message)(info, failure->message);
    longjmp(failure->jump, 1);
}

static void jpeg_quiet(j_common_ptr info, int level) { (void)info; (void)level; }

static int decode_jpeg(const uint8_t *data, size_t length, int max_side, long max_pixels, int want_side, fakenft_image *out,
                       char *error, size_t error_length) {
    struct jpeg_decompress_struct info;
    struct jpeg_failure failure;
    uint8_t *volatile pixels = NULL;
    memset(&info, 0, sizeof info);
    info.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = jpeg_fail;
    failure.manager.emit_message = jpeg_quiet;
    failure.message[0] = 0;
    if (setjmp(failure.jump)) {
        free(pixels);
        jpeg_destroy_decompress(&info);
        if (failure.manager.msg_code == JERR_NO_BACKING_STORE) {
            return fail(error, error_length, "the image needs too much memory to decode");
        }
        return fail(error, error_length, failure.message[0] ? failure.message : "a broken JPEG");
    }
    jpeg_create_decompress(&info);
    // A progressive JPEG keeps every coefficient of the whole image while it decodes, whatever
    // the scale (about 50 MB for 4000x4000): past this, it is refused instead.
    info.mem->max_memory_to_use = JPEG_MAX_MEMORY;
    jpeg_mem_src(&info, data, (unsigned long)length);
    jpeg_read_header(&info, TRUE);
    if (too_large((int)info.image_width, (int)info.image_height, max_side, 8L * 8L * max_pixels)) {
        jpeg_destroy_decompress(&info);
        return fail(error, error_length, "the image is too large");
    }
    if (info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK) {
        jpeg_destroy_decompress(&info);
        return fail(error, error_length, "CMYK JPEGs are not shown");
    }
    int longer = info.image_width > info.image_height ? (int)info.image_width : (int)info.image_height;
    int denominator = 1;
    while (denominator < 8 && longer / (denominator * 2) >= want_side) denominator *= 2;
    info.scale_num = 1;
    info.scale_denom = (unsigned int)denominator;
    info.out_color_space = JCS_EXT_RGBA;
    // The pixels allocated are the scaled ones: those are what `max_pixels` bounds.
    jpeg_calc_output_dimensions(&info);
    if (too_large((int)info.output_width, (int)info.output_height, max_side, max_pixels)) {
        jpeg_destroy_decompress(&info);
        return fail(error, error_length, "the image is too large");
    }
    jpeg_start_decompress(&info);
    size_t stride = (size_t)info.output_width * 4;
    pixels = malloc(stride * info.output_height);
    if (!pixels) {
        jpeg_destroy_decompress(&info);
        return fail(error, error_length, "out of memory");
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = pixels + stride * info.output_scanline;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    out->width = (int)info.output_width;
    out->height = (int)info.output_height;
    out->pixels = pixels;
    jpeg_destroy_decompress(&info);
    return 0;
}

int fakenft_decode(const uint8_t *data, size_t length, int max_side, long max_pixels, int want_side,
                   fakenft_image *out, char *error, size_t error_length) {
    memset(out, 0, sizeof *out);
    static const uint8_t png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (length >= 8 && memcmp(data, png_signature, 8) == 0) {
        return decode_png(data, length, max_side, max_pixels, out, error, error_length);
    }
    if (length >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF) {
        return decode_jpeg(data, length, max_side, max_pixels, want_side, out, error, error_length);
    }
    return fail(error, error_length, "not a PNG or a JPEG");
}

void fakenft_image_free(fakenft_image *image) {
    free(image->pixels);
    image->pixels = NULL;
}
