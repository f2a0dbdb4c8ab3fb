import Foundation
import NotepressAST
import NotepressThemes

/// Inline runs: character formatting, hyperlinks, footnotes, images (see ``DOCXEmitter``).
extension DOCXBuilder {
    /// Writes all runs of `inl`; `bold` and `color` apply to every run (a callout's title, a term).
    func writeInlines(_ inl: Inlines, _ ctx: DOCXContext, bold: Bool = false, color: RGBColor? = nil) {
        writeInlines(inl, 0..<inl.runs.count, InlineAttributeTable(inl), ctx, bold: bold, color: color)
    }

    /// Writes the runs of `inl` in `range`: each outermost link is one `w:hyperlink` (a
    /// relationship for a URL or file, `w:anchor` for a bookmark of this document), each image
    /// span one drawing (its runs are the description).
    func writeInlines(_ inl: Inlines, _ range: Range<Int>, _ table: InlineAttributeTable, _ ctx: DOCXContext,
                      bold: Bool = false, color: RGBColor? = nil) {
        let runs = inl.runs
        var i = range.lowerBound
        while i < range.upperBound {
            guard let target = table[run: runs[i]].outermostTarget, let link = table.link(target) else {
                writeRun(runs[i], table[run: runs[i]].attributes, ctx, bold: bold, color: color)
                i += 1
                continue
            }
            var end = i
            while end < range.upperBound, table[run: runs[end]].outermostTarget == target { end += 1 }
            if case .image = inl.spans[target].kind {
                writeImage(link, description: Self.plainText(runs[i..<end]), ctx)
                i = end
                continue
            }
            let opened = openHyperlink(link)
            var k = i
            while k < end {
                if let image = table[run: runs[k]].innermostImage, let l = table.link(image) {
                    var stop = k
                    while stop < end, table[run: runs[stop]].innermostImage == image { stop += 1 }
                    writeImage(l, description: Self.plainText(runs[k..<stop]), ctx)
                    k = stop
                } else {
                    writeRun(runs[k], table[run: runs[k]].attributes, ctx, bold: bold, color: color, link: opened)
                    k += 1
                }
            }
            if opened { x.end() }
            i = end
        }
    }

    static func plainText(_ runs: ArraySlice<InlineRun>) -> String {
        var s = ""
        for r in runs {
            switch r.content {
            case .text(let t): s += t
            case .softBreak, .hardBreak: s += " "
            default: break
            }
        }
        return s
    }

    /// Opens `w:hyperlink` for a link whose destination ``URLSafety`` keeps (else nothing, and
    /// the text is written alone): `#id` becomes `w:anchor` with the bookmark of that id
    /// (``WordBookmark``); `file#id` a relationship to the file and the anchor; anything else a
    /// relationship to the destination, external.
    func openHyperlink(_ link: Link) -> Bool {
        let destination = URLSafety.destination(link.destination, unsafe: unsafe)
        guard !destination.isEmpty else { return false }
        var target = destination, anchor: String?
        if !Self.hasScheme(destination), let hash = destination.firstIndex(of: "#") {
            target = String(destination[..<hash])
            let fragment = String(destination[destination.index(after: hash)...])
            anchor = WordBookmark.name(forID: fragment.removingPercentEncoding ?? fragment)
        }
        x.start("w:hyperlink")
        if !target.isEmpty { x.attribute("r:id", relationship(forHyperlink: target)) }
        if let anchor { x.attribute("w:anchor", anchor) }
        x.attribute("w:history", "1")
        return true
    }

    /// Whether `s` starts with a URL scheme (`letters:`), as RTF tells URLs from files.
    static func hasScheme(_ s: String) -> Bool {
        guard let colon = s.firstIndex(of: ":"), colon != s.startIndex else { return false }
        return s[..<colon].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
            && s.first!.isLetter
    }

    /// The relationship id of a hyperlink target (one per distinct target).
    func relationship(forHyperlink target: String) -> String {
        if let id = hyperlinkIDs[target] { return id }
        let id = "rId\(relationships.count + 5)"
        relationships.append(DOCXRelationship(id: id, type: "hyperlink", target: target, external: true))
        hyperlinkIDs[target] = id
        return id
    }

    /// The run properties of attributes `a` (see RTF's `writeRunProps` for the same mapping).
    func runProperties(_ a: InlineAttributes, bold: Bool, color: RGBColor?, link: Bool) -> DOCXRun {
        var r = DOCXRun()
        if a.code { r.style = "VerbatimChar" } else if link { r.style = "Hyperlink" }
        if a.script && !a.code { r.font = theme.theme.scriptFont.portableFamily }
        r.bold = a.strong || bold
        r.italic = a.emphasis || (a.script && !a.code)
        r.strike = a.strikethrough
        r.imprint = a.letterpress
        r.size = a.textStyle.map { DOCXEmitter.halfPoints(theme.style($0).size) }
        r.highlight = a.highlight
        r.underline = a.insert
        r.vertical = a.superscript ? "superscript" : (a.subscript ? "subscript" : nil)
        if a.tag != nil { r.color = theme.colors.link }
        if a.colorRole == .alert { r.color = theme.colors.alert }
        if a.marker { r.color = theme.colors.secondary }
        if r.color == nil { r.color = color }
        return r
    }

    /// Writes one run whose flat attributes are `a`.
    func writeRun(_ run: InlineRun, _ a: InlineAttributes, _ ctx: DOCXContext, bold: Bool = false,
                  color: RGBColor? = nil, link: Bool = false) {
        switch run.content {
        case .text(var t):
            var r = runProperties(a, bold: bold, color: color, link: link)
            r.rightToLeft = TextDirection.base(of: t) == .rightToLeft
            // Math: the TeX source in the code style, between `$` or `$$` (display): clearly TeX.
            if let display = a.math { t = (display ? "$$" : "$") + t + (display ? "$$" : "$") }
            self.run(t, r)
        case .softBreak:
            self.run(" ", runProperties(a, bold: bold, color: color, link: link))
        case .hardBreak:
            x.start("w:r"); x.element("w:br"); x.end()
        case .rawHTML:
            break
        case .footnoteReference(let label, let number, _):
            guard !ctx.inFootnote, !writtenFootnotes.contains(label), let blocks = footnotes[label] else {
                var r = DOCXRun(style: "FootnoteReference")
                r.vertical = nil
                self.run(String(number), r)
                return
            }
            writtenFootnotes.insert(label)
            footnoteCount += 1
            x.start("w:r")
            x.start("w:rPr"); x.element("w:rStyle", ["w:val": "FootnoteReference"]); x.end()
            x.element("w:footnoteReference", ["w:id": String(footnoteCount)])
            x.end()
            writeFootnote(footnoteCount, blocks)
        }
    }

    /// Writes footnote `id` into `footnotes.xml`: its blocks in the Footnote Text style, the
    /// first paragraph starting with the footnote's mark.
    func writeFootnote(_ id: Int, _ blocks: [Block]) {
        let saved = (x, pendingBookmarks, pendingFootnoteMark, pendingTask, pendingNumbering)
        x = notes
        pendingBookmarks = []; pendingTask = nil; pendingNumbering = nil
        pendingFootnoteMark = true
        var c = DOCXContext()
        c.inFootnote = true
        c.spaceAfter = 0
        notes.start("w:footnote", ["w:id": String(id)])
        for b in blocks { writeBlock(b, c) }
        if pendingFootnoteMark { beginParagraph(DOCXParagraph(style: "FootnoteText"), c); endParagraph() }
        notes.end()
        (x, pendingBookmarks, pendingFootnoteMark, pendingTask, pendingNumbering) = saved
    }
}
