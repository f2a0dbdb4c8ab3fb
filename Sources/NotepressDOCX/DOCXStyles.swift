import NotepressAST
import NotepressContainer
import NotepressThemes

/// `word/styles.xml` (see ``DOCXEmitter``): Word's built-in names (`heading 1`, `Title`,
/// `footnote text`, …) and style ids, so that Word's navigation pane, its TOC field and
/// python-docx know them; each style's font, size and weight from the theme's text style of its
/// role at the size category.
extension DOCXParts {
    /// The style ids of headings of levels 1…6.
    static func headingStyle(_ level: Int) -> String { "Heading\(min(max(level, 1), 6))" }

    /// The whole styles part.
    func styles() -> [UInt8] {
        let x = XMLStreamWriter(standalone: true)
        x.start("w:styles", ["xmlns:w": Self.w])
        writeDefaults(x)
        let secondary = theme.colors.secondary
        paragraphStyle(x, id: "Normal", name: "Normal", role: .body, isDefault: true, basedOn: nil)
        paragraphStyle(x, id: "Title", name: "Title", role: .noteTitle, spaceBefore: 0, spaceAfter: 240, keepNext: true)
        for level in 1...6 {
            paragraphStyle(x, id: Self.headingStyle(level), name: "heading \(level)", role: .heading(level),
                           spaceBefore: 240, spaceAfter: 120, keepNext: true, outline: level - 1)
        }
        paragraphStyle(x, id: "Date", name: "Date", role: .dateBadge, spaceAfter: 240, color: secondary)
        paragraphStyle(x, id: "Quote", name: "Quote", role: .blockQuote, color: secondary)
        paragraphStyle(x, id: "Caption", name: "caption", role: .caption, color: secondary)
        paragraphStyle(x, id: "FootnoteText", name: "footnote text", role: .footnote, spaceAfter: 0)
        paragraphStyle(x, id: "SourceCode", name: "Source Code", role: .code, spaceAfter: 120,
                       font: theme.theme.codeFont.portableFamily, bold: false, shading: theme.colors.codeBackground)
        paragraphStyle(x, id: "TableContents", name: "Table Contents", role: .tableCell, spaceAfter: 0)
        paragraphStyle(x, id: "TableHeading", name: "Table Heading", role: .tableHeader, spaceAfter: 0, bold: true)
        paragraphStyle(x, id: "TOCHeading", name: "TOC Heading", role: .heading(2), spaceBefore: 240, spaceAfter: 120, keepNext: true)
        for level in 1...6 {
            paragraphStyle(x, id: "TOC\(level)", name: "toc \(level)", role: .body, spaceAfter: 60, indent: 360 * (level - 1))
        }
        characterStyle(x, id: "FootnoteReference", name: "footnote reference") { x in
            x.element("w:vertAlign", ["w:val": "superscript"])
        }
        let code = theme.style(for: .code)
        characterStyle(x, id: "VerbatimChar", name: "Verbatim Char") { x in
            let f = theme.theme.codeFont.portableFamily
            x.element("w:rFonts", ["w:ascii": f, "w:hAnsi": f, "w:cs": f])
            x.element("w:sz", ["w:val": String(DOCXEmitter.halfPoints(code.size))])
            x.element("w:szCs", ["w:val": String(DOCXEmitter.halfPoints(code.size))])
        }
        characterStyle(x, id: "Hyperlink", name: "Hyperlink") { x in
            x.element("w:color", ["w:val": DOCXEmitter.hex(theme.colors.link)])
            x.element("w:u", ["w:val": "single"])
        }
        x.start("w:style", ["w:type": "table", "w:styleId": "TableGrid"])
        x.element("w:name", ["w:val": "Table Grid"])
        x.element("w:basedOn", ["w:val": "TableNormal"])
        x.start("w:tblPr")
        x.start("w:tblBorders")
        for side in ["top", "left", "bottom", "right", "insideH", "insideV"] {
            x.element("w:" + side, ["w:val": "single", "w:sz": "4", "w:space": "0", "w:color": DOCXEmitter.hex(secondary)])
        }
        x.end()
        x.end()
        x.end()
        x.start("w:style", ["w:type": "table", "w:default": "1", "w:styleId": "TableNormal"])
        x.element("w:name", ["w:val": "Normal Table"])
        x.start("w:tblPr")
        x.element("w:tblInd", ["w:w": "0", "w:type": "dxa"])
        x.start("w:tblCellMar")
        x.element("w:top", ["w:w": "0", "w:type": "dxa"]); x.element("w:left", ["w:w": "108", "w:type": "dxa"])
        x.element("w:bottom", ["w:w": "0", "w:type": "dxa"]); x.element("w:right", ["w:w": "108", "w:type": "dxa"])
        x.end()
        x.end()
        x.end()
        x.end()
        return x.bytes()
    }

