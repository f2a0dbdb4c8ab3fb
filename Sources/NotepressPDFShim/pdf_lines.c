// A paragraph's lines, and the exclusion path of a floated image (issue 49, item 3): Pango lays
// a paragraph out at one width, so a paragraph that flows around an image is laid out twice.
// First the whole text at the width beside the image; the lines whose tops are above the
// image's foot are kept. The text from the first byte of the next line on is then laid out
// again at the full width, its runs moved to start at that byte. Both layouts break lines
// where Pango would (the split is at a line break Pango chose), each line keeps its own text
// and runs for links, footnotes and marks (include/notepress_pdf.h).
#include "pdf_internal.h"
#include <stdlib.h>
#include <string.h>

/// The lines of a layout, each at least `least` high (the theme's line height), in `text`
/// with `runs`, `dx` further right.
static np_line *np_lines(PangoLayout *l, double least, int *count, const char *text, size_t length,
                         const np_pdf_run *runs, size_t run_count, double dx) {
    *count = pango_layout_get_line_count(l);
    np_line *lines = calloc((size_t)*count, sizeof *lines);
    PangoLayoutIter *it = pango_layout_get_iter(l);
    int i = 0;
    do {
        PangoRectangle logical;
        pango_layout_iter_get_line_extents(it, NULL, &logical);
        np_line *n = &lines[i++];
        n->line = pango_layout_iter_get_line_readonly(it);
        n->x = logical.x / (double)PANGO_SCALE;
        n->dx = dx;
        double height = logical.height / (double)PANGO_SCALE;
        n->ascent = (pango_layout_iter_get_baseline(it) - logical.y) / (double)PANGO_SCALE;
        n->pitch = height > least ? height : least;
        n->ascent += (n->pitch - height) / 2;
        n->start = n->line->start_index;
        n->length = n->line->length;
        n->text = text; n->text_length = length;
        n->runs = runs; n->run_count = run_count;
    } while (pango_layout_iter_next_line(it) && i < *count);
    pango_layout_iter_free(it);
    return lines;
}

/// The runs of text[from…], their offsets from `from` (runs ending before it left out).
static np_pdf_run *np_runs_from(const np_pdf_run *runs, size_t count, uint32_t from, size_t *out_count) {
    np_pdf_run *out = calloc(count ? count : 1, sizeof *out);
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        if (runs[i].end <= from) continue;
        out[n] = runs[i];
        out[n].start = runs[i].start > from ? runs[i].start - from : 0;
        out[n].end = runs[i].end - from;
        n++;
    }
    *out_count = n;
    return out;
}

/// The floated image's lines: beside it at the narrower width, then below it at the full one.
/// 0 when the image cannot be read (the caller lays the paragraph out without it).
static int np_float(np_pdf *p, np_paragraph_lines *out, const char *text, size_t length, const np_pdf_run *runs, size_t count,
                    const np_pdf_paragraph_style *s, double width) {
    cairo_surface_t *image = np_load_image(s->float_image);
    if (!image) return 0;
    int pw = cairo_image_surface_get_width(image), ph = cairo_image_surface_get_height(image);
    double w = s->float_width, h = s->float_height > 0 ? s->float_height : w * ph / (pw > 0 ? pw : 1);
    double narrow = width - w - s->float_gap;
    if (pw <= 0 || ph <= 0 || narrow < width / 3) { cairo_surface_destroy(image); return 0; }
    out->image = image; out->image_width = w; out->image_height = h;
    out->layouts[0] = np_layout(p, text, length, runs, count, narrow, s->align);
    int n = 0;
    np_line *beside = np_lines(out->layouts[0], s->line_height, &n, text, length, runs, count, w + s->float_gap);
    int k = 0;
    for (double top = 0; k < n && top < h; k++) top += beside[k].pitch;
    out->beside = k;
    if (k == n) { out->lines = beside; out->count = n; return 1; }
    uint32_t from = (uint32_t)beside[k].start;
    size_t shifted_count = 0;
    out->shifted = np_runs_from(runs, count, from, &shifted_count);
    out->layouts[1] = np_layout(p, text + from, length - from, out->shifted, shifted_count, width, s->align);
    int m = 0;
    np_line *below = np_lines(out->layouts[1], s->line_height, &m, text + from, length - from, out->shifted, shifted_count, 0);
    out->lines = calloc((size_t)(k + m), sizeof *out->lines);
    memcpy(out->lines, beside, (size_t)k * sizeof *beside);
    memcpy(out->lines + k, below, (size_t)m * sizeof *below);
    out->count = k + m;
    free(beside);
    free(below);
    return 1;
}

void np_lay_out_paragraph(np_pdf *p, np_paragraph_lines *out, const char *text, size_t length, const np_pdf_run *runs,
                          size_t count, const np_pdf_paragraph_style *s) {
    memset(out, 0, sizeof *out);
    double width = p->setup.width - p->setup.left - p->setup.right - s->left - s->right;
    if (s->float_image && s->float_width > 0 && np_float(p, out, text, length, runs, count, s, width)) return;
    out->layouts[0] = np_layout(p, text, length, runs, count, width, s->align);
    out->lines = np_lines(out->layouts[0], s->line_height, &out->count, text, length, runs, count, 0);
}

void np_free_paragraph_lines(np_paragraph_lines *pl) {
    free(pl->lines);
    free(pl->shifted);
    for (int i = 0; i < 2; i++) if (pl->layouts[i]) g_object_unref(pl->layouts[i]);
    if (pl->image) cairo_surface_destroy(pl->image);
}
