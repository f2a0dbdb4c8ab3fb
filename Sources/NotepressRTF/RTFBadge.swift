import Foundation
import NotepressAST
import NotepressThemes

/// The note title and the date badge (see ``RTFEmitter``).
///
/// The badge is drawn as the HTML page draws it: a circle at the right edge of the text with the
/// day (large, bold), the month and the year inside, and the body text flowing around it. RTF
/// 1.9.1 shapes ("Word 97 through Word 2007 RTF for Drawing Objects (Shapes)"): an ellipse
/// (`shapeType` 3) with tight wrapping (`\shpwr4`, both sides) around a 24-point wrap polygon on
/// its outline (`pWrapPolygonVertices`, the exclusion path), and over it a borderless text box
/// (`shapeType` 202, `\shpwr3`: no wrapping) holding the three lines. Both are anchored in a
/// paragraph of a single point's height after the title and placed from the paragraph's top and
/// the column's left edge, so the paragraphs after them wrap. Word wraps the text along the
/// polygon; LibreOffice (7.4) reads the shapes and wraps around their bounding square. Readers
/// without shapes show the `\shprslt` result: the date on a right-aligned line.
extension RTFBuilder {

    /// The badge's diameter in twips: six lines of the date style (as the HTML page's badge),
    /// at most a quarter of the text width (the HTML page caps it to a fraction of the column
    /// too), and the factor the text inside is scaled by when capped.
    func badgeDiameter() -> (twips: Int, scale: Double) {
        let s = theme.style(for: .dateBadge)
        let natural = RTFEmitter.twips(s.lineHeight * 6)
        let cap = RTFEmitter.textWidth / 4
        return natural <= cap ? (natural, 1) : (cap, Double(cap) / Double(natural))
    }

    /// Writes the title paragraph and the badge's anchor paragraph (each when there is one).
    mutating func titleAndBadge() {
        // A title taken from the body's first heading is shown there, not twice.
        if let title = document.metadata.title, document.metadata.titleSource != .firstHeading {
            let s = theme.style(for: .noteTitle)
            beginParagraph()
            writeDirection(TextDirection.base(of: title)); out.spaceAfter(120); writeLineProps(s); writeCharProps(s)
            out.word("impr")
            writePendingPrefix()
            out.text(title)
            endParagraph()
        }
        if let created = document.metadata.created {
            let s = theme.style(for: .dateBadge)
            beginParagraph()
            out.word("ltrpar"); out.word("sl", -20); out.word("slmult", 0); out.word("fs", 2)
            writePendingPrefix()
            writeBadgeShapes(created, style: s)
            endParagraph()
        }
    }

    /// A shape property `{\sp{\sn NAME}{\sv VALUE}}`.
    static func shapeProperty(_ name: String, _ value: String) -> RTFNode {
        .group([.word("sp"), .group([.word("sn"), .text(name)]), .group([.word("sv"), .text(value)])])
    }

    /// A colour as shape properties take it: 0x00BBGGRR, in decimal.
    static func shapeColor(_ c: RGBColor) -> String { String(Int(c.red) | Int(c.green) << 8 | Int(c.blue) << 16) }

    /// `\shpinst` placement words: from the column's left and the paragraph's top, in twips.
    static func shapePlacement(left: Int, top: Int, right: Int, bottom: Int, wrap: Int, z: Int, id: Int) -> [RTFNode] {
        [.word("shpleft", left), .word("shptop", top), .word("shpright", right), .word("shpbottom", bottom),
         .word("shpfhdr", 0), .word("shpbxcolumn"), .word("shpbxignore"), .word("shpbypara"), .word("shpbyignore"),
         .word("shpwr", wrap), .word("shpwrk", 0), .word("shpfblwtxt", 0), .word("shpz", z), .word("shplid", id)]
    }

