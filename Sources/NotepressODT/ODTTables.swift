import NotepressAST
import NotepressThemes

/// Tables and the table of contents (see ``ODTEmitter``).
extension ODTBuilder {
    /// A table: `table:table` with one column per alignment (relative widths from the longest
    /// cell text of each column, between 4 and 40 characters), the header row in
    /// `table:table-header-rows` (repeated on every page) in the Table Heading style, the body
    /// rows in Table Contents, each cell's paragraph aligned as its column. Inside a list item,
    /// where ODF allows no table, each row is a paragraph of its cells separated by ` | `.
    mutating func writeTable(_ table: Table, _ ctx: ODTContext) {
        let columns = max(table.alignments.count, 1)
        if ctx.listDepth > 0 {
            flushPending(ctx)
            for (r, row) in ([table.header] + table.rows).enumerated() {
                var key = bodyKey(ctx, nil)
                key.bold = r == 0
                beginParagraph(paragraphStyle(key))
                for (c, cell) in row.prefix(columns).enumerated() {
                    if c > 0 { writeText(" | ") }
                    writeInlines(cell, ctx)
                }
                x.end()
            }
            return
        }
        var widths = [Int](repeating: 4, count: columns)
        for row in [table.header] + table.rows {
            for (c, cell) in row.enumerated() where c < columns {
                widths[c] = min(max(widths[c], cell.plainText.count), 40)
            }
        }
        tables.append(widths.map { $0 * 100 })
        let name = "Table\(tables.count)"
        flushPending(ctx)
        x.start("table:table", ["table:name": name, "table:style-name": name])
        for c in 0..<columns {
            x.start("table:table-column", ["table:style-name": "\(name).\(Self.columnName(c))"])
            x.end()
        }
        x.start("table:table-header-rows")
        writeRow(table.header, table, header: true, ctx)
        x.end()
        for row in table.rows { writeRow(row, table, header: false, ctx) }
        x.end()
    }

    /// One `table:table-row`: a cell per column (missing cells empty, extra cells left out as
    /// GFM does).
    mutating func writeRow(_ cells: [Inlines], _ table: Table, header: Bool, _ ctx: ODTContext) {
        let columns = max(table.alignments.count, 1)
        x.start("table:table-row")
        for c in 0..<columns {
            x.start("table:table-cell", ["table:style-name": "TableCell", "office:value-type": "string"])
            let cell = c < cells.count ? cells[c] : Inlines()
            var key = ParagraphKey(parent: header ? "Table_20_Heading" : "Table_20_Contents")
            key.rightToLeft = Self.direction(cell) == .rightToLeft
            switch c < table.alignments.count ? table.alignments[c] : .none {
            case .center: key.align = "center"
            case .right: key.align = "end"
            case .left: key.align = "start"
            case .none: break
            }
            var inner = ctx
            inner.tight = false
            beginParagraph(paragraphStyle(key))
            writeInlines(cell, inner)
            x.end()
            x.end()
        }
        x.end()
    }

    /// `--toc`: a `text:table-of-content` (LibreOffice's index: Tools ▸ Update refreshes it, with
    /// page numbers) whose source lists the outline levels down to the deepest entry's, and whose
    /// body is already filled in: a `Contents` heading, then one paragraph per entry in the
    /// Contents 1–6 style of its depth, linked to its heading's bookmark.
    ///
    /// `index` off (a `[TOC]` marker in a list item or a footnote, where ODF allows no index):
    /// only the heading and entry paragraphs. Each index is named `Table of ContentsN`, N = 1,
    /// 2, … (section names are unique in a document).
    mutating func writeTableOfContents(_ toc: TableOfContents, index: Bool = true) {
        guard index else {
            beginParagraph("Contents_20_Heading")
            writeText("Contents")
            x.end()
            writeContentsEntries(toc)
            return
        }
        contentsIndexes += 1
        let name = "Table of Contents\(contentsIndexes)"
        let deepest = min(max(toc.entries.map(\.level).max() ?? 1, 1), 10)
        x.start("text:table-of-content", ["text:style-name": "Sect1", "text:protected": "true", "text:name": name])
        x.start("text:table-of-content-source", ["text:outline-level": String(deepest)])
        x.element("text:index-title-template", ["text:style-name": "Contents_20_Heading"], text: "Contents")
        for level in 1...deepest {
            x.start("text:table-of-content-entry-template",
                    ["text:outline-level": String(level), "text:style-name": "Contents_20_\(min(level, 6))"])
            x.start("text:index-entry-link-start", ["text:style-name": "Index_20_Link"]); x.end()
            x.start("text:index-entry-text"); x.end()
            x.start("text:index-entry-tab-stop", ["style:type": "right", "style:leader-char": "."]); x.end()
            x.start("text:index-entry-page-number"); x.end()
            x.start("text:index-entry-link-end"); x.end()
            x.end()
        }
        x.end()
        x.start("text:index-body")
        x.start("text:index-title", ["text:style-name": "Sect1", "text:name": name + "_Head"])
        beginParagraph("Contents_20_Heading")
        writeText("Contents")
        x.end()
        x.end()
        writeContentsEntries(toc)
        x.end()
        x.end()
    }

    /// One paragraph per entry in the Contents 1–6 style of its depth, linked to its heading.
    mutating func writeContentsEntries(_ toc: TableOfContents) {
        for e in toc.entries {
            beginParagraph("Contents_20_\(min(e.depth + 1, 6))")
            x.start("text:a", attributeList: [("xlink:type", "simple"), ("xlink:href", "#" + e.id),
                                              ("text:style-name", "Index_20_Link"), ("text:visited-style-name", "Index_20_Link")])
            writeText(e.text)
            x.end()
            x.end()
        }
    }
}
