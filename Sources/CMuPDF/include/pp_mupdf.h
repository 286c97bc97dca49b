// pdfpipe's MuPDF engine (built only with the MuPDF trait): MuPDF reports errors by longjmp
// (fz_try/fz_catch), which Swift cannot call across, so every MuPDF call is made here, in C, and
// comes back as a status and a message. One pp_mu holds its own MuPDF context and document and is
// used by one thread only (each page worker opens its own, as with poppler).
#ifndef PP_MUPDF_H
#define PP_MUPDF_H
#include <stddef.h>
#include <stdint.h>

typedef struct pp_mu pp_mu;

/// 1 when pdfpipe was built with MuPDF (the trait), else 0 and every other call fails.
int pp_mu_available(void);
/// The MuPDF version this build links ("1.21.1"), or "".
const char *pp_mu_version(void);

/// Opens `path`; NULL with a message in `err` when MuPDF cannot (`*needs_password` set for an
/// encrypted file that needs a user password).
pp_mu *pp_mu_open(const char *path, int *needs_password, char *err, size_t errlen);
void pp_mu_close(pp_mu *m);
int pp_mu_page_count(pp_mu *m);

typedef struct pp_mu_page pp_mu_page;

/// Loads page `index` (0-based) and gives its size as displayed (crop box, rotation applied), in
/// points; NULL on failure. Drop it with pp_mu_drop_page before the document is closed.
pp_mu_page *pp_mu_load_page(pp_mu *m, int index, double *width, double *height, char *err, size_t errlen);
void pp_mu_drop_page(pp_mu *m, pp_mu_page *page);

/// Renders the page into `dst` (ARGB32 premultiplied, native endian: cairo's format; `width` x
/// `height` pixels, `stride` bytes per row): `scale` pixels per point, the part of the page at
/// (`rx`, `ry`) in points from its top left (0, 0 for the whole page), on white unless
/// `transparent`, annotations drawn when `annotations`. 0 on failure, with the message in `err`.
/// `cancel` (NULL: none) lets another thread stop the render (`pp_mu_cancel_now`): MuPDF's cookie.
typedef struct pp_mu_cancel pp_mu_cancel;
int pp_mu_render(
    pp_mu *m, pp_mu_page *page, double scale, double rx, double ry, int transparent, int annotations,
    unsigned char *dst, int width, int height, int stride, pp_mu_cancel *cancel, char *err, size_t errlen);

/// A cancel handle for one render at a time (MuPDF's `fz_cookie`); free it with pp_mu_cancel_free.
pp_mu_cancel *pp_mu_cancel_new(void);
/// Asks the render using `cancel` to stop (from any thread): MuPDF checks it as it draws.
void pp_mu_cancel_now(pp_mu_cancel *cancel);
void pp_mu_cancel_free(pp_mu_cancel *cancel);

/// The page's text: `*chars` (Unicode scalars) and `*boxes` (4 doubles per character: x1, y1,
/// x2, y2 in points from the top left of the displayed page), `*count` of them, a line break
/// (with an empty box) after each line. Free both with pp_mu_free. `*images` gets the number of
/// images on the page when `images` is not NULL. 0 on failure.
// layer 0: the page's content; 1: what its annotations and form fields draw.
int pp_mu_text(
    pp_mu *m, pp_mu_page *page, int layer, uint32_t **chars, double **boxes, size_t *count, int *images, char *err,
    size_t errlen);
/// Whether the page has annotations or form fields that may draw text (any annotation but a
/// popup, any widget: MuPDF makes missing appearances), from the page MuPDF loaded: 1 or 0.
int pp_mu_page_has_annotations(pp_mu *m, pp_mu_page *page);
void pp_mu_free(void *p);

/// The warnings MuPDF gave since the last call, separated by "\n" (NULL when none); free with
/// pp_mu_free.
char *pp_mu_drain_warnings(pp_mu *m);

#endif
