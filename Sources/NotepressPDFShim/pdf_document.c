// The document: the cairo PDF surface writing to memory, pages with their running header and
// number, metadata, structure tags, rules and images (see include/notepress_pdf.h).
#include "pdf_internal.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

void np_set_color(cairo_t *cr, uint32_t rgb) {
    cairo_set_source_rgb(cr, ((rgb >> 16) & 0xFF) / 255.0, ((rgb >> 8) & 0xFF) / 255.0, (rgb & 0xFF) / 255.0);
}

static cairo_status_t np_write(void *closure, const unsigned char *data, unsigned int length) {
    np_pdf *p = closure;
    if (p->length + length > p->capacity) {
        size_t want = p->capacity ? p->capacity : 65536;
        while (want < p->length + length) want *= 2;
        unsigned char *b = realloc(p->bytes, want);
        if (!b) { p->out_of_memory = 1; return CAIRO_STATUS_WRITE_ERROR; }
        p->bytes = b; p->capacity = want;
    }
    memcpy(p->bytes + p->length, data, length);
    p->length += length;
    return CAIRO_STATUS_SUCCESS;
}

static char *np_strdup(const char *s) { return s ? strdup(s) : NULL; }

/// A small line of text (running header, page number) at the given baseline, aligned 0 left,
/// 1 centre, 2 right within the text width.
static void np_margin_text(np_pdf *p, const char *text, double baseline, int align) {
    if (!text || !*text) return;
    np_pdf_run run = { 0, (uint32_t)strlen(text), p->setup.header_family, p->setup.header_size, 400, 0, 0,
                       p->setup.header_color, 0, 0, 0, 0, 0, NULL };
    double width = p->setup.width - p->setup.left - p->setup.right;
    PangoLayout *l = np_layout(p, text, strlen(text), &run, 1, width, align);
    pango_layout_set_ellipsize(l, PANGO_ELLIPSIZE_END);
    PangoLayoutIter *it = pango_layout_get_iter(l);
    double ascent = pango_layout_iter_get_baseline(it) / (double)PANGO_SCALE;
    pango_layout_iter_free(it);
    np_draw_layout(p, l, p->setup.left, baseline - ascent);
    g_object_unref(l);
}

/// The page number centred in the bottom margin.
static void np_footer(np_pdf *p) {
    char number[32];
    snprintf(number, sizeof number, "%d", p->page);
    np_margin_text(p, number, p->setup.height - p->setup.bottom / 2, 1);
}

void np_new_page(np_pdf *p) {
    np_draw_notes(p);
    np_footer(p);
    cairo_show_page(p->cr);
    p->page += 1;
    p->y = p->setup.top;
    // The running header: the title, from the second page on.
    np_margin_text(p, p->header_text, p->setup.top / 2 + p->setup.header_size / 2, 1);
}

void np_ensure(np_pdf *p, double height) {
    if (p->y > p->setup.top + 0.01 && p->y + height > np_bottom(p)) np_new_page(p);
}

np_pdf *np_pdf_open(const np_pdf_setup *setup) {
    np_pdf *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->setup = *setup;
    p->setup.header_family = np_strdup(setup->header_family);
    p->header_text = np_strdup(setup->title);
    p->surface = cairo_pdf_surface_create_for_stream(np_write, p, setup->width, setup->height);
    cairo_pdf_surface_restrict_to_version(p->surface, CAIRO_PDF_VERSION_1_5);
    const struct { cairo_pdf_metadata_t key; const char *value; } meta[] = {
        { CAIRO_PDF_METADATA_TITLE, setup->title }, { CAIRO_PDF_METADATA_AUTHOR, setup->author },
        { CAIRO_PDF_METADATA_SUBJECT, setup->subject }, { CAIRO_PDF_METADATA_KEYWORDS, setup->keywords },
        { CAIRO_PDF_METADATA_CREATOR, "Notepress" },
        { CAIRO_PDF_METADATA_CREATE_DATE, setup->date }, { CAIRO_PDF_METADATA_MOD_DATE, setup->date },
    };
    for (size_t i = 0; i < sizeof meta / sizeof meta[0]; i++)
        if (meta[i].value && *meta[i].value) cairo_pdf_surface_set_metadata(p->surface, meta[i].key, meta[i].value);
    // Without a date, none (cairo would write the time of the run: the bytes would change).
    if (!setup->date || !*setup->date) {
        cairo_pdf_surface_set_metadata(p->surface, CAIRO_PDF_METADATA_CREATE_DATE, "");
        cairo_pdf_surface_set_metadata(p->surface, CAIRO_PDF_METADATA_MOD_DATE, "");
    }
    p->cr = cairo_create(p->surface);
    p->context = pango_cairo_create_context(p->cr);
    pango_cairo_context_set_resolution(p->context, 72);
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    pango_cairo_context_set_font_options(p->context, fo);
    cairo_font_options_destroy(fo);
    pango_context_set_round_glyph_positions(p->context, FALSE);
    p->page = 1;
    p->y = setup->top;
    return p;
}

void np_pdf_space(np_pdf *p, double points) {
    if (p->y > p->setup.top + 0.01) p->y += points;
}

void np_pdf_skip(np_pdf *p, double points) { p->y += points; }

void np_pdf_page_break(np_pdf *p) {
    if (p->y > p->setup.top + 0.01) np_new_page(p);
}

void np_pdf_anchor(np_pdf *p, const char *dest) {
    char *name = np_attribute("name", dest);
    char *attributes = g_strdup_printf("%s x=%.2f y=%.2f", name, p->setup.left, p->y);
    cairo_tag_begin(p->cr, CAIRO_TAG_DEST, attributes);
    cairo_tag_end(p->cr, CAIRO_TAG_DEST);
    g_free(attributes);
    g_free(name);
    np_note_dest(p, dest);
}

