import CNotepressPDF
import Foundation
import NotepressAST
import NotepressThemes

/// Tables: column widths from the content (each column's natural width when they all fit,
/// else its widest word plus a share of the rest by how much more it wants), cells that wrap,
/// the header row repeated on each page the table continues on (the shim).
extension PDFEmitter {
    /// Draws `table` (of the block at `position`) at the context's indent.
    func writeTable(_ table: Table, _ ctx: BlockContext, position: SourcePosition?) {
        let all = max(table.header.count, table.rows.map(\.count).max() ?? 0)
        let columns = min(all, 64)
        guard columns > 0 else { return }
        if all > columns {
            diagnostics.append(Diagnostic(.warning, "PDF: a table of \(all) columns is written with its first 64",
                                          file: document.metadata.sourcePath, position: position))
        }
        let headerStyle = theme.style(for: .tableHeader), cellStyle = theme.style(for: .tableCell)
        let header = (0..<columns).map { c -> AttributedText in
            var t = c < table.header.count ? attributed(table.header[c], headerStyle) : AttributedText()
            for i in t.runs.indices { t.runs[i].style.weight = max(t.runs[i].style.weight, 700) }
            return t
        }
        let rows = table.rows.map { row in (0..<columns).map { c in c < row.count ? attributed(row[c], cellStyle) : AttributedText() } }
        let padding = cellStyle.size * 0.4
        let widths = columnWidths([header] + rows, columns: columns, available: textWidth - indent(ctx), padding: padding)
        let aligns = (0..<columns).map { c -> Int32 in
            switch c < table.alignments.count ? table.alignments[c] : .none {
            case .center: 1
            case .right: 2
            default: 0
            }
        }
        widths.withUnsafeBufferPointer { w in
            library.tableBegin(handle, columns, w.baseAddress, indent(ctx), padding, PDFFonts.rgb(colors.secondary),
                               PDFFonts.rgb(colors.codeBackground))
        }
        row(header, aligns: aligns, header: true)
        for r in rows { row(r, aligns: aligns, header: false) }
        library.tableEnd(handle, cellStyle.size * 0.8)
    }

    /// The widths of the columns, cell padding included.
    private func columnWidths(_ rows: [[AttributedText]], columns: Int, available: Double, padding: Double) -> [Double] {
        var natural = [Double](repeating: 0, count: columns), least = natural
        for row in rows {
            for (c, cell) in row.enumerated() where !cell.isEmpty {
                var n = 0.0, l = 0.0
                let runs = strings.runs(cell)
                cell.bytes.withUnsafeBufferPointer { b in
                    b.withMemoryRebound(to: CChar.self) { library.measure(handle, $0.baseAddress, $0.count, runs, runs.count, &n, &l) }
                }
                natural[c] = max(natural[c], n + 2 * padding + 1)
                least[c] = max(least[c], l + 2 * padding + 1)
            }
        }
        if natural.reduce(0, +) <= available { return natural }
        let minimum = least.reduce(0, +)
        guard minimum < available else { return least.map { $0 * available / minimum } }
        let wanted = zip(natural, least).map { $0 - $1 }.reduce(0, +)
        return zip(natural, least).map { n, l in l + (n - l) / max(wanted, 1) * (available - minimum) }
    }

    /// Draws one row of cells.
    private func row(_ cells: [AttributedText], aligns: [Int32], header: Bool) {
        let runs = cells.map { strings.runs($0) }
        var buffers: [UnsafeMutablePointer<CChar>] = []
        var runBuffers: [UnsafeMutablePointer<np_pdf_run>] = []
        defer {
            buffers.forEach { $0.deallocate() }
            runBuffers.forEach { $0.deallocate() }
        }
        var cCells: [np_pdf_cell] = []
        for (i, cell) in cells.enumerated() {
            let text = UnsafeMutablePointer<CChar>.allocate(capacity: max(cell.bytes.count, 1))
            cell.bytes.withUnsafeBufferPointer { b in
                b.withMemoryRebound(to: CChar.self) { text.initialize(from: $0.baseAddress!, count: $0.count) }
            }
            let r = UnsafeMutablePointer<np_pdf_run>.allocate(capacity: max(runs[i].count, 1))
            r.initialize(from: runs[i], count: runs[i].count)
            buffers.append(text); runBuffers.append(r)
            cCells.append(np_pdf_cell(text: text, length: cell.bytes.count, runs: r, run_count: runs[i].count, align: aligns[i]))
        }
        library.tableRow(handle, cCells, header ? 1 : 0)
    }
}
