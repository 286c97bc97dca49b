#include "pp_mupdf.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#ifdef PDFPIPE_MUPDF
#include <mupdf/fitz.h>
#include <mupdf/pdf.h>

// The store (MuPDF's cache of fonts, images and glyphs) per document: 64 MB keeps a worker well
// under 300 MB on the big manuals; MuPDF's default is 256 MB.
#define PP_MU_STORE (64u << 20)
#define PP_MU_MAX_WARNINGS 200

struct pp_mu {
    fz_context *ctx;
    fz_document *doc;
    char *warnings;
    size_t wlen, wcap;
    int wcount;
};

static void pp_mu_warn(void *user, const char *message) {
    pp_mu *m = user;
    if (!m || m->wcount >= PP_MU_MAX_WARNINGS) return;
    size_t n = strlen(message);
    if (m->wlen + n + 2 > m->wcap) {
        size_t cap = (m->wcap ? m->wcap * 2 : 512);
        while (cap < m->wlen + n + 2) cap *= 2;
        char *p = realloc(m->warnings, cap);
        if (!p) return;
        m->warnings = p;
        m->wcap = cap;
    }
    memcpy(m->warnings + m->wlen, message, n);
    m->wlen += n;
    m->warnings[m->wlen++] = '\n';
    m->warnings[m->wlen] = 0;
    m->wcount++;
}

static void pp_mu_set_err(char *err, size_t errlen, const char *message) {
    if (err && errlen) snprintf(err, errlen, "%s", message ? message : "unknown MuPDF error");
}

int pp_mu_available(void) { return 1; }
const char *pp_mu_version(void) { return FZ_VERSION; }

pp_mu *pp_mu_open(const char *path, int *needs_password, char *err, size_t errlen) {
    if (needs_password) *needs_password = 0;
    pp_mu *m = calloc(1, sizeof *m);
    if (!m) { pp_mu_set_err(err, errlen, "out of memory"); return NULL; }
    // A context of its own (no locks: nothing is shared with another thread's context).
    m->ctx = fz_new_context(NULL, NULL, PP_MU_STORE);
    if (!m->ctx) { free(m); pp_mu_set_err(err, errlen, "cannot make a MuPDF context"); return NULL; }
    fz_set_warning_callback(m->ctx, pp_mu_warn, m);
    fz_set_error_callback(m->ctx, NULL, NULL);
    int ok = 1;
    fz_try(m->ctx) {
        fz_register_document_handlers(m->ctx);
        m->doc = fz_open_document(m->ctx, path);
        if (fz_needs_password(m->ctx, m->doc)) {
            if (needs_password) *needs_password = 1;
            fz_throw(m->ctx, FZ_ERROR_GENERIC, "the document needs a password");
        }
        (void)fz_count_pages(m->ctx, m->doc);
    }
    fz_catch(m->ctx) {
        pp_mu_set_err(err, errlen, fz_caught_message(m->ctx));
        ok = 0;
    }
    if (!ok) { pp_mu_close(m); return NULL; }
    return m;
}

void pp_mu_close(pp_mu *m) {
    if (!m) return;
    if (m->doc) fz_drop_document(m->ctx, m->doc);
    fz_drop_context(m->ctx);
    free(m->warnings);
    free(m);
}

int pp_mu_page_count(pp_mu *m) {
    int n = 0;
    fz_try(m->ctx) { n = fz_count_pages(m->ctx, m->doc); }
    fz_catch(m->ctx) { n = 0; }
    return n;
}

pp_mu_page *pp_mu_load_page(pp_mu *m, int index, double *width, double *height, char *err, size_t errlen) {
    fz_page *page = NULL;
    fz_var(page);
    fz_try(m->ctx) {
        page = fz_load_page(m->ctx, m->doc, index);
        fz_rect b = fz_bound_page(m->ctx, page);
        *width = b.x1 - b.x0;
        *height = b.y1 - b.y0;
    }
    fz_catch(m->ctx) {
        fz_drop_page(m->ctx, page);
        pp_mu_set_err(err, errlen, fz_caught_message(m->ctx));
        return NULL;
    }
    return (pp_mu_page *)page;
}

void pp_mu_drop_page(pp_mu *m, pp_mu_page *page) { fz_drop_page(m->ctx, (fz_page *)page); }

struct pp_mu_cancel { fz_cookie cookie; };
pp_mu_cancel *pp_mu_cancel_new(void) { return calloc(1, sizeof(pp_mu_cancel)); }
void pp_mu_cancel_now(pp_mu_cancel *c) { if (c) __atomic_store_n(&c->cookie.abort, 1, __ATOMIC_RELAXED); }
void pp_mu_cancel_free(pp_mu_cancel *c) { free(c); }

