import Foundation
import NotepressAST
import NotepressThemes

/// Tables drawn with box characters, or as records when they cannot fit (see ``ANSIEmitter``).
extension Renderer {

    mutating func table(_ t: Table, width: Int) -> [Line] {
        let n = t.alignments.count
        guard n > 0 else { return [] }
        let headerStyle = body.merged(TerminalStyleTable.style(.tableHeader))
        let rows: [[Inlines]] = [t.header] + t.rows
        var natural = [Int](repeating: 1, count: n)
        // The cells' fillers: each measured for its widest line when nothing makes it wrap, asked
        // for its longest words only when the table must shrink, and laid out once at its
        // column's width.
        var fillers: [[LineFiller]] = []
        fillers.reserveCapacity(rows.count)
        // Each cell's natural width, and the row of each column's widest cell.
        var cellNatural: [[Int]] = []
        cellNatural.reserveCapacity(rows.count)
        var widestRow = [Int](repeating: 0, count: n)
        for (ri, row) in rows.enumerated() {
            var cellFillers: [LineFiller] = []
            cellFillers.reserveCapacity(min(n, row.count))
            var naturals: [Int] = []
            naturals.reserveCapacity(min(n, row.count))
            for c in 0..<n where c < row.count {
                var f = fill(row[c], width: Int.max / 4, base: ri == 0 ? headerStyle : body)
                let w = f.naturalWidth()
                if w > natural[c] { widestRow[c] = ri }
                natural[c] = max(natural[c], w)
                naturals.append(w)
                cellFillers.append(f)
            }
            fillers.append(cellFillers)
            cellNatural.append(naturals)
        }
        let room = width - (3 * n + 1)
        if room < 2 * n { return tableAsRecords(t, width: width) }
        let widths = Self.columnWidths(natural: natural, room: room, fillers: &fillers, cellNatural: cellNatural,
                                       widestRow: widestRow)
        let b = TerminalStyleTable.style(.tableBorder)
        let v = ascii ? "|" : "│"
        func rule(_ l: String, _ m: String, _ r: String) -> Line { tableRule(l, m, r, widths: widths) }
        var out: [Line] = [rule("┌", "┬", "┐")]
        let border = Seg(v, b)
        var cells: [[Line]] = []
        cells.reserveCapacity(n)
        for (ri, row) in rows.enumerated() {
            // A cell at least as wide as its widest unwrapped line has its unwrapped lines (greedy
            // filling takes the same decisions at any such width); a narrower one is laid out at
            // the column's width from the same filler (same text, same break opportunities),
            // which gives the lines a filler of that width would.
            cells.removeAll(keepingCapacity: true)
            var height = 1
            for c in 0..<n {
                let lines: [Line]
                if c >= row.count {
                    lines = [[]]
                } else if widths[c] >= natural[c] {
                    lines = fillers[ri][c].finish()
                } else {
                    lines = fillers[ri][c].finish(width: widths[c])
                }
                height = max(height, lines.count)
                cells.append(lines)
            }
            for li in 0..<height {
                // One allocation for the whole line (an array literal would allocate first).
                var line: Line = []
                line.reserveCapacity(1 + 4 * n)
                line.append(border)
                for c in 0..<n {
                    let cl = li < cells[c].count ? cells[c][li] : []
                    // A grapheme cluster wider than the column (a space carrying seven skin-tone
                    // modifiers) stays whole and overflows it: no padding then, never a negative one.
                    let pad = max(0, widths[c] - lineWidth(cl))
                    let left: Int
                    switch t.alignments[c] {
                    case .right: left = pad
                    case .center: left = pad / 2
                    default: left = 0
                    }
                    line.append(Seg(spaces: left + 1))
                    line += cl
                    line.append(Seg(spaces: pad - left + 1))
                    line.append(border)
                }
                out.append(line)
            }
            if ri == 0 { out.append(rule("├", "┼", "┤")) }
        }
        out.append(rule("└", "┴", "┘"))
        return out
    }

