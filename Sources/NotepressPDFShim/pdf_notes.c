// Footnotes at the foot of the page that refers to them (include/notepress_pdf.h): the page's text
// area ends above its notes, under a short rule.
#include "pdf_internal.h"
#include <stdlib.h>
#include <stdio.h>

/// The space between the text and the notes (the rule sits in it) and between two notes.
static const double np_note_gap = 10, np_note_space = 3;

np_note *np_find_note(np_pdf *p, int number) {
    for (size_t i = 0; i < p->note_count; i++) if (p->notes[i].number == number) return &p->notes[i];
    return NULL;
}

void np_pdf_footnote(np_pdf *p, int number, const char *text, size_t length, const np_pdf_run *runs, size_t count) {
    if (np_find_note(p, number)) return;
    np_note *n = realloc(p->notes, (p->note_count + 1) * sizeof *n);
    if (!n) return;
    p->notes = n;
    double width = p->setup.width - p->setup.left - p->setup.right;
    PangoLayout *l = np_layout(p, text, length, runs, count, width, 0);
    p->notes[p->note_count++] = (np_note){ number, l, np_layout_height(l) + np_note_space, 0 };
}

int np_pdf_footnote_placed(np_pdf *p, int number) {
    np_note *n = np_find_note(p, number);
    return n && n->page > 0;
}

void np_draw_notes(np_pdf *p) {
    if (p->notes_height <= 0) return;
    double y = p->setup.height - p->setup.bottom - p->notes_height;
    cairo_save(p->cr);
    np_set_color(p->cr, p->setup.header_color);
    cairo_set_line_width(p->cr, 0.5);
    cairo_move_to(p->cr, p->setup.left, y + np_note_gap / 2);
    cairo_line_to(p->cr, p->setup.left + (p->setup.width - p->setup.left - p->setup.right) / 3, y + np_note_gap / 2);
    cairo_stroke(p->cr);
    cairo_restore(p->cr);
    y += np_note_gap;
    cairo_tag_begin(p->cr, "Note", "");
    for (size_t i = 0; i < p->note_count; i++) {
        np_note *n = &p->notes[i];
        if (n->page != p->page) continue;
        char attributes[64];
        snprintf(attributes, sizeof attributes, "name='fn-%d'", n->number);
        cairo_tag_begin(p->cr, CAIRO_TAG_DEST, attributes);
        np_draw_layout(p, n->layout, p->setup.left, y);
        cairo_tag_end(p->cr, CAIRO_TAG_DEST);
        y += n->height;
    }
    cairo_tag_end(p->cr, "Note");
    p->notes_height = 0;
}

/// The height the notes first referred to in bytes [start, end) add to this page (their gap too).
double np_notes_between(np_pdf *p, const np_pdf_run *runs, size_t count, int start, int end, int place) {
    double h = 0;
    for (size_t r = 0; r < count; r++) {
        if (runs[r].footnote <= 0 || (int)runs[r].start >= end || (int)runs[r].end <= start) continue;
        np_note *n = np_find_note(p, runs[r].footnote);
        if (!n || n->page) continue;
        double add = n->height + (p->notes_height == 0 && h == 0 ? np_note_gap : 0);
        h += add;
        if (place) { n->page = p->page; p->notes_height += add; }
    }
    return h;
}
