// Paragraphs and tables: attribute runs become a Pango attribute list, Pango lays the text out
// (HarfBuzz shapes, fribidi orders, fontconfig falls back per character), and the lines are
// placed down the pages with widow, orphan and keep-with-next control (include/notepress_pdf.h).
#include "pdf_internal.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <math.h>

static guint16 np_channel(uint32_t rgb, int shift) { return (guint16)(((rgb >> shift) & 0xFF) * 257); }

static void np_insert(PangoAttrList *list, PangoAttribute *a, const np_pdf_run *r) {
    a->start_index = r->start;
    a->end_index = r->end;
    pango_attr_list_insert(list, a);
}

/// The Pango attributes of a run.
static void np_run_attributes(PangoAttrList *list, const np_pdf_run *r) {
    PangoFontDescription *d = pango_font_description_new();
    pango_font_description_set_family(d, r->family ? r->family : "sans-serif");
    pango_font_description_set_size(d, (gint)(r->size * PANGO_SCALE));
    pango_font_description_set_weight(d, (PangoWeight)r->weight);
    pango_font_description_set_style(d, r->italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL);
    np_insert(list, pango_attr_font_desc_new(d), r);
    pango_font_description_free(d);
    np_insert(list, pango_attr_foreground_new(np_channel(r->color, 16), np_channel(r->color, 8), np_channel(r->color, 0)), r);
    if (r->has_background)
        np_insert(list, pango_attr_background_new(np_channel(r->background, 16), np_channel(r->background, 8),
                                                  np_channel(r->background, 0)), r);
    if (r->underline) np_insert(list, pango_attr_underline_new(PANGO_UNDERLINE_SINGLE), r);
    if (r->strike) np_insert(list, pango_attr_strikethrough_new(TRUE), r);
    if (r->rise != 0) np_insert(list, pango_attr_rise_new((int)(r->rise * PANGO_SCALE)), r);
    if (r->no_hyphens) np_insert(list, pango_attr_insert_hyphens_new(FALSE), r);
}

PangoLayout *np_layout(np_pdf *p, const char *text, size_t length, const np_pdf_run *runs, size_t count,
                       double width, int align) {
    PangoLayout *l = pango_layout_new(p->context);
    pango_layout_set_text(l, text, (int)length);
    PangoAttrList *list = pango_attr_list_new();
    for (size_t i = 0; i < count; i++) np_run_attributes(list, &runs[i]);
    pango_layout_set_attributes(l, list);
    pango_attr_list_unref(list);
    if (width > 0) pango_layout_set_width(l, (int)(width * PANGO_SCALE));
    // Between words; a word wider than the line (a long URL) is broken between characters rather
    // than run past the margin (PANGO_WRAP_WORD would leave it whole, clipped at the page edge).
    pango_layout_set_wrap(l, PANGO_WRAP_WORD_CHAR);
    pango_layout_set_alignment(l, align == 1 ? PANGO_ALIGN_CENTER : align == 2 ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT);
    pango_layout_set_justify(l, align == 3);
    return l;
}

double np_layout_height(PangoLayout *l) {
    PangoRectangle logical;
    pango_layout_get_extents(l, NULL, &logical);
    return logical.height / (double)PANGO_SCALE;
}

void np_draw_layout(np_pdf *p, PangoLayout *l, double x, double y) {
    cairo_move_to(p->cr, x, y);
    pango_cairo_show_layout(p->cr, l);
}

void np_pdf_measure(np_pdf *p, const char *text, size_t length, const np_pdf_run *runs, size_t count,
                    double *natural, double *least) {
    PangoLayout *l = np_layout(p, text, length, runs, count, -1, 0);
    PangoRectangle r;
    pango_layout_get_extents(l, NULL, &r);
    *natural = r.width / (double)PANGO_SCALE;
    pango_layout_set_wrap(l, PANGO_WRAP_WORD);              // the widest word, not the widest character
    pango_layout_set_width(l, 1);
    pango_layout_get_extents(l, NULL, &r);
    *least = r.width / (double)PANGO_SCALE;
    g_object_unref(l);
}

/// How many of lines[from…] to put on this page: as many as fit, but never the paragraph's first
/// line alone (orphan) nor all but its last (widow).
static int np_lines_here(const np_line *lines, int from, int count, double room) {
    int k = 0;
    double used = 0;
    while (from + k < count && used + lines[from + k].pitch + lines[from + k].notes <= room + 0.01) {
        used += lines[from + k].pitch + lines[from + k].notes;
        k++;
    }
    if (from + k >= count) return k;
    if (count - from - k == 1 && k >= 2) k -= 1;            // a widow: one more line goes over
    if (from == 0 && k == 1 && count > 1) k = 0;            // an orphan: the whole start goes over
    return k;
}

