import NotepressAST

/// Tables as tbl(1) input (see ``ManEmitter``).
extension ManRenderer {

    /// Columns a table may take: the 78-column page less the 7-column indent and some room for
    /// list and quote indents.
    static let tableWidth = 64

    /// Output lines a boxed table may take. tbl(1) keeps a boxed table (`allbox`) on one page,
    /// and in print (`groff -t -man -Tps`/`-Tpdf`, what `man -t` runs) a taller one is lost:
    /// "table will not fit on one page" (man(7) has no `.TS H` running header). A US-letter page
    /// holds about 54 lines of man(7) text (45 one-line boxed rows fit, 50 do not); a taller table
    /// is written without boxes (a rule under the header row), which flows over pages.
    static let maxBoxedLines = 40

    /// A tbl(1) table: `allbox tab(@)` (or, taller than ``maxBoxedLines``, `tab(@)` with a rule
    /// under the header), bold header row, one alignment per column.
    ///
    /// When the cells' natural widths fit in ``tableWidth`` every cell is written inline;
    /// otherwise each column gets a width (`lw(Nn)`): its natural width if that is within a fair
    /// share, else an equal part of what is left, and cells wider than their column become text
    /// blocks (`T{`…`T}`) whose long words may break (`\:`). That keeps tbl from warning "table
    /// wider than line width".
    mutating func table(_ t: Table) {
        let n = t.alignments.count
        guard n > 0 else { return }
        func letter(_ a: Table.Alignment) -> String {
            switch a { case .center: return "c"; case .right: return "r"; default: return "l" }
        }
        let rows = [t.header] + t.rows
        var natural = [Int](repeating: 1, count: n)
        let cellItems = rows.map { $0.prefix(n).map { inlineItems($0, flow: false) } }
        // Each cell's width, measured once (it decides the column, the row height and the cell).
        let cellWidths = cellItems.map { $0.map { Self.width($0) } }
        for row in cellWidths {
            for (i, width) in row.enumerated() { natural[i] = max(natural[i], width) }
        }
        let budget = max(n * 6, Self.tableWidth - 3 * n - 1)
        var widths: [Int]? = nil
        if natural.reduce(0, +) > budget {
            var w = [Int](repeating: 0, count: n)
            var left = budget
            var open = Array(0..<n)
            // Columns narrower than a fair share keep their natural width.
            var changed = true
            while changed && !open.isEmpty {
                changed = false
                let share = left / open.count
                for i in open where natural[i] <= share {
                    w[i] = natural[i]; left -= natural[i]; changed = true
                }
                open.removeAll { w[$0] > 0 }
            }
            for i in open { w[i] = max(6, left / max(1, open.count)) }
            widths = w
        }
        func format(_ bold: Bool) -> String {
            (0..<n).map { i in
                letter(t.alignments[i]) + (bold ? "b" : "") + (widths.map { "w(\($0[i])n)" } ?? "")
            }.joined(separator: " ")
        }
        // Each row is as tall as its tallest cell; a text block wraps at its column's width.
        var lines = 0
        for row in cellWidths {
            var tallest = 1
            for (i, cellWidth) in row.enumerated() {
                guard let width = widths?[i] else { continue }
                tallest = max(tallest, (cellWidth + width - 1) / max(1, width))
            }
            lines += tallest
        }
        let boxed = lines <= Self.maxBoxedLines
        w.paragraph()
        w.control(".TS")
        w.control(boxed ? "allbox tab(@);" : "tab(@);")
        w.control(format(true))
        w.control(format(false) + ".")
        for (r, row) in cellItems.enumerated() {
            if r == 1 && !boxed { w.control("_") }
            w.newline()
            // A row of empty cells is an empty line, which tbl does not read as a row (mandoc:
            // "tbl without any data cells" when it is the only one): its first cell gets `\&`.
            if row.allSatisfy(\.isEmpty) { w.raw("\\&") }
            for (i, items) in row.enumerated() {
                if i > 0 { w.raw("@") }
                tableCell(items, naturalWidth: cellWidths[r][i], width: widths?[i])
            }
            w.raw("\n")
        }
        w.control(".TE")
        // tbl draws a boxed table's bottom rule on the line that the next paragraph's blank
        // line would take (groff and mandoc alike): without a blank line of its own, the text
        // after the table sits right under the box (the footer too, at the page's end).
        if boxed { w.control(".sp") }
    }

    /// A cell: inline when it fits its column (or the table has no widths), else a text block
    /// `T{`…`T}`. An inline cell that tbl would read as a rule (`_`, `=`), a control line (`.`,
    /// `'`) or a text-block start (ending `T{`) is guarded with `\&`. `naturalWidth` is
    /// ``width(_:)`` of `items`.
    mutating func tableCell(_ items: [InlineItem], naturalWidth: Int, width: Int?) {
        if width == nil || naturalWidth <= width! {
            // One writer for every cell (``cellWriter``), reset: a fresh `RoffWriter(width: Int.max)`.
            cellWriter.reset()
            cellWriter.layoutCell(items)
            cellWriter.closeFont()
            // The cell is ASCII without CR (``RoffEscaper``): its bytes are its Characters.
            let s = cellWriter.bytes
            guard let first = s.first else { return }
            if first == UInt8(ascii: ".") || first == UInt8(ascii: "'")
                || (s.count == 1 && (first == UInt8(ascii: "_") || first == UInt8(ascii: "=")))
                || (s.count >= 2 && first == UInt8(ascii: "\\") && s[1] == UInt8(ascii: "^")) {
                w.raw("\\&")
            }
            w.raw(bytes: s)
            if s.count >= 2 && s[s.count - 2] == UInt8(ascii: "T") && s[s.count - 1] == UInt8(ascii: "{") { w.raw("\\&") }
            return
        }
        w.raw("T{\n")
        w.control(".ad l")
        w.inTextBlock = true
        let saved = w.breakThreshold
        w.breakThreshold = max(1, width! - 1)
        layout(items, context: .cell)
        w.endText()
        w.breakThreshold = saved
        w.inTextBlock = false
        w.raw("T}")
    }
}
