// A plain C interface to Pango (HarfBuzz shaping, bidi, line breaking, fontconfig) and Cairo's
// PDF surface, for Notepress's PDF output (issue 49).
//
// Built as a shared library of its own (the `NotepressPDFShim` dynamic library product:
// libNotepressPDFShim.so beside the `notepress` binary) that NotepressPDF loads with dlopen(3) the
// first time a document is written as PDF, so a run without PDF output never maps Pango or Cairo.
// This header is the target CNotepressPDF (types only, no code): NotepressPDF imports it for the
// structs and looks the functions up by name (dlsym) with the signatures below.
//
// Units are PDF points (1/72 inch); text is UTF-8 and run offsets are UTF-8 byte offsets of the
// paragraph's text. Colours are 0xRRGGBB. The shim places lines on pages itself: a paragraph's
// lines go down the page, a page ends when the next line does not fit, with no single first
// (orphan) or last (widow) line of a paragraph alone on a page, and a paragraph marked
// keep-with-next (a heading) starting a page when it and the lines after it do not fit. Lines
// break between words, and inside a word only when it does not fit a line on its own (a long URL).
#ifndef NOTEPRESS_PDF_H
#define NOTEPRESS_PDF_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/// The page and the document's metadata. Strings may be NULL.
typedef struct {
    double width, height;                       ///< the page, in points (A4: 595.28 × 841.89)
    double top, bottom, left, right;            ///< margins
    const char *title, *author, *subject, *keywords;
    const char *date;                           ///< creation and modification date, "YYYY-MM-DDThh:mm:ss" (UTC) or NULL
    const char *header_family;                  ///< font of the running header and page numbers
    double header_size;
    uint32_t header_color;
} np_pdf_setup;

/// A run of a paragraph's text with one set of attributes: bytes [start, end).
typedef struct {
    uint32_t start, end;
    const char *family;                         ///< a Pango family list ("Helvetica,Arial,sans-serif")
    double size;                                ///< points
    int weight;                                 ///< 100…900 (CSS)
    int italic;
    int no_hyphens;                             ///< a word broken between characters shows no hyphen (URLs, code)
    uint32_t color;
    uint32_t background; int has_background;
    int underline, strike;
    double rise;                                ///< points, up
    const char *link;                           ///< cairo link attributes ("uri='…'" or "dest='…'"), or NULL
    int footnote;                               ///< the number of a footnote (np_pdf_footnote) this run refers to, or 0
} np_pdf_run;

/// A vertical rule beside a paragraph's lines: `x` points from the left margin, `width` wide.
typedef struct { double x, width; uint32_t color; } np_pdf_bar;

/// How a paragraph is set. Indents are from the left and right margins.
typedef struct {
    double left, right;
    double space_before, space_after;
    double line_height;                         ///< the least distance between baselines' lines (a line is never shorter than its glyphs)
    int align;                                  ///< 0 start (right in a right-to-left paragraph), 1 centre, 2 end, 3 justify
    int wrap_anywhere;                          ///< code: a text line broken in two gets a mark (U+21A9) in the box's right padding
    int has_box; uint32_t box; double box_pad;  ///< a background box from left - box_pad to the right indent + box_pad
    uint32_t rule;                              ///< the colour of a wrapped code line's mark (wrap_anywhere)
    const np_pdf_bar *bars; size_t bar_count;   ///< vertical rules beside every line (block quotes, outermost first)
    const char *marker;                         ///< drawn before the first line in the hanging indent (list numbers), or NULL
    const np_pdf_run *marker_run;               ///< the marker's font and colour (offsets ignored)
    int keep_with_next; double keep_extra;      ///< start a new page unless the paragraph and keep_extra points fit
    const char *tag;                            ///< structure tag of the paragraph ("P", "H1", "Code"), or NULL
    const char *dest;                           ///< a link destination at the paragraph's first line, or NULL
    int outline_level;                          ///< 1…6: an outline (bookmark) entry of the paragraph's text to dest
    const char *tail;                           ///< drawn flush right on the last line, in the right indent, after dot
                                                ///< leaders (a contents entry's page number), in marker_run's font, or NULL
    const char *tail_link;                      ///< cairo link attributes of the tail, or NULL
    const char *float_image;                    ///< a PNG or JPEG file drawn at the left indent beside the first lines,
                                                ///< which flow around it (narrower), the rest below it; NULL: none
    double float_width, float_height;           ///< its size (float_height 0: from the file's aspect ratio)
    double float_gap;                           ///< between it and the text beside it, and below it
} np_pdf_paragraph_style;

