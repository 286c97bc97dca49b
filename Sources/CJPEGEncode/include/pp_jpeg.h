#ifndef PP_JPEG_H
#define PP_JPEG_H
#include <stddef.h>

/// Encodes `width` x `height` 8-bit RGB pixels (rows of width * 3 bytes) as a baseline JPEG of
/// `quality` (1-100) into a buffer the caller frees with pp_jpeg_free. libjpeg reports an error by
/// calling its error handler, whose default ends the process (exit): here the handler returns to
/// this function (longjmp), which answers 0 with libjpeg's message in `err`. 1 on success.
int pp_jpeg_encode(
    const unsigned char *rgb, int width, int height, int quality, unsigned char **out, size_t *size, char *err,
    size_t errlen);
void pp_jpeg_free(void *p);

#endif
