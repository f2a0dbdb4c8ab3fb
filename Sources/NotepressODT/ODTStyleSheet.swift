import NotepressAST
import NotepressContainer
import NotepressThemes

/// `styles.xml`: the named styles the body refers to, made from the theme's text styles at the
/// size category, with LibreOffice's own style names (internal name with `_20_` for spaces,
/// display name as LibreOffice shows it), so that its style list, navigator, outline and table
/// of contents treat them as its own:
///
/// | name | made from | |
/// |---|---|---|
/// | Standard, Text_20_body | body | 6 pt after |
/// | Title | noteTitle | engraved, as the HTML title's letterpress |
/// | Heading_20_1 … Heading_20_6 | heading1 … heading6 | outline levels 1–6, kept with the next |
/// | Quotations | blockQuote | indented, a bar on the left |
/// | Preformatted_20_Text | code | code font, code background |
/// | Footnote | footnote | |
/// | Caption | caption | |
/// | Table_20_Contents, Table_20_Heading | tableCell, tableHeader (bold) | |
/// | Contents_20_Heading, Contents_20_1 … _6 | heading2, body | the table of contents |
/// | Horizontal_20_Line | | a rule (thematic break) |
///
/// Character styles: Internet_20_link (link colour, underlined), Visited_20_Internet_20_Link,
/// Source_20_Text (code font), TeX_20_math (math as TeX source), Numbering_20_Symbols (list
/// numbers, bold), Bullet_20_Symbols, Footnote_20_Symbol and Footnote_20_anchor (superscript).
struct ODTStyleSheet {
    let theme: ResolvedTheme

    /// The font faces every part declares: each role's font, the code, script and East Asian
    /// fonts, by ``FontFamily/portableFamily`` (the one family a document names), in a fixed order.
    var fonts: [FontFamily] {
        let t = theme.theme
        var out: [FontFamily] = []
        for f in [theme.style(for: .body).font, t.codeFont, t.scriptFont, t.eastAsianFont]
            + ThemeRole.allCases.map({ theme.style(for: $0).font }) where !out.contains(where: { $0.portableFamily == f.portableFamily }) {
            out.append(f)
        }
        return out
    }

    /// Writes `office:font-face-decls`.
    func writeFontFaces(_ x: XMLStreamWriter) {
        x.start("office:font-face-decls")
        for f in fonts {
            let generic: String
            switch f.generic {
            case .serif: generic = "roman"
            case .monospace: generic = "modern"
            case .cursive: generic = "script"
            case .sansSerif, .systemUI: generic = "swiss"
            }
            let name = f.portableFamily
            x.start("style:font-face", attributeList: [
                ("style:name", name), ("svg:font-family", name.contains(" ") ? "'\(name)'" : name),
                ("style:font-family-generic", generic), ("style:font-pitch", f.generic == .monospace ? "fixed" : "variable"),
            ])
            x.end()
        }
        x.end()
    }

    /// Writes `style:text-properties` for a theme style: its font (or `font`), size and weight
    /// for Latin, East Asian (the theme's East Asian font) and complex (the same font) text, and
    /// the text colour when `colored`.
    func writeTextProperties(_ x: XMLStreamWriter, _ s: ResolvedStyle, font: FontFamily? = nil, colored: Bool = false,
                             extra: [(String, String)] = []) {
        let name = (font ?? s.font).portableFamily
        let size = ODTEmitter.pt(s.size)
        let weight = s.weight.isBold ? "bold" : "normal"
        var a: [(String, String)] = [
            ("style:font-name", name), ("fo:font-size", size), ("fo:font-weight", weight),
            ("style:font-name-asian", theme.theme.eastAsianFont.portableFamily), ("style:font-size-asian", size),
            ("style:font-weight-asian", weight),
            ("style:font-name-complex", name), ("style:font-size-complex", size), ("style:font-weight-complex", weight),
        ]
        if colored { a.insert(("fo:color", ODTEmitter.color(theme.colors.text)), at: 0) }
        // An extra property replaces the style's own of the same name (an attribute is written once).
        for (k, v) in extra {
            if let i = a.firstIndex(where: { $0.0 == k }) { a[i].1 = v } else { a.append((k, v)) }
        }
        x.start("style:text-properties", attributeList: a)
        x.end()
    }

    /// A named paragraph style: `name` (`_20_` for spaces) shown as `display`, with its
    /// paragraph properties, then the text properties of theme style `s` (if any).
    func paragraphStyle(_ x: XMLStreamWriter, _ name: String, _ display: String, parent: String?, next: String? = nil,
                        outline: Int? = nil, styleClass: String = "text", paragraph: [(String, String)] = [],
                        text s: ResolvedStyle? = nil, font: FontFamily? = nil, textExtra: [(String, String)] = []) {
        var a: [(String, String)] = [("style:name", name)]
        if display != name { a.append(("style:display-name", display)) }
        a.append(("style:family", "paragraph"))
        if let parent { a.append(("style:parent-style-name", parent)) }
        if let next { a.append(("style:next-style-name", next)) }
        if let outline { a.append(("style:default-outline-level", String(outline))) }
        a.append(("style:class", styleClass))
        x.start("style:style", attributeList: a)
        var p = paragraph
        if let s { p.append(("style:line-height-at-least", ODTEmitter.pt(s.lineHeight))) }
        if !p.isEmpty {
            x.start("style:paragraph-properties", attributeList: p)
            x.end()
        }
        if let s { writeTextProperties(x, s, font: font, extra: textExtra) }
        x.end()
    }