/// One table cell.
typedef struct {
    const char *text; size_t length;
    const np_pdf_run *runs; size_t run_count;
    int align;                                  ///< 0 left, 1 centre, 2 right
} np_pdf_cell;

typedef struct np_pdf np_pdf;

/// A new document writing to memory; NULL on failure.
np_pdf *np_pdf_open(const np_pdf_setup *setup);
/// Lays out and draws a paragraph. Returns 0, or -1 when cairo is in an error state.
int np_pdf_paragraph(np_pdf *pdf, const char *text, size_t length, const np_pdf_run *runs, size_t run_count,
                     const np_pdf_paragraph_style *style);
/// The width of the text on one line (natural) and of its widest unbreakable piece (least), in points.
void np_pdf_measure(np_pdf *pdf, const char *text, size_t length, const np_pdf_run *runs, size_t run_count,
                    double *natural, double *least);
/// Vertical space (dropped at the top of a page).
void np_pdf_space(np_pdf *pdf, double points);
/// Vertical space, also at the top of a page (a title page's).
void np_pdf_skip(np_pdf *pdf, double points);
/// Ends the page unless nothing has been drawn below its top margin yet (a chapter, a title page).
void np_pdf_page_break(np_pdf *pdf);
/// A link destination `dest` here, at the left margin (a chapter's start).
void np_pdf_anchor(np_pdf *pdf, const char *dest);
/// The page (1-based) a paragraph's `dest` was drawn on, or 0 when none was.
int np_pdf_dest_page(np_pdf *pdf, const char *dest);
/// A horizontal rule across the text width between the indents.
void np_pdf_rule(np_pdf *pdf, double left, double right, uint32_t color, double thickness);
/// Opens and closes a structure element (cairo's tag names: "Document", "L", "LI", "Table", …).
void np_pdf_tag_begin(np_pdf *pdf, const char *tag, const char *attributes);
void np_pdf_tag_end(np_pdf *pdf, const char *tag);
/// A PNG or JPEG file's size in points (96 pixels an inch). Returns 0, or -1 when it cannot be read.
int np_pdf_image_size(np_pdf *pdf, const char *path, double *width, double *height);
/// Draws a PNG or JPEG file scaled to at most max_width points (and the page), from left.
/// Returns 0, or -1 when the file cannot be read as PNG or JPEG.
int np_pdf_image(np_pdf *pdf, const char *path, double left, double max_width, double space_after);
/// A table: columns of the given widths (points, cell padding included) from `left`; the first
/// row given with header = 1 is drawn again at the top of each page the table continues on.
void np_pdf_table_begin(np_pdf *pdf, size_t columns, const double *widths, double left, double padding,
                        uint32_t border, uint32_t header_background);
void np_pdf_table_row(np_pdf *pdf, const np_pdf_cell *cells, int header);
void np_pdf_table_end(np_pdf *pdf, double space_after);
/// Registers footnote `number`'s text (a link destination `fn-NUMBER`): it is drawn at the foot of
/// the page of the first line that refers to it (a run's `footnote`), that page's text area ending
/// above it.
void np_pdf_footnote(np_pdf *pdf, int number, const char *text, size_t length, const np_pdf_run *runs, size_t run_count);
/// Whether footnote `number` was drawn at the foot of a page (else the caller writes it as an endnote).
int np_pdf_footnote_placed(np_pdf *pdf, int number);
/// Ends the document: *bytes (malloc'ed, the caller frees with np_pdf_free) and *length.
/// Returns 0, or -1 with a message in *bytes (also to free) when cairo failed.
int np_pdf_finish(np_pdf *pdf, unsigned char **bytes, size_t *length);
void np_pdf_free(void *p);
/// "pango 1.50.12, cairo 1.16.0": a static string.
const char *np_pdf_library_version(void);

#ifdef __cplusplus
}
#endif
#endif