    /// The columns' widths of ``table(_:width:)`` within `room`: the natural ones when they fit;
    /// else one column narrower per step, the one with the most room above its longest word
    /// first (words stay whole), and when every column is at its longest word the widest (words
    /// break), never under 2. `fillers` are asked for their longest words only then.
    static func columnWidths(natural: [Int], room: Int, fillers: inout [[LineFiller]], cellNatural: [[Int]],
                             widestRow: [Int]) -> [Int] {
        let n = natural.count
        var longestWord = [Int](repeating: 1, count: n)
        // Shrink the column with the most room above its longest word first (words stay whole);
        // when every column is at its longest word, shrink the widest (words break), never under 2.
        var widths = natural
        if widths.reduce(0, +) > room {
            // A cell's widest word is never wider than the cell (its natural width): a cell no
            // wider than the longest word found so far in its column cannot change it, so the
            // break opportunities (ICU) of most cells are never asked for. Each column's widest
            // cell comes first, then the rows in order (linear).
            for c in 0..<n where c < fillers[widestRow[c]].count {
                longestWord[c] = max(longestWord[c], fillers[widestRow[c]][c].widestWord())
            }
            for ri in fillers.indices {
                for c in fillers[ri].indices where cellNatural[ri][c] > longestWord[c] {
                    longestWord[c] = max(longestWord[c], fillers[ri][c].widestWord())
                }
            }
        }
        // One column narrower per step: the first with the most slack above its floor (its longest
        // word, at most its natural width), else the first widest; the total kept as it changes
        // and the slack scanned in place (no array per step).
        var total = widths.reduce(0, +)
        if total > room {
            let floor = (0..<n).map { min(longestWord[$0], natural[$0]) }
            while total > room {
                var best = 0, bestColumn = -1
                for c in 0..<n where widths[c] - floor[c] > best { best = widths[c] - floor[c]; bestColumn = c }
                if bestColumn < 0 {
                    var m = widths[0]
                    bestColumn = 0
                    for c in 1..<n where widths[c] > m { m = widths[c]; bestColumn = c }
                    guard m > 2 else { break }
                }
                widths[bestColumn] -= 1
                total -= 1
            }
        }
        return widths
    }

    /// A horizontal rule of ``table(_:width:)`` for columns of `widths`: `l`, `m` between
    /// columns and `r` (`+` each with `ascii`), in the border style.
    func tableRule(_ l: String, _ m: String, _ r: String, widths: [Int]) -> Line {
        let n = widths.count
        let b = TerminalStyleTable.style(.tableBorder)
        let h = ascii ? "-" : "─"
        let hColumns = TerminalWidth.columns(h)
        // `h` repeated for the widest column, cut to each column's width.
        let hBytes = h.utf8.count
        let hRun = Array(String(repeating: h, count: (widths.max() ?? 0) + 2).utf8)
        let ruleRun = widths.reduce(0) { $0 + $1 + 2 }
        // The same text as joining `h` × (width + 2) per column with `m`, built in one buffer;
        // its width is the sum of its characters' (single scalars, none joining another).
        let (l, m, r) = ascii ? ("+", "+", "+") : (l, m, r)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(l.utf8.count + r.utf8.count + m.utf8.count * n + h.utf8.count * ruleRun)
        bytes.append(contentsOf: l.utf8)
        for (i, w) in widths.enumerated() {
            if i > 0 { bytes.append(contentsOf: m.utf8) }
            bytes.append(contentsOf: hRun[0..<(hBytes * (w + 2))])
        }
        bytes.append(contentsOf: r.utf8)
        let columns = TerminalWidth.columns(l) + TerminalWidth.columns(r) + (n - 1) * TerminalWidth.columns(m)
            + ruleRun * hColumns
        return [Seg(String(decoding: bytes, as: UTF8.self), b, link: nil, width: columns)]
    }

    /// A table too wide for any grid: each body row as `header: cell` lines.
    mutating func tableAsRecords(_ t: Table, width: Int) -> [Line] {
        let headerStyle = body.merged(TerminalStyleTable.style(.tableHeader))
        var out: [Line] = []
        for row in (t.rows.isEmpty ? [t.header] : t.rows) {
            if !out.isEmpty { out.append([]) }
            for (c, cell) in row.enumerated() {
                var record = InlinesBuilder()
                if c < t.header.count, !t.header[c].isEmpty {
                    record.push(.strong)
                    record.append(contentsOf: t.header[c])
                    record.pop()
                }
                record.append(.text(": "))
                if !t.rows.isEmpty { record.append(contentsOf: cell) }
                out += inlineLines(record.take(), width: width, base: t.rows.isEmpty ? headerStyle : body)
            }
        }
        return out
    }
}
