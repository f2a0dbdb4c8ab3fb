// Tables: each row's cells laid out in their columns, a row never split, the header row drawn
// again at the top of each page the table continues on (include/notepress_pdf.h).
#include "pdf_internal.h"
#include <string.h>

void np_pdf_table_begin(np_pdf *p, size_t columns, const double *widths, double left, double padding,
                        uint32_t border, uint32_t header_background) {
    np_table *t = &p->table;
    for (size_t i = 0; i < t->columns; i++) if (t->header[i]) g_object_unref(t->header[i]);
    memset(t, 0, sizeof *t);
    t->active = 1;
    t->columns = columns > NP_MAX_COLUMNS ? NP_MAX_COLUMNS : columns;
    for (size_t i = 0; i < t->columns; i++) t->widths[i] = widths[i];
    t->left = left; t->padding = padding; t->border = border; t->header_background = header_background;
    cairo_tag_begin(p->cr, "Table", "");
}

/// The height of a row of laid-out cells.
static double np_row_height(const np_table *t, PangoLayout **cells) {
    double h = 0;
    for (size_t i = 0; i < t->columns; i++) {
        double c = cells[i] ? np_layout_height(cells[i]) : 0;
        if (c > h) h = c;
    }
    return h + 2 * t->padding;
}

/// Draws a row of laid-out cells at y with its borders.
static void np_draw_row(np_pdf *p, PangoLayout **cells, int header) {
    np_table *t = &p->table;
    double h = np_row_height(t, cells), x = p->setup.left + t->left;
    cairo_tag_begin(p->cr, "TR", "");
    for (size_t i = 0; i < t->columns; i++) {
        if (header) {
            np_set_color(p->cr, t->header_background);
            cairo_rectangle(p->cr, x, p->y, t->widths[i], h);
            cairo_fill(p->cr);
        }
        cairo_tag_begin(p->cr, header ? "TH" : "TD", "");
        if (cells[i]) np_draw_layout(p, cells[i], x + t->padding, p->y + t->padding);
        cairo_tag_end(p->cr, header ? "TH" : "TD");
        np_set_color(p->cr, t->border);
        cairo_set_line_width(p->cr, 0.5);
        cairo_rectangle(p->cr, x, p->y, t->widths[i], h);
        cairo_stroke(p->cr);
        x += t->widths[i];
    }
    cairo_tag_end(p->cr, "TR");
    p->y += h;
}

void np_pdf_table_row(np_pdf *p, const np_pdf_cell *cells, int header) {
    np_table *t = &p->table;
    PangoLayout *row[NP_MAX_COLUMNS] = { 0 };
    for (size_t i = 0; i < t->columns; i++) {
        double w = t->widths[i] - 2 * t->padding;
        row[i] = np_layout(p, cells[i].text, cells[i].length, cells[i].runs, cells[i].run_count, w > 1 ? w : 1,
                           cells[i].align);
    }
    double h = np_row_height(t, row);
    if (p->y > p->setup.top + 0.01 && p->y + h > np_bottom(p)) {
        np_new_page(p);
        if (t->has_header && !header) np_draw_row(p, t->header, 1);
    }
    np_draw_row(p, row, header);
    for (size_t i = 0; i < t->columns; i++) {
        if (header && !t->has_header) t->header[i] = row[i];
        else g_object_unref(row[i]);
    }
    if (header) t->has_header = 1;
}

void np_pdf_table_end(np_pdf *p, double space_after) {
    cairo_tag_end(p->cr, "Table");
    p->table.active = 0;
    p->y += space_after;
}
