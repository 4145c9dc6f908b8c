#include "CQRDecode.h"
#include <stdio.h>  /* before jpeglib.h, which uses FILE */
#include <jpeglib.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <zbar.h>

/* Grey pixels, one byte each, as zbar's Y800 format wants them. */
typedef struct { unsigned char *pixels; unsigned width, height; } grey_image;

static int sides_ok(unsigned width, unsigned height) {
    return width > 0 && height > 0 && width <= BW_QR_MAX_SIDE && height <= BW_QR_MAX_SIDE;
}

static int read_png(FILE *file, grey_image *out) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_stdio(&image, file)) return BW_QR_DAMAGED;
    if (!sides_ok(image.width, image.height)) { png_image_free(&image); return BW_QR_TOO_LARGE; }
    image.format = PNG_FORMAT_GRAY;
    /* Transparent pixels over white, as a code shown on a page would be. */
    png_color white = { 255, 255, 255 };
    out->pixels = malloc(PNG_IMAGE_SIZE(image));
    if (!out->pixels) { png_image_free(&image); return BW_QR_TOO_LARGE; }
    if (!png_image_finish_read(&image, &white, out->pixels, 0, NULL)) {
        free(out->pixels);
        out->pixels = NULL;
        return BW_QR_DAMAGED;
    }
    out->width = image.width;
    out->height = image.height;
    return BW_QR_OK;
}

/* libjpeg reports errors by calling error_exit, which must not return. */
typedef struct { struct jpeg_error_mgr base; jmp_buf back; } jpeg_errors;
static void jpeg_fail(j_common_ptr info) { longjmp(((jpeg_errors *)info->err)->back, 1); }
static void jpeg_quiet(j_common_ptr info) { (void)info; }

static int read_jpeg(FILE *file, grey_image *out) {
    struct jpeg_decompress_struct info;
    jpeg_errors errors;
    info.err = jpeg_std_error(&errors.base);
    errors.base.error_exit = jpeg_fail;
    errors.base.output_message = jpeg_quiet;
    unsigned char *volatile pixels = NULL;
    if (setjmp(errors.back)) {
        jpeg_destroy_decompress(&info);
        free(pixels);
        return BW_QR_DAMAGED;
    }
    jpeg_create_decompress(&info);
    jpeg_stdio_src(&info, file);
    jpeg_read_header(&info, TRUE);
    if (!sides_ok(info.image_width, info.image_height)) { jpeg_destroy_decompress(&info); return BW_QR_TOO_LARGE; }
    info.out_color_space = JCS_GRAYSCALE;
    jpeg_start_decompress(&info);
    pixels = malloc((size_t)info.output_width * info.output_height);
    if (!pixels) { jpeg_destroy_decompress(&info); return BW_QR_TOO_LARGE; }
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = pixels + (size_t)info.output_scanline * info.output_width;
        jpeg_read_scanlines(&info, &row, 1);
    }
    out->width = info.output_width;
    out->height = info.output_height;
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    out->pixels = pixels;
    return BW_QR_OK;
}

static int scan(const grey_image *image, char *out, size_t out_size) {
    zbar_image_scanner_t *scanner = zbar_image_scanner_create();
    zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0);
    zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1);
    zbar_image_t *frame = zbar_image_create();
    zbar_image_set_format(frame, zbar_fourcc('Y', '8', '0', '0'));
    zbar_image_set_size(frame, image->width, image->height);
    zbar_image_set_data(frame, image->pixels, (unsigned long)image->width * image->height, NULL);
    int result = BW_QR_NO_CODE;
    if (zbar_scan_image(scanner, frame) > 0) {
        for (const zbar_symbol_t *symbol = zbar_image_first_symbol(frame); symbol; symbol = zbar_symbol_next(symbol)) {
            if (zbar_symbol_get_type(symbol) != ZBAR_QRCODE) continue;
            const char *data = zbar_symbol_get_data(symbol);
            unsigned length = zbar_symbol_get_data_length(symbol);
            if (result == BW_QR_OK) {
                /* A second code: the same text twice is one code. */
                if (strlen(out) != length || memcmp(out, data, length) != 0) { result = BW_QR_SEVERAL; break; }
                continue;
            }
            if (length + 1 > out_size) { result = BW_QR_TOO_LONG; break; }
            memcpy(out, data, length);
            out[length] = '\0';
            result = BW_QR_OK;
        }
    }
    zbar_image_destroy(frame);
    zbar_image_scanner_destroy(scanner);
    return result;
}

int bw_qr_decode_file(const char *path, char *out, size_t out_size) {
    if (out_size == 0) return BW_QR_TOO_LONG;
    out[0] = '\0';
    FILE *file = fopen(path, "rb");
    if (!file) return BW_QR_UNREADABLE;
    unsigned char magic[8] = { 0 };
    size_t got = fread(magic, 1, sizeof magic, file);
    rewind(file);
    grey_image image = { NULL, 0, 0 };
    int status;
    if (got == 8 && png_sig_cmp(magic, 0, 8) == 0) {
        status = read_png(file, &image);
    } else if (got >= 3 && magic[0] == 0xFF && magic[1] == 0xD8 && magic[2] == 0xFF) {
        status = read_jpeg(file, &image);
    } else {
        status = ferror(file) ? BW_QR_UNREADABLE : BW_QR_NOT_AN_IMAGE;
    }
    fclose(file);
    if (status != BW_QR_OK) return status;
    status = scan(&image, out, out_size);
    free(image.pixels);
    if (status != BW_QR_OK) out[0] = '\0';
    return status;
}
