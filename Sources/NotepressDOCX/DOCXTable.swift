import NotepressAST
import NotepressThemes

/// Tables and the table of contents (see ``DOCXEmitter``).
extension DOCXBuilder {
    /// A table in the Table Grid style: the header row repeated on every page (`w:tblHeader`),
    /// each cell aligned as its column (`w:jc`), columns sized by their longest cell within the
    /// width left by the indent. Past 63 columns (Word's limit), the cells join the last column
    /// with a warning.
    func writeTable(_ table: Table, _ position: SourcePosition?, _ ctx: DOCXContext) {
        flushPending(ctx)
        var columns = max(table.alignments.count, 1)
        if columns > DOCXEmitter.maxColumns {
            warn("a table of \(columns) columns: Word shows at most \(DOCXEmitter.maxColumns), so the cells past the "
                 + "\(DOCXEmitter.maxColumns - 1)th share the last column", at: position)
            columns = DOCXEmitter.maxColumns
        }
        let indent = min(ctx.indent, DOCXEmitter.maxIndent)
        let widths = Self.columnWidths(table, columns: columns, available: DOCXEmitter.textWidth - indent)
        x.start("w:tbl")
        x.start("w:tblPr")
        x.element("w:tblStyle", ["w:val": "TableGrid"])
        x.element("w:tblW", ["w:w": String(widths.reduce(0, +)), "w:type": "dxa"])
        if indent > 0 { x.element("w:tblInd", ["w:w": String(indent), "w:type": "dxa"]) }
        x.element("w:tblLook", ["w:val": "04A0", "w:firstRow": "1", "w:lastRow": "0", "w:firstColumn": "0",
                                "w:lastColumn": "0", "w:noHBand": "0", "w:noVBand": "1"])
        x.end()
        x.start("w:tblGrid")
        for w in widths { x.element("w:gridCol", ["w:w": String(w)]) }
        x.end()
        var cellContext = DOCXContext()
        cellContext.inFootnote = ctx.inFootnote
        cellContext.spaceAfter = 0
        for r in -1 ..< table.rows.count {
            let header = r < 0
            let cells = header ? table.header : table.rows[r]
            x.start("w:tr")
            if header { x.start("w:trPr"); x.element("w:tblHeader"); x.end() }
            for col in 0..<columns {
                x.start("w:tc")
                x.start("w:tcPr"); x.element("w:tcW", ["w:w": String(widths[col]), "w:type": "dxa"]); x.end()
                let cell = col < cells.count ? cells[col] : Inlines()
                var p = DOCXParagraph(style: header ? "TableHeading" : "TableContents")
                p.rightToLeft = Self.direction(cell, 0..<cell.runs.count) == .rightToLeft
                switch col < table.alignments.count ? table.alignments[col] : .none {
                case .center: p.alignment = "center"
                case .right: p.alignment = "right"
                case .left: p.alignment = "left"
                case .none: break
                }
                beginParagraph(p, cellContext)
                writeInlines(cell, cellContext)
                if col == columns - 1, cells.count > columns {
                    for extra in cells[columns...] {
                        run(" | ", DOCXRun())
                        writeInlines(extra, cellContext)
                    }
                }
                endParagraph()
                x.end()
            }
            x.end()
        }
        x.end()
    }

    /// Column widths in twips: each column's share of `available` in proportion to its longest
    /// cell (counted in characters, at least 3 and at most 40), so that short columns stay narrow.
    static func columnWidths(_ table: Table, columns: Int, available: Int) -> [Int] {
        var longest = [Int](repeating: 3, count: columns)
        for row in [table.header] + table.rows {
            for (col, cell) in row.prefix(columns).enumerated() {
                longest[col] = max(longest[col], min(cell.plainText.count, 40))
            }
        }
        let total = longest.reduce(0, +)
        return longest.map { max(available * $0 / total, 1) }
    }

    /// The bookmark a heading listed by the table of contents starts with (Word's own naming
    /// for table-of-contents targets, as RTF).
    static func tocBookmark(_ index: Int) -> String { "_Toc\(index + 1)" }

    /// `--toc`: a `Contents` caption in the TOC Heading style, then a TOC field (`TOC \o "1-N"
    /// \h \z \u`: Word's own, which it updates with page numbers) whose result is already the
    /// list, one `toc N` paragraph per entry linked to its heading's bookmark, so that the table
    /// shows before any update and in readers that do not update fields.
    func writeTableOfContents(_ toc: TableOfContents) {
        guard !toc.isEmpty else { return }
        beginParagraph(DOCXParagraph(style: "TOCHeading"), DOCXContext())
        run("Contents", DOCXRun())
        endParagraph()
        let deepest = toc.entries.map(\.level).max() ?? 3
        for (i, e) in toc.entries.enumerated() {
            var p = DOCXParagraph(style: "TOC\(min(e.depth + 1, 6))")
            p.spaceAfter = 60
            beginParagraph(p, DOCXContext())
            if i == 0 {
                fieldCharacter("begin")
                x.start("w:r")
                x.element("w:instrText", ["xml:space": "preserve"], text: " TOC \\o \"1-\(deepest)\" \\h \\z \\u ")
                x.end()
                fieldCharacter("separate")
            }
            x.start("w:hyperlink", ["w:anchor": Self.tocBookmark(i), "w:history": "1"])
            run(e.text, DOCXRun(style: "Hyperlink"))
            x.end()
            if i == toc.entries.count - 1 { fieldCharacter("end") }
            endParagraph()
        }
    }

    /// A run holding a complex field's `w:fldChar` of `type` (`begin`, `separate`, `end`).
    func fieldCharacter(_ type: String) {
        x.start("w:r"); x.element("w:fldChar", ["w:fldCharType": type]); x.end()
    }
}