void np_pdf_rule(np_pdf *p, double left, double right, uint32_t color, double thickness) {
    np_ensure(p, thickness + 12);
    double y = p->y + 6 + thickness / 2;
    cairo_save(p->cr);
    np_set_color(p->cr, color);
    cairo_set_line_width(p->cr, thickness);
    cairo_move_to(p->cr, p->setup.left + left, y);
    cairo_line_to(p->cr, p->setup.width - p->setup.right - right, y);
    cairo_stroke(p->cr);
    cairo_restore(p->cr);
    p->y += thickness + 12;
}

void np_pdf_tag_begin(np_pdf *p, const char *tag, const char *attributes) { cairo_tag_begin(p->cr, tag, attributes ? attributes : ""); }
void np_pdf_tag_end(np_pdf *p, const char *tag) {
    // The last page's footnotes are drawn inside the Document element, not after it (a second
    // root element: poppler's "K in StructTreeRoot has more than one children").
    if (strcmp(tag, "Document") == 0) np_draw_notes(p);
    cairo_tag_end(p->cr, tag);
}

/// A JPEG's size from its first start-of-frame marker; 0 when it has none.
static int np_jpeg_size(const unsigned char *b, size_t n, int *w, int *h) {
    if (n < 4 || b[0] != 0xFF || b[1] != 0xD8) return 0;
    size_t i = 2;
    while (i + 9 < n) {
        if (b[i] != 0xFF) return 0;
        unsigned m = b[i + 1];
        size_t len = ((size_t)b[i + 2] << 8) | b[i + 3];
        if (m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC) {
            *h = (b[i + 5] << 8) | b[i + 6];
            *w = (b[i + 7] << 8) | b[i + 8];
            return *w > 0 && *h > 0;
        }
        i += 2 + len;
    }
    return 0;
}

/// The image of a PNG file, or of a JPEG file (a blank surface of its size carrying the file as
/// its JPEG data, which the PDF embeds as it is); NULL when it is neither.
cairo_surface_t *np_load_image(const char *path) {
    cairo_surface_t *s = cairo_image_surface_create_from_png(path);
    if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS) return s;
    cairo_surface_destroy(s);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *data = NULL; size_t n = 0, cap = 0, got;
    unsigned char chunk[65536];
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (n + got > cap) { cap = (n + got) * 2; unsigned char *d = realloc(data, cap); if (!d) { free(data); fclose(f); return NULL; } data = d; }
        memcpy(data + n, chunk, got); n += got;
    }
    fclose(f);
    int w = 0, h = 0;
    if (!np_jpeg_size(data, n, &w, &h) || w > 30000 || h > 30000) { free(data); return NULL; }
    s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_surface_set_mime_data(s, CAIRO_MIME_TYPE_JPEG, data, n, free, data);
    return s;
}

int np_pdf_image_size(np_pdf *p, const char *path, double *width, double *height) {
    (void)p;
    cairo_surface_t *s = np_load_image(path);
    if (!s) return -1;
    *width = cairo_image_surface_get_width(s) * 0.75;
    *height = cairo_image_surface_get_height(s) * 0.75;
    cairo_surface_destroy(s);
    return 0;
}

int np_pdf_image(np_pdf *p, const char *path, double left, double max_width, double space_after) {
    cairo_surface_t *s = np_load_image(path);
    if (!s) return -1;
    double w = cairo_image_surface_get_width(s) * 0.75, h = cairo_image_surface_get_height(s) * 0.75;  // 96 dpi
    double page = np_bottom(p) - p->setup.top;
    double scale = 1;
    if (w * scale > max_width) scale = max_width / w;
    if (h * scale > page) scale = page / h;
    np_ensure(p, h * scale);
    cairo_save(p->cr);
    cairo_translate(p->cr, p->setup.left + left, p->y);
    cairo_scale(p->cr, scale * 0.75, scale * 0.75);
    cairo_set_source_surface(p->cr, s, 0, 0);
    cairo_paint(p->cr);
    cairo_restore(p->cr);
    cairo_surface_destroy(s);
    p->y += h * scale + space_after;
    return 0;
}

int np_pdf_finish(np_pdf *p, unsigned char **bytes, size_t *length) {
    np_draw_notes(p);
    np_footer(p);
    for (size_t i = 0; i < p->note_count; i++) g_object_unref(p->notes[i].layout);
    free(p->notes);
    if (p->dests) g_hash_table_destroy(p->dests);
    g_object_unref(p->context);
    cairo_destroy(p->cr);
    cairo_surface_finish(p->surface);
    cairo_status_t status = cairo_surface_status(p->surface);
    cairo_surface_destroy(p->surface);
    for (size_t i = 0; i < p->table.columns; i++) if (p->table.header[i]) g_object_unref(p->table.header[i]);
    free((void *)p->setup.header_family);
    free(p->header_text);
    int failed = status != CAIRO_STATUS_SUCCESS || p->out_of_memory;
    if (failed) {
        free(p->bytes);
        *bytes = (unsigned char *)strdup(p->out_of_memory ? "out of memory" : cairo_status_to_string(status));
        *length = strlen((char *)*bytes);
    } else {
        *bytes = p->bytes;
        *length = p->length;
    }
    free(p);
    return failed ? -1 : 0;
}

void np_pdf_free(void *p) { free(p); }

const char *np_pdf_library_version(void) {
    static char v[96];
    if (!v[0]) snprintf(v, sizeof v, "pango %s, cairo %s", pango_version_string(), cairo_version_string());
    return v;
}