int pp_mu_render(
    pp_mu *m, pp_mu_page *p, double scale, double rx, double ry, int transparent, int annotations,
    unsigned char *dst, int width, int height, int stride, pp_mu_cancel *cancel, char *err, size_t errlen) {
    if (stride != width * 4) { pp_mu_set_err(err, errlen, "unexpected image stride"); return 0; }
    fz_context *ctx = m->ctx;
    fz_page *page = (fz_page *)p;
    fz_pixmap *pix = NULL;
    fz_device *dev = NULL;
    int ok = 1;
    fz_var(pix);
    fz_var(dev);
    fz_try(ctx) {
        fz_rect b = fz_bound_page(ctx, page);
        // Page space (points, top left of the displayed page at the bounds' origin) to pixels.
        fz_matrix ctm = fz_pre_translate(fz_scale((float)scale, (float)scale), -(b.x0 + (float)rx), -(b.y0 + (float)ry));
        fz_irect box = { 0, 0, width, height };
        // BGRA bytes with premultiplied alpha are cairo's ARGB32 on a little-endian machine.
        pix = fz_new_pixmap_with_bbox_and_data(ctx, fz_device_bgr(ctx), box, NULL, 1, dst);
        if (transparent) fz_clear_pixmap(ctx, pix); else fz_clear_pixmap_with_value(ctx, pix, 255);
        dev = fz_new_draw_device(ctx, fz_identity, pix);
        fz_cookie *cookie = cancel ? &cancel->cookie : NULL;
        if (annotations) fz_run_page(ctx, page, dev, ctm, cookie);
        else fz_run_page_contents(ctx, page, dev, ctm, cookie);
        fz_close_device(ctx, dev);
        if (cookie && cookie->abort) fz_throw(ctx, FZ_ERROR_GENERIC, "the render was stopped");
    }
    fz_always(ctx) {
        fz_drop_device(ctx, dev);
        fz_drop_pixmap(ctx, pix);
    }
    fz_catch(ctx) { pp_mu_set_err(err, errlen, fz_caught_message(ctx)); ok = 0; }
    return ok;
}

int pp_mu_text(
    pp_mu *m, pp_mu_page *p, int layer, uint32_t **chars, double **boxes, size_t *count, int *images, char *err,
    size_t errlen) {
    fz_context *ctx = m->ctx;
    fz_page *page = (fz_page *)p;
    fz_stext_page *text = NULL;
    fz_display_list *list = NULL;
    fz_device *dev = NULL;
    uint32_t *cs = NULL;
    double *bs = NULL;
    size_t n = 0, cap = 0;
    int ok = 1, nimages = 0;
    fz_var(text);
    fz_var(list);
    fz_var(dev);
    fz_var(cs);
    fz_var(bs);
    fz_var(n);
    fz_var(cap);
    fz_var(nimages);
    fz_try(ctx) {
        fz_rect b = fz_bound_page(ctx, page);
        fz_stext_options options = { 0 };
        // Text outside the page (the bounds: its crop box) is none a viewer shows: left out, as mutool
        // and pdftotext leave it out.
        options.flags = FZ_STEXT_MEDIABOX_CLIP | (images ? FZ_STEXT_PRESERVE_IMAGES : 0);
        // As mutool draw -F txt: the layer asked for is recorded in a display list, which is then
        // run into the text device. Run into it directly, a word kerned apart inside a TJ gets a
        // space MuPDF's pen model adds ("r epresent  the r ecorded" on a page of PyMuPDF's
        // tests/resources/test_3725.pdf, where mutool reads "represent the recorded").
        list = fz_new_display_list(ctx, b);
        dev = fz_new_list_device(ctx, list);
        if (layer == 0) {
            fz_run_page_contents(ctx, page, dev, fz_identity, NULL);
        } else {
            fz_run_page_annots(ctx, page, dev, fz_identity, NULL);
            fz_run_page_widgets(ctx, page, dev, fz_identity, NULL);
        }
        fz_close_device(ctx, dev);
        fz_drop_device(ctx, dev);
        dev = NULL;
        text = fz_new_stext_page(ctx, b);
        dev = fz_new_stext_device(ctx, text, &options);
        fz_run_display_list(ctx, list, dev, fz_identity, fz_infinite_rect, NULL);
        fz_close_device(ctx, dev);
        for (fz_stext_block *block = text->first_block; block; block = block->next) {
            if (block->type == FZ_STEXT_BLOCK_IMAGE) { nimages++; continue; }
            if (block->type != FZ_STEXT_BLOCK_TEXT) continue;
            for (fz_stext_line *line = block->u.t.first_line; line; line = line->next) {
                for (fz_stext_char *c = line->first_char; ; c = c->next) {
                    if (n == cap) {
                        cap = cap ? cap * 2 : 1024;
                        uint32_t *nc = realloc(cs, cap * sizeof *cs);
                        if (!nc) fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory");
                        cs = nc;
                        double *nb = realloc(bs, cap * 4 * sizeof *bs);
                        if (!nb) fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory");
                        bs = nb;
                    }
                    if (!c) {
                        // The line's end: a break with an empty box at the last character's end.
                        cs[n] = '\n';
                        double x = n > 0 ? bs[4 * (n - 1) + 2] : 0, y = n > 0 ? bs[4 * (n - 1) + 3] : 0;
                        bs[4 * n] = x; bs[4 * n + 1] = y; bs[4 * n + 2] = x; bs[4 * n + 3] = y;
                        n++;
                        break;
                    }
                    fz_rect r = fz_rect_from_quad(c->quad);
                    cs[n] = (uint32_t)c->c;
                    bs[4 * n] = r.x0 - b.x0; bs[4 * n + 1] = r.y0 - b.y0;
                    bs[4 * n + 2] = r.x1 - b.x0; bs[4 * n + 3] = r.y1 - b.y0;
                    n++;
                }
            }
        }
    }
    fz_always(ctx) {
        fz_drop_device(ctx, dev);
        fz_drop_display_list(ctx, list);
        fz_drop_stext_page(ctx, text);
    }
    fz_catch(ctx) {
        pp_mu_set_err(err, errlen, fz_caught_message(ctx));
        free(cs);
        free(bs);
        cs = NULL;
        bs = NULL;
        n = 0;
        ok = 0;
    }
    *chars = cs;
    *boxes = bs;
    *count = n;
    if (images) *images = nimages;
    return ok;
}

