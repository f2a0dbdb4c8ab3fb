// The shim's state, shared by its files (not part of the interface: include/notepress_pdf.h).
#ifndef NOTEPRESS_PDF_INTERNAL_H
#define NOTEPRESS_PDF_INTERNAL_H
#include "notepress_pdf.h"
#include <cairo.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>

#define NP_MAX_COLUMNS 64

/// The table being drawn: its columns and the header row, kept to draw again on a new page.
typedef struct {
    int active;
    size_t columns;
    double widths[NP_MAX_COLUMNS];
    double left, padding;
    uint32_t border, header_background;
    PangoLayout *header[NP_MAX_COLUMNS];
    int header_align[NP_MAX_COLUMNS];
    int has_header;
} np_table;

/// A footnote: its laid-out text, and the page it is drawn at the foot of (0: none yet).
typedef struct { int number; PangoLayout *layout; double height; int page; } np_note;

struct np_pdf {
    np_pdf_setup setup;
    char *header_text;
    cairo_surface_t *surface;
    cairo_t *cr;
    PangoContext *context;
    unsigned char *bytes; size_t length, capacity; int out_of_memory;
    double y;               ///< the top of the next line, from the page's top
    int page;               ///< 1-based
    int outline[7];         ///< the last outline entry of each level (0: the root)
    np_table table;
    np_note *notes; size_t note_count;
    double notes_height;    ///< the footnote area of this page (its separator included), 0 without notes
    GHashTable *dests;      ///< the page of each paragraph destination drawn (name → page), or NULL
};

/// The text area's bottom (from the page's top).
static inline double np_bottom(const np_pdf *p) { return p->setup.height - p->setup.bottom - p->notes_height; }
/// The footnote `number`, or NULL.
np_note *np_find_note(np_pdf *p, int number);
/// Draws the footnotes of this page above the bottom margin.
void np_draw_notes(np_pdf *p);
/// The height the footnotes first referred to by runs in bytes [start, end) add to this page;
/// with `place`, they are put on this page.
double np_notes_between(np_pdf *p, const np_pdf_run *runs, size_t count, int start, int end, int place);
/// Sets the source colour of 0xRRGGBB.
void np_set_color(cairo_t *cr, uint32_t rgb);
/// `NAME='VALUE'` as cairo's tag attributes take it (`\\` and `'` escaped), any length; g_free it.
char *np_attribute(const char *name, const char *value);
/// Ends the page (its number) and starts the next (its running header).
void np_new_page(np_pdf *p);
/// Starts a new page unless `height` fits below y (or y is at the top already).
void np_ensure(np_pdf *p, double height);
/// A layout of the text and runs, `width` points wide (<= 0: no wrapping), its lines broken
/// between words, and inside a word too wide for a line of its own.
PangoLayout *np_layout(np_pdf *p, const char *text, size_t length, const np_pdf_run *runs, size_t count,
                       double width, int align);
/// Draws a layout's lines with their tops from y (no page breaks), at x.
void np_draw_layout(np_pdf *p, PangoLayout *layout, double x, double y);
/// One laid-out line: its layout line, x offset (dx more beside a floated image) and ascent, the
/// height it takes (pitch) and the footnotes it brings to the page (notes), its bytes in the
/// text of its layout (text, text_length) and that text's runs.
typedef struct {
    PangoLayoutLine *line;
    double x, dx, ascent, pitch, notes;
    int start, length;
    const char *text; size_t text_length;
    const np_pdf_run *runs; size_t run_count;
} np_line;

/// A paragraph laid out: its lines (the first `beside` of them narrower, beside a floated
/// image), the layouts and runs they point into, the image and its size in points.
typedef struct {
    np_line *lines; int count, beside;
    PangoLayout *layouts[2];
    np_pdf_run *shifted;            ///< the runs of the text below the image, from its first byte
    cairo_surface_t *image; double image_width, image_height;
} np_paragraph_lines;

/// Lays a paragraph out at its width, or with style->float_image its first lines narrower
/// beside the image (np_paragraph_lines); lines at least style->line_height high.
void np_lay_out_paragraph(np_pdf *p, np_paragraph_lines *out, const char *text, size_t length, const np_pdf_run *runs,
                          size_t count, const np_pdf_paragraph_style *style);
void np_free_paragraph_lines(np_paragraph_lines *lines);
/// A PNG file's image, or a JPEG file's (its data embedded as it is); NULL when it is neither.
cairo_surface_t *np_load_image(const char *path);
/// Remembers the page a destination is drawn on (np_pdf_dest_page); the first place counts.
void np_note_dest(np_pdf *p, const char *dest);
/// The layout's height in points.
double np_layout_height(PangoLayout *layout);
#endif
