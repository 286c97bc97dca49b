#include "pp_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

struct pp_error {
    struct jpeg_error_mgr mgr;  // first: libjpeg's cinfo->err points here
    jmp_buf jump;
};

// Instead of libjpeg's default (print and exit): back to pp_jpeg_encode.
static void pp_error_exit(j_common_ptr cinfo) {
    struct pp_error *e = (struct pp_error *)cinfo->err;
    longjmp(e->jump, 1);
}

// libjpeg's warnings and traces go nowhere (the default prints to stderr).
static void pp_output_message(j_common_ptr cinfo) { (void)cinfo; }

int pp_jpeg_encode(
    const unsigned char *rgb, int width, int height, int quality, unsigned char **out, size_t *size, char *err,
    size_t errlen) {
    struct jpeg_compress_struct cinfo;
    struct pp_error e;
    unsigned char *buffer = NULL;
    unsigned long length = 0;
    *out = NULL;
    *size = 0;
    if (width <= 0 || height <= 0) {
        snprintf(err, errlen, "no pixels to encode");
        return 0;
    }
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = jpeg_std_error(&e.mgr);
    e.mgr.error_exit = pp_error_exit;
    e.mgr.output_message = pp_output_message;
    if (setjmp(e.jump)) {
        char message[JMSG_LENGTH_MAX];
        (*cinfo.err->format_message)((j_common_ptr)&cinfo, message);
        snprintf(err, errlen, "%s", message);
        jpeg_destroy_compress(&cinfo);
        free(buffer);
        return 0;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &buffer, &length);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality < 1 ? 1 : quality > 100 ? 100 : quality, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(rgb + (size_t)cinfo.next_scanline * (size_t)width * 3);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *out = buffer;
    *size = length;
    return 1;
}

void pp_jpeg_free(void *p) { free(p); }