int pp_mu_page_has_annotations(pp_mu *m, pp_mu_page *p) {
    fz_context *ctx = m->ctx;
    int found = 0;
    fz_try(ctx) {
        pdf_page *page = pdf_page_from_fz_page(ctx, (fz_page *)p);
        if (page) {
            if (pdf_first_widget(ctx, page)) found = 1;
            for (pdf_annot *a = pdf_first_annot(ctx, page); a && !found; a = pdf_next_annot(ctx, a))
                if (pdf_annot_type(ctx, a) != PDF_ANNOT_POPUP) found = 1;
        }
    }
    fz_catch(ctx) { found = 1; }  // cannot tell: read the layer (it reports what goes wrong)
    return found;
}

void pp_mu_free(void *p) { free(p); }

char *pp_mu_drain_warnings(pp_mu *m) {
    char *w = m->warnings;
    m->warnings = NULL;
    m->wlen = m->wcap = 0;
    m->wcount = 0;
    return w;
}

#else  // built without the MuPDF trait: nothing works, and says so.

int pp_mu_available(void) { return 0; }
const char *pp_mu_version(void) { return ""; }
pp_mu *pp_mu_open(const char *path, int *needs_password, char *err, size_t errlen) {
    (void)path;
    if (needs_password) *needs_password = 0;
    if (err && errlen) snprintf(err, errlen, "pdfpipe was built without MuPDF");
    return NULL;
}
void pp_mu_close(pp_mu *m) { (void)m; }
int pp_mu_page_count(pp_mu *m) { (void)m; return 0; }
pp_mu_page *pp_mu_load_page(pp_mu *m, int index, double *width, double *height, char *err, size_t errlen) {
    (void)m; (void)index; (void)width; (void)height; (void)err; (void)errlen;
    return NULL;
}
void pp_mu_drop_page(pp_mu *m, pp_mu_page *page) { (void)m; (void)page; }
struct pp_mu_cancel { int unused; };
pp_mu_cancel *pp_mu_cancel_new(void) { return calloc(1, sizeof(pp_mu_cancel)); }
void pp_mu_cancel_now(pp_mu_cancel *c) { (void)c; }
void pp_mu_cancel_free(pp_mu_cancel *c) { free(c); }
int pp_mu_render(
    pp_mu *m, pp_mu_page *page, double scale, double rx, double ry, int transparent, int annotations,
    unsigned char *dst, int width, int height, int stride, pp_mu_cancel *cancel, char *err, size_t errlen) {
    (void)m; (void)page; (void)scale; (void)rx; (void)ry; (void)transparent; (void)annotations;
    (void)dst; (void)width; (void)height; (void)stride; (void)cancel; (void)err; (void)errlen;
    return 0;
}
int pp_mu_text(
    pp_mu *m, pp_mu_page *page, int layer, uint32_t **chars, double **boxes, size_t *count, int *images, char *err,
    size_t errlen) {
    (void)m; (void)page; (void)layer; (void)err; (void)errlen;
    *chars = NULL; *boxes = NULL; *count = 0;
    if (images) *images = 0;
    return 0;
}
int pp_mu_page_has_annotations(pp_mu *m, pp_mu_page *page) { (void)m; (void)page; return 0; }
void pp_mu_free(void *p) { free(p); }
char *pp_mu_drain_warnings(pp_mu *m) { (void)m; return NULL; }
#endif