    /// A named character style with `text` properties.
    func textStyle(_ x: XMLStreamWriter, _ name: String, _ display: String, parent: String? = nil, _ text: [(String, String)]) {
        var a: [(String, String)] = [("style:name", name)]
        if display != name { a.append(("style:display-name", display)) }
        a.append(("style:family", "text"))
        if let parent { a.append(("style:parent-style-name", parent)) }
        x.start("style:style", attributeList: a)
        x.start("style:text-properties", attributeList: text)
        x.end()
        x.end()
    }

    /// The whole `styles.xml`.
    func stylesXML() -> [UInt8] {
        let x = XMLStreamWriter()
        x.start("office:document-styles", attributeList: ODFNamespace.documentDeclarations)
        writeFontFaces(x)
        x.start("office:styles")
        writeDefaultStyle(x)
        writeParagraphStyles(x)
        writeTextStyles(x)
        writeOutlineAndNotes(x)
        x.end()
        x.start("office:automatic-styles")
        x.start("style:page-layout", ["style:name": "pm1"])
        x.start("style:page-layout-properties", attributeList: [
            ("fo:page-width", "8.5in"), ("fo:page-height", "11in"), ("style:print-orientation", "portrait"),
            ("fo:margin-top", "1in"), ("fo:margin-bottom", "1in"), ("fo:margin-left", "1in"), ("fo:margin-right", "1in"),
            ("style:writing-mode", "lr-tb"),
        ])
        x.start("style:footnote-sep", attributeList: [
            ("style:width", "0.007in"), ("style:distance-before-sep", "0.04in"), ("style:distance-after-sep", "0.04in"),
            ("style:line-style", "solid"), ("style:adjustment", "left"), ("style:rel-width", "25%"),
            ("style:color", ODTEmitter.color(theme.colors.secondary)),
        ])
        x.end()
        x.end()
        x.end()
        x.end()
        x.start("office:master-styles")
        x.start("style:master-page", ["style:name": "Standard", "style:page-layout-name": "pm1"])
        x.end()
        x.end()
        x.end()
        return x.bytes()
    }

    private func writeDefaultStyle(_ x: XMLStreamWriter) {
        x.start("style:default-style", ["style:family": "paragraph"])
        x.start("style:paragraph-properties", ["style:writing-mode": "page", "fo:hyphenation-ladder-count": "no-limit"])
        x.end()
        writeTextProperties(x, theme.style(for: .body), colored: true, extra: [("fo:hyphenate", "false")])
        x.end()
    }