    /// `w:docDefaults`: the body's font (the theme's East Asian font for East Asian text, the
    /// body font for complex scripts too), size and colour; 6 points after a paragraph.
    private func writeDefaults(_ x: XMLStreamWriter) {
        let body = theme.style(for: .body)
        let f = body.font.portableFamily, eastAsian = theme.theme.eastAsianFont.portableFamily
        x.start("w:docDefaults")
        x.start("w:rPrDefault"); x.start("w:rPr")
        x.element("w:rFonts", ["w:ascii": f, "w:hAnsi": f, "w:eastAsia": eastAsian, "w:cs": f])
        x.element("w:color", ["w:val": DOCXEmitter.hex(theme.colors.text)])
        x.element("w:sz", ["w:val": String(DOCXEmitter.halfPoints(body.size))])
        x.element("w:szCs", ["w:val": String(DOCXEmitter.halfPoints(body.size))])
        x.element("w:lang", Self.language(document.metadata))
        x.end(); x.end()
        x.start("w:pPrDefault"); x.start("w:pPr")
        x.element("w:spacing", ["w:after": "120", "w:line": String(lineSpacing(body)), "w:lineRule": "auto"])
        x.end(); x.end()
        x.end()
    }

    /// `w:lang`: front matter `lang` (a well-formed tag, as HTML's `lang` is chosen), else `en`;
    /// the same tag for complex scripts (`w:bidi`) when the language is written right to left,
    /// and for East Asian text (`w:eastAsia`) when it is Chinese, Japanese or Korean.
    static func language(_ metadata: DocumentMetadata) -> KeyValuePairs<String, String> {
        let tag = metadata.language ?? "en"
        let primary = tag.split(separator: "-").first.map { $0.lowercased() } ?? ""
        let rtl = TextDirection.of(language: tag) == .rightToLeft
        let eastAsian = ["zh", "ja", "ko"].contains(primary)
        switch (rtl, eastAsian) {
        case (true, _): return ["w:val": tag, "w:bidi": tag]
        case (false, true): return ["w:val": tag, "w:eastAsia": tag]
        case (false, false): return ["w:val": tag]
        }
    }

    /// Line spacing in 240ths of a line (`w:lineRule="auto"`) from a style's line height.
    private func lineSpacing(_ s: ResolvedStyle) -> Int {
        s.size > 0 ? max(240, Int((s.lineHeight / s.size / 1.17 * 240).rounded())) : 240
    }

    /// One paragraph style (`w:style w:type="paragraph"`) from the theme's style of `role`.
    private func paragraphStyle(_ x: XMLStreamWriter, id: String, name: String, role: ThemeRole, isDefault: Bool = false,
                                basedOn: String? = "Normal", spaceBefore: Int? = nil, spaceAfter: Int? = nil,
                                keepNext: Bool = false, outline: Int? = nil, font: String? = nil, bold: Bool? = nil,
                                color: RGBColor? = nil, shading: RGBColor? = nil, indent: Int = 0) {
        let s = theme.style(for: role)
        x.start("w:style", ["w:type": "paragraph"])
        if isDefault { x.attribute("w:default", "1") }
        x.attribute("w:styleId", id)
        x.element("w:name", ["w:val": name])
        if let basedOn { x.element("w:basedOn", ["w:val": basedOn]) }
        x.element("w:next", ["w:val": id.hasPrefix("Heading") || id == "Title" || id == "TOCHeading" ? "Normal" : id])
        x.element("w:qFormat")
        x.start("w:pPr")
        if keepNext { x.element("w:keepNext") }
        if let shading { x.element("w:shd", ["w:val": "clear", "w:color": "auto", "w:fill": DOCXEmitter.hex(shading)]) }
        x.start("w:spacing")
        if let spaceBefore { x.attribute("w:before", String(spaceBefore)) }
        if let spaceAfter { x.attribute("w:after", String(spaceAfter)) }
        x.attribute("w:line", String(lineSpacing(s))); x.attribute("w:lineRule", "auto")
        x.end()
        if indent > 0 { x.element("w:ind", ["w:left": String(indent)]) }
        if let outline { x.element("w:outlineLvl", ["w:val": String(outline)]) }
        x.end()
        x.start("w:rPr")
        let f = font ?? s.font.portableFamily
        x.element("w:rFonts", ["w:ascii": f, "w:hAnsi": f, "w:cs": f])
        let isBold = bold ?? s.weight.isBold
        x.element("w:b", ["w:val": isBold ? "1" : "0"]); x.element("w:bCs", ["w:val": isBold ? "1" : "0"])
        if let color { x.element("w:color", ["w:val": DOCXEmitter.hex(color)]) }
        x.element("w:sz", ["w:val": String(DOCXEmitter.halfPoints(s.size))])
        x.element("w:szCs", ["w:val": String(DOCXEmitter.halfPoints(s.size))])
        x.end()
        x.end()
    }

    /// One character style whose run properties `rPr` writes.
    private func characterStyle(_ x: XMLStreamWriter, id: String, name: String, rPr: (XMLStreamWriter) -> Void) {
        x.start("w:style", ["w:type": "character", "w:styleId": id])
        x.element("w:name", ["w:val": name])
        x.start("w:rPr")
        rPr(x)
        x.end()
        x.end()
    }
}