    /// Writes the ellipse and the text box of the badge for `date`.
    mutating func writeBadgeShapes(_ date: Date, style s: ResolvedStyle) {
        let (d, scale) = badgeDiameter()
        let left = RTFEmitter.textWidth - d
        let colors = theme.colors
        // Wrap polygon: 24 points on the circle in the shape's 21600-unit square, closed.
        var points: [String] = []
        for i in 0...24 {
            let a = Double(i % 24) * 2 * Double.pi / 24
            let x = Int((10800 + 10800 * cos(a)).rounded()), y = Int((10800 + 10800 * sin(a)).rounded())
            points.append("(\(x),\(y))")
        }
        // The gap between the circle and the text: three quarters of the date style's size (EMU).
        let gap = String(Int((s.size * scale * 0.75 * 12700).rounded()))
        let circle: [RTFNode] = [.symbol("*"), .word("shpinst")]
            + Self.shapePlacement(left: left, top: 0, right: RTFEmitter.textWidth, bottom: d, wrap: 4, z: 0, id: 1025)
            + [Self.shapeProperty("shapeType", "3"), Self.shapeProperty("fFilled", "0"),
               Self.shapeProperty("lineColor", Self.shapeColor(colors.secondary)),
               Self.shapeProperty("lineWidth", String(Int((1.5 * scale * 12700).rounded()))),
               Self.shapeProperty("dxWrapDistLeft", gap), Self.shapeProperty("dyWrapDistBottom", gap),
               Self.shapeProperty("pWrapPolygonVertices", "8;25;" + points.joined(separator: ";"))]
        // The text: the day at 1.6 times the date size (line height 1), month and year at the
        // date style's size and leading, centred in the circle.
        let size = s.size * scale
        let dayLine = RTFEmitter.twips(size * 1.6)
        let line = RTFEmitter.twips(s.lineHeight * scale)
        let textHeight = dayLine + 2 * line
        let top = max((d - textHeight) / 2, 0)
        let c = CivilDateTime(date)
        func centered(_ text: String, lineTwips: Int, halfPoints: Int, bold: Bool, color: Int) -> [RTFNode] {
            var p: [RTFNode] = [.word("pard"), .word("plain"), .word("ltrpar"), .word("qc"), .word("sl", -lineTwips),
                                .word("slmult", 0), .word("rtlch"), .word("af", bodyFont), .word("afs", halfPoints)]
            if bold { p.append(.word("ab")) }
            p += [.word("ltrch"), .word("f", bodyFont), .word("fs", halfPoints)]
            if bold { p.append(.word("b")) }
            return p + [.word("cf", color), .text(text), .word("par")]
        }
        let text: [RTFNode] = [.word("shptxt")]
            + centered(String(c.day), lineTwips: dayLine, halfPoints: RTFEmitter.halfPoints(size * 1.6), bold: true,
                       color: Self.colorText)
            + centered(CivilDateTime.monthAbbreviations[c.month - 1], lineTwips: line, halfPoints: RTFEmitter.halfPoints(size),
                       bold: false, color: Self.colorSecondary)
            + centered(String(c.year), lineTwips: line, halfPoints: RTFEmitter.halfPoints(size), bold: false,
                       color: Self.colorSecondary)
        let box: [RTFNode] = [.symbol("*"), .word("shpinst")]
            + Self.shapePlacement(left: left, top: top, right: RTFEmitter.textWidth, bottom: top + textHeight, wrap: 3,
                                  z: 1, id: 1026)
            + [Self.shapeProperty("shapeType", "202"), Self.shapeProperty("fFilled", "0"), Self.shapeProperty("fLine", "0"),
               Self.shapeProperty("fFitShapeToText", "0"), Self.shapeProperty("dxTextLeft", "0"),
               Self.shapeProperty("dxTextRight", "0"), Self.shapeProperty("dyTextTop", "0"),
               Self.shapeProperty("dyTextBottom", "0"), .group(text)]
        out.write(.group([.word("shp"), .group(circle)]))
        out.open(); out.word("shp"); out.write(.group(box))
        // What readers without shapes show instead: the date, right-aligned, in the date style.
        out.open()
        out.word("shprslt"); out.word("pard"); out.word("plain"); out.word("ltrpar"); out.word("qr")
        writeLineProps(s); writeCharProps(s); out.word("cf", Self.colorSecondary); out.text(RTFEmitter.badgeDate(date))
        out.close()
        out.close()
    }
}