char *np_attribute(const char *name, const char *value) {
    GString *out = g_string_new(name);
    g_string_append(out, "='");
    for (const char *c = value; *c; c++) {
        if (*c == '\\' || *c == '\'') g_string_append_c(out, '\\');
        g_string_append_c(out, *c);
    }
    g_string_append_c(out, '\'');
    return g_string_free(out, FALSE);
}

/// Link annotations over the parts of a line that carry a run's link.
static void np_line_links(np_pdf *p, const np_line *n, const np_pdf_run *runs, size_t count, double x0, double top) {
    for (size_t r = 0; r < count; r++) {
        if (!runs[r].link) continue;
        int s = (int)runs[r].start > n->start ? (int)runs[r].start : n->start;
        int e = (int)runs[r].end < n->start + n->length ? (int)runs[r].end : n->start + n->length;
        if (s >= e) continue;
        int *ranges = NULL, nr = 0;
        pango_layout_line_get_x_ranges(n->line, s, e, &ranges, &nr);
        for (int i = 0; i < nr; i++) {
            double a = x0 + ranges[2 * i] / (double)PANGO_SCALE, b = x0 + ranges[2 * i + 1] / (double)PANGO_SCALE;
            // As long as the link is: a URL cut short leaves its quote open, and cairo refuses the document.
            char *attributes = g_strdup_printf("rect=[%.2f %.2f %.2f %.2f] %s", a, top, b - a, n->pitch, runs[r].link);
            cairo_tag_begin(p->cr, CAIRO_TAG_LINK, attributes);
            cairo_tag_end(p->cr, CAIRO_TAG_LINK);
            g_free(attributes);
        }
        g_free(ranges);
    }
}

/// The decorations of one line of a paragraph: its box and its rules.
static void np_line_decoration(np_pdf *p, const np_pdf_paragraph_style *s, double top, double height) {
    double left = p->setup.left + s->left, right = p->setup.width - p->setup.right - s->right;
    if (s->has_box) {
        np_set_color(p->cr, s->box);
        cairo_rectangle(p->cr, left - s->box_pad, top, right - left + 2 * s->box_pad, height);
        cairo_fill(p->cr);
    }
    for (size_t i = 0; i < s->bar_count; i++) {
        np_set_color(p->cr, s->bars[i].color);
        cairo_rectangle(p->cr, p->setup.left + s->bars[i].x, top, s->bars[i].width, height);
        cairo_fill(p->cr);
    }
}

/// The tail (a contents entry's page number) flush right at the right margin on the line at
/// `baseline`, after dot leaders from `from` (the line's end); a link over it with tail_link.
static void np_tail(np_pdf *p, const np_pdf_paragraph_style *s, double from, double baseline, double top, double height) {
    np_pdf_run run = *s->marker_run;
    run.start = 0; run.end = (uint32_t)strlen(s->tail); run.link = NULL;
    PangoLayout *l = np_layout(p, s->tail, run.end, &run, 1, -1, 0);
    PangoRectangle r;
    pango_layout_get_extents(l, NULL, &r);
    PangoLayoutIter *it = pango_layout_get_iter(l);
    double ascent = pango_layout_iter_get_baseline(it) / (double)PANGO_SCALE;
    pango_layout_iter_free(it);
    double right = p->setup.width - p->setup.right, x = right - r.width / (double)PANGO_SCALE;
    np_draw_layout(p, l, x, baseline - ascent);
    g_object_unref(l);
    // Leaders: dots on a grid of the page (so that they line up from entry to entry), drawn as
    // shapes, not text (text extraction keeps the title and the number only).
    double step = run.size * 0.5, radius = run.size * 0.06, gap = run.size * 0.4;
    np_set_color(p->cr, s->marker_run->color);
    for (double d = (floor((from + gap - p->setup.left) / step) + 1) * step + p->setup.left; d < x - gap; d += step) {
        cairo_new_sub_path(p->cr);
        cairo_arc(p->cr, d, baseline - radius, radius, 0, 2 * G_PI);
    }
    cairo_fill(p->cr);
    if (s->tail_link) {
        char *attributes = g_strdup_printf("rect=[%.2f %.2f %.2f %.2f] %s", x, top, right - x, height, s->tail_link);
        cairo_tag_begin(p->cr, CAIRO_TAG_LINK, attributes);
        cairo_tag_end(p->cr, CAIRO_TAG_LINK);
        g_free(attributes);
    }
}

