import Foundation
import NotepressAST
import NotepressThemes

/// Tables (see ``RTFEmitter``): a row per `\trowd` … `\row`, cells bordered, columns sized by
/// their content.
extension RTFBuilder {

    /// Writes a table.
    mutating func writeTable(_ table: Table, _ ctx: BlockContext) {
        let columns = max(table.alignments.count, 1)
        let available = RTFEmitter.textWidth - ctx.indent
        let rights = Self.columnRights(table, columns: columns, available: available,
                                       textSize: max(theme.style(for: .tableCell).size, theme.style(for: .tableHeader).size))
        flushPrefix()
        let cellStyle = theme.style(for: .tableCell), headerStyle = theme.style(for: .tableHeader)
        for r in -1 ..< table.rows.count {
            let header = r < 0
            let cells = header ? table.header : table.rows[r]
            let s = header ? headerStyle : cellStyle
            out.newline(); out.word("trowd"); out.word("trgaph", Self.cellGap); out.word("trleft", ctx.indent)
            if header { out.word("trhdr") }
            for col in 0..<columns {
                out.words(#"\clbrdrt\brdrs\brdrw10\clbrdrl\brdrs\brdrw10\clbrdrb\brdrs\brdrw10\clbrdrr\brdrs\brdrw10"#)
                out.word("cellx", ctx.indent + rights[col])
            }
            for col in 0..<columns {
                let cell = col < cells.count ? cells[col] : Inlines()
                let direction = Self.direction(cell, 0..<cell.runs.count)
                out.newline()
                out.words(#"\pard\plain\intbl"#)
                if direction == .rightToLeft { out.word("rtlpar") } else { out.word("ltrpar") }
                switch col < table.alignments.count ? table.alignments[col] : .none {
                case .center: out.word("qc")
                case .right: out.word("qr")
                case .left: out.word("ql")
                case .none: if direction == .rightToLeft { out.word("qr") } else { out.word("ql") }
                }
                writeLineProps(s); writeCharProps(s)
                if header && !s.weight.isBold { out.word("rtlch"); out.word("ab"); out.word("ltrch"); out.word("b") }
                writeInlines(cell, ctx)
                out.word("cell")
            }
            out.word("row")
        }
        // Leave table mode before the next paragraph.
        out.newline(); out.word("pard")
    }

    /// Half the space between cells' text, in twips (`\trgaph`): each cell has this much padding
    /// on either side.
    static let cellGap = 108

    /// The right edges of the columns, in twips from the table's left edge: widths sized by
    /// content, as HTML's automatic table layout does (CSS 2.1 §17.5.2.2). Each column has a
    /// minimum (its longest unbreakable word) and a maximum (its longest cell on one line), in
    /// estimated widths (``textUnits(_:)`` × 0.55 em of `textSize`, plus the padding). When the
    /// maxima fit the width available, columns get their maximum. When not even the minima fit,
    /// the width is shared in proportion to the minima. Otherwise narrow columns are served
    /// first: taking columns by increasing maximum, each whose maximum is at most an equal share
    /// of the width still free gets it (so `Domain, 2 years` stays on one line beside a long
    /// notes column); the columns left share the rest, each its minimum plus a part of the
    /// remainder in proportion to (maximum − minimum). The last edge is never past `available`.
    static func columnRights(_ table: Table, columns: Int, available: Int, textSize: Double) -> [Int] {
        let unit = textSize * 0.55 * 20  // twips per unit (0.55 em: about a Latin letter; a wide character is two)
        let padding = Double(2 * cellGap + 20)
        var minima = [Double](repeating: padding, count: columns)
        var maxima = [Double](repeating: padding, count: columns)
        for row in [table.header] + table.rows {
            for (col, cell) in row.enumerated() where col < columns {
                let (longestWord, whole) = textUnits(cell.plainText)
                minima[col] = max(minima[col], Double(longestWord) * unit + padding)
                maxima[col] = max(maxima[col], Double(whole) * unit + padding)
            }
        }
        let room = Double(available)
        let sumMin = minima.reduce(0, +), sumMax = maxima.reduce(0, +)
        var widths: [Double]
        if sumMax <= room {
            widths = maxima
        } else if sumMin >= room {
            widths = minima.map { $0 * room / sumMin }
        } else {
            widths = minima
            var free = room
            var open = Array(0..<columns).sorted { maxima[$0] < maxima[$1] || (maxima[$0] == maxima[$1] && $0 < $1) }
            while let first = open.first, maxima[first] <= free / Double(open.count),
                  free - maxima[first] >= open.dropFirst().reduce(0, { $0 + minima[$1] }) {
                widths[first] = maxima[first]
                free -= maxima[first]
                open.removeFirst()
            }
            let openMin = open.reduce(0) { $0 + minima[$1] }, openMax = open.reduce(0) { $0 + maxima[$1] }
            let share = openMax > openMin ? (free - openMin) / (openMax - openMin) : 0
            for c in open { widths[c] = minima[c] + (maxima[c] - minima[c]) * share }
        }
        var rights: [Int] = []
        var edge = 0.0
        for w in widths {
            edge += w
            rights.append(min(Int(edge.rounded()), available))
        }
        if sumMax > room, !rights.isEmpty { rights[rights.count - 1] = available }
        return rights
    }

    /// Estimated widths of `text` in units (half a CJK character, about a Latin letter): the
    /// longest piece that cannot be broken (a word between spaces; a CJK or emoji character alone,
    /// as lines may break on either side of one) and the whole text on one line. CJK ideographs,
    /// kana, Hangul, full-width forms and emoji count 2, other characters 1: an estimate for
    /// sizing columns, not a rendering rule.
    static func textUnits(_ text: String) -> (longestWord: Int, whole: Int) {
        var longest = 0, whole = 0, word = 0
        // ASCII (the usual cell): a byte is a Character (CR LF aside, one whitespace Character),
        // none is wide, and the whitespace ones are TAB…CR and space.
        let ascii: Bool? = text.utf8.withContiguousStorageIfAvailable { b -> Bool in
            guard !b.contains(where: { $0 >= 0x80 }) else { return false }
            var i = 0
            while i < b.count {
                let c = b[i]
                whole += 1
                if (0x09...0x0D).contains(c) || c == 0x20 {
                    word = 0
                    if c == 0x0D && i + 1 < b.count && b[i + 1] == 0x0A { i += 1 }
                } else {
                    word += 1
                    longest = max(longest, word)
                }
                i += 1
            }
            return true
        }
        if ascii == true { return (longest, whole) }
        longest = 0; whole = 0; word = 0
        for c in text {
            let wide = isWide(c)
            let w = wide ? 2 : 1
            whole += w
            if c.isWhitespace {
                word = 0
            } else if wide {
                word = 0
                longest = max(longest, 2)
            } else {
                word += 1
                longest = max(longest, word)
            }
        }
        return (longest, whole)
    }

    /// Whether `c` is drawn about two Latin letters wide (see ``textUnits(_:)``).
    static func isWide(_ c: Character) -> Bool {
        guard let u = c.unicodeScalars.first else { return false }
        let v = u.value
        return u.properties.isIdeographic || u.properties.isEmojiPresentation
            || (0x1100...0x115F).contains(v) || (0x2E80...0x303F).contains(v) || (0x3040...0x33FF).contains(v)
            || (0xAC00...0xD7A3).contains(v) || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v)
    }
}