    private func writeParagraphStyles(_ x: XMLStreamWriter) {
        let body = theme.style(for: .body)
        let after = [("fo:margin-top", "0pt"), ("fo:margin-bottom", "6pt")]
        paragraphStyle(x, "Standard", "Standard", parent: nil, styleClass: "text")
        paragraphStyle(x, "Text_20_body", "Text body", parent: "Standard", paragraph: after, text: body)
        paragraphStyle(x, "Heading", "Heading", parent: "Standard", next: "Text_20_body",
                       paragraph: [("fo:margin-top", "12pt"), ("fo:margin-bottom", "6pt"), ("fo:keep-with-next", "always")],
                       text: theme.style(for: .heading1))
        for level in 1...6 {
            paragraphStyle(x, "Heading_20_\(level)", "Heading \(level)", parent: "Heading", next: "Text_20_body", outline: level,
                           paragraph: [("fo:margin-top", "12pt"), ("fo:margin-bottom", "6pt")],
                           text: theme.style(for: .heading(level)))
        }
        paragraphStyle(x, "Title", "Title", parent: "Heading", next: "Text_20_body", styleClass: "chapter",
                       paragraph: [("fo:margin-bottom", "6pt")], text: theme.style(for: .noteTitle),
                       textExtra: [("style:font-relief", "engraved")])
        paragraphStyle(x, "Quotations", "Quotations", parent: "Standard", styleClass: "html",
                       paragraph: after + [("fo:margin-left", ODTEmitter.pt(ODTEmitter.indentStep)),
                                           ("fo:border-left", "1pt solid " + ODTEmitter.color(theme.colors.secondary)),
                                           ("fo:padding-left", "4pt"), ("fo:border-right", "none"), ("fo:border-top", "none"),
                                           ("fo:border-bottom", "none")],
                       text: theme.style(for: .blockQuote))
        paragraphStyle(x, "Preformatted_20_Text", "Preformatted Text", parent: "Standard", styleClass: "html",
                       paragraph: after + [("fo:background-color", ODTEmitter.color(theme.colors.codeBackground)),
                                           ("fo:padding", "3pt")],
                       text: theme.style(for: .code), font: theme.theme.codeFont)
        paragraphStyle(x, "Footnote", "Footnote", parent: "Standard", styleClass: "extra",
                       paragraph: [("fo:margin-left", "0.2in"), ("fo:text-indent", "-0.2in")], text: theme.style(for: .footnote))
        paragraphStyle(x, "Caption", "Caption", parent: "Standard", styleClass: "extra",
                       paragraph: [("fo:margin-top", "3pt"), ("fo:margin-bottom", "6pt")], text: theme.style(for: .caption))
        paragraphStyle(x, "Table_20_Contents", "Table Contents", parent: "Standard", styleClass: "extra",
                       text: theme.style(for: .tableCell))
        let header = theme.style(for: .tableHeader)
        paragraphStyle(x, "Table_20_Heading", "Table Heading", parent: "Table_20_Contents", styleClass: "extra",
                       text: header, textExtra: [("fo:font-weight", "bold"), ("style:font-weight-asian", "bold"),
                                                 ("style:font-weight-complex", "bold")])
        paragraphStyle(x, "Contents_20_Heading", "Contents Heading", parent: "Heading", styleClass: "index",
                       text: theme.style(for: .heading2))
        for level in 1...6 {
            paragraphStyle(x, "Contents_20_\(level)", "Contents \(level)", parent: "Standard", styleClass: "index",
                           paragraph: [("fo:margin-left", ODTEmitter.pt(Double(level - 1) * ODTEmitter.indentStep)),
                                       ("fo:margin-bottom", "3pt")], text: body)
        }
        paragraphStyle(x, "Horizontal_20_Line", "Horizontal Line", parent: "Standard", styleClass: "html",
                       paragraph: [("fo:margin-bottom", "6pt"), ("fo:padding", "0pt"),
                                   ("fo:border-bottom", "0.5pt solid " + ODTEmitter.color(theme.colors.secondary)),
                                   ("fo:border-top", "none"), ("fo:border-left", "none"), ("fo:border-right", "none")],
                       textExtra: [("fo:font-size", "4pt")])
    }

    private func writeTextStyles(_ x: XMLStreamWriter) {
        let link = ODTEmitter.color(theme.colors.link)
        let underline = [("style:text-underline-style", "solid"), ("style:text-underline-width", "auto"),
                         ("style:text-underline-color", "font-color")]
        textStyle(x, "Internet_20_link", "Internet link", [("fo:color", link)] + underline)
        textStyle(x, "Visited_20_Internet_20_Link", "Visited Internet Link", [("fo:color", link)] + underline)
        textStyle(x, "Index_20_Link", "Index Link", [("fo:color", link)])
        let code = theme.theme.codeFont.portableFamily
        textStyle(x, "Source_20_Text", "Source Text", [("style:font-name", code), ("style:font-name-asian", code),
                                                       ("style:font-name-complex", code)])
        textStyle(x, "TeX_20_math", "TeX math", parent: "Source_20_Text",
                  [("fo:color", ODTEmitter.color(theme.colors.secondary)),
                   ("fo:background-color", ODTEmitter.color(theme.colors.codeBackground))])
        let marker = theme.style(for: .listMarker)
        textStyle(x, "Numbering_20_Symbols", "Numbering Symbols",
                  [("style:font-name", marker.font.portableFamily), ("fo:font-weight", "bold"), ("style:font-weight-complex", "bold")])
        textStyle(x, "Bullet_20_Symbols", "Bullet Symbols", [("style:font-name", marker.font.portableFamily)])
        textStyle(x, "Footnote_20_Symbol", "Footnote Symbol", [])
        textStyle(x, "Footnote_20_anchor", "Footnote anchor", [("style:text-position", "super 58%")])
    }

    /// The outline style (headings unnumbered at every level) and the footnotes' configuration.
    private func writeOutlineAndNotes(_ x: XMLStreamWriter) {
        x.start("text:outline-style", ["style:name": "Outline"])
        for level in 1...10 {
            x.start("text:outline-level-style", ["text:level": String(level), "style:num-format": ""])
            x.end()
        }
        x.end()
        x.start("text:notes-configuration", attributeList: [
            ("text:note-class", "footnote"), ("text:citation-style-name", "Footnote_20_Symbol"),
            ("text:citation-body-style-name", "Footnote_20_anchor"), ("text:default-style-name", "Footnote"),
            ("style:num-format", "1"), ("text:start-value", "0"), ("text:footnotes-position", "page"),
            ("text:start-numbering-at", "document"),
        ])
        x.end()
    }
}