void np_note_dest(np_pdf *p, const char *dest) {
    if (!p->dests) p->dests = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    if (!g_hash_table_contains(p->dests, dest)) g_hash_table_insert(p->dests, g_strdup(dest), GINT_TO_POINTER(p->page));
}

int np_pdf_dest_page(np_pdf *p, const char *dest) {
    return p->dests && dest ? GPOINTER_TO_INT(g_hash_table_lookup(p->dests, dest)) : 0;
}

/// The marker (list number, bullet) right-aligned in the hanging indent before the first line.
static void np_marker(np_pdf *p, const np_pdf_paragraph_style *s, double baseline) {
    np_pdf_run run = *s->marker_run;
    run.start = 0; run.end = (uint32_t)strlen(s->marker); run.link = NULL;
    PangoLayout *l = np_layout(p, s->marker, run.end, &run, 1, -1, 0);
    PangoRectangle r;
    pango_layout_get_extents(l, NULL, &r);
    PangoLayoutIter *it = pango_layout_get_iter(l);
    double ascent = pango_layout_iter_get_baseline(it) / (double)PANGO_SCALE;
    pango_layout_iter_free(it);
    double gap = s->marker_run->size * 0.4;
    np_draw_layout(p, l, p->setup.left + s->left - gap - r.width / (double)PANGO_SCALE, baseline - ascent);
    g_object_unref(l);
}

/// Whether a line ends inside a line of the text (a code line broken because it is too long).
static int np_wrapped(const char *text, size_t length, const np_line *n) {
    size_t end = (size_t)(n->start + n->length);
    return end < length && text[end] != '\n' && text[end] != '\r';
}

/// The mark of a broken code line (U+21A9, a leftwards arrow with hook) in the box's right
/// padding, sized to fit it, in the rule colour.
static void np_wrap_mark(np_pdf *p, const np_pdf_paragraph_style *s, double baseline) {
    static const char mark[] = "\xE2\x86\xA9";
    np_pdf_run run = *s->marker_run;
    run.start = 0; run.end = sizeof mark - 1; run.link = NULL; run.color = s->rule; run.size = s->box_pad * 1.1;
    PangoLayout *l = np_layout(p, mark, run.end, &run, 1, -1, 0);
    PangoRectangle r;
    pango_layout_get_extents(l, NULL, &r);
    PangoLayoutIter *it = pango_layout_get_iter(l);
    double ascent = pango_layout_iter_get_baseline(it) / (double)PANGO_SCALE;
    pango_layout_iter_free(it);
    double x = p->setup.width - p->setup.right - s->right + (s->box_pad - r.width / (double)PANGO_SCALE) / 2;
    np_draw_layout(p, l, x, baseline - ascent);
    g_object_unref(l);
}

/// The floated image at the paragraph's first line (a Figure), on the page where its lines
/// beside it and two more fit; the y of its foot.
static double np_float_image(np_pdf *p, const np_paragraph_lines *pl, double x0) {
    double need = 0;
    for (int i = 0; i < pl->count && i < pl->beside + 2; i++) need += pl->lines[i].pitch + pl->lines[i].notes;
    np_ensure(p, need > pl->image_height ? need : pl->image_height);
    cairo_tag_begin(p->cr, "Figure", "");
    cairo_save(p->cr);
    cairo_translate(p->cr, x0, p->y);
    cairo_scale(p->cr, pl->image_width / cairo_image_surface_get_width(pl->image),
                pl->image_height / cairo_image_surface_get_height(pl->image));
    cairo_set_source_surface(p->cr, pl->image, 0, 0);
    cairo_paint(p->cr);
    cairo_restore(p->cr);
    cairo_tag_end(p->cr, "Figure");
    return p->y + pl->image_height;
}

/// Draws line j of a paragraph at y with its decorations, destination, marker, marks and links.
static void np_draw_line(np_pdf *p, const np_pdf_paragraph_style *s, const np_paragraph_lines *pl, int j, double x0) {
    const np_line *line = &pl->lines[j];
    np_line_decoration(p, s, p->y, line->pitch);
    if (j == 0 && s->dest) {
        np_note_dest(p, s->dest);
        char *attributes = np_attribute("name", s->dest);
        cairo_tag_begin(p->cr, CAIRO_TAG_DEST, attributes);
        g_free(attributes);
    }
    double x = x0 + line->dx, baseline = p->y + line->ascent;
    cairo_move_to(p->cr, x + line->x, baseline);
    pango_cairo_show_layout_line(p->cr, line->line);
    if (j == 0 && s->dest) cairo_tag_end(p->cr, CAIRO_TAG_DEST);
    if (j == 0 && s->marker) np_marker(p, s, baseline);
    if (s->wrap_anywhere && s->marker_run && np_wrapped(line->text, line->text_length, line)) np_wrap_mark(p, s, baseline);
    if (j == pl->count - 1 && s->tail && s->marker_run) {
        PangoRectangle logical;
        pango_layout_line_get_extents(line->line, NULL, &logical);
        np_tail(p, s, x + line->x + logical.width / (double)PANGO_SCALE, baseline, p->y, line->pitch);
    }
    np_line_links(p, line, line->runs, line->run_count, x, p->y);
}

/// The paragraph's outline entry (its text) to its destination, under the last entry of a
/// higher level.
static void np_outline(np_pdf *p, const char *text, size_t length, const np_pdf_paragraph_style *s) {
    char *attributes = np_attribute("dest", s->dest);
    int parent = 0;
    for (int lv = s->outline_level - 1; lv >= 1; lv--) if (p->outline[lv]) { parent = p->outline[lv]; break; }
    char *name = g_strndup(text, (gsize)length);
    p->outline[s->outline_level] = cairo_pdf_surface_add_outline(p->surface, parent, name, attributes, CAIRO_PDF_OUTLINE_FLAG_OPEN);
    for (int lv = s->outline_level + 1; lv <= 6; lv++) p->outline[lv] = 0;
    g_free(name);
    g_free(attributes);
}

int np_pdf_paragraph(np_pdf *p, const char *text, size_t length, const np_pdf_run *runs, size_t count,
                     const np_pdf_paragraph_style *s) {
    np_paragraph_lines pl;
    np_lay_out_paragraph(p, &pl, text, length, runs, count, s);
    np_line *lines = pl.lines;
    int n = pl.count;
    if (s->has_box && n > 0) { lines[0].pitch += s->box_pad; lines[0].ascent += s->box_pad; lines[n - 1].pitch += s->box_pad; }
    // Only a paragraph that refers to a footnote looks for them line by line (linear otherwise).
    int notes = 0;
    for (size_t r = 0; r < count && p->note_count > 0 && !notes; r++) notes = runs[r].footnote > 0;
    for (int i = 0; i < n && notes; i++)
        lines[i].notes = np_notes_between(p, lines[i].runs, lines[i].run_count, lines[i].start, lines[i].start + lines[i].length, 0);
    np_pdf_space(p, s->space_before);
    if (s->keep_with_next) {
        double total = s->keep_extra;
        for (int i = 0; i < n; i++) total += lines[i].pitch;
        np_ensure(p, total);
    }
    double x0 = p->setup.left + s->left;
    double image_foot = pl.image ? np_float_image(p, &pl, x0) : 0;
    int image_page = p->page;
    if (s->tag) cairo_tag_begin(p->cr, s->tag, "");
    for (int i = 0; i < n;) {
        int k = np_lines_here(lines, i, n, np_bottom(p) - p->y);
        if (k == 0 && p->y > p->setup.top + 0.01) { np_new_page(p); continue; }
        if (k == 0) k = 1;                                  // taller than a page: it goes anyway
        for (int j = i; j < i + k; j++) {
            if (notes) np_notes_between(p, lines[j].runs, lines[j].run_count, lines[j].start, lines[j].start + lines[j].length, 1);
            np_draw_line(p, s, &pl, j, x0);
            p->y += lines[j].pitch;
        }
        i += k;
        if (i < n) np_new_page(p);
    }
    if (s->tag) cairo_tag_end(p->cr, s->tag);
    np_pdf_paragraph_style rules = *s;
    rules.has_box = 0;
    // A paragraph shorter than its floated image ends below the image (its rules beside it).
    if (pl.image && p->page == image_page && p->y < image_foot + s->float_gap) {
        np_line_decoration(p, &rules, p->y, image_foot + s->float_gap - p->y);
        p->y = image_foot + s->float_gap;
    }
    if (s->outline_level >= 1 && s->outline_level <= 6 && s->dest) np_outline(p, text, length, s);
    // A rule runs on through the space after, to the next paragraph of the same quote.
    if (s->bar_count > 0 && p->y + s->space_after <= np_bottom(p)) np_line_decoration(p, &rules, p->y, s->space_after);
    p->y += s->space_after;
    np_free_paragraph_lines(&pl);
    return cairo_status(p->cr) == CAIRO_STATUS_SUCCESS ? 0 : -1;
}
