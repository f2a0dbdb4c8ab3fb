import NotepressAST
import NotepressContainer
import NotepressThemes

/// The paragraph properties an automatic paragraph style adds to its named parent: indents,
/// bars (quotes, callouts), direction, alignment, spacing, a background, a title's weight and
/// colour. Equal keys share one style (`P1`, `P2`, … in order of first use).
struct ParagraphKey: Hashable {
    var parent: String
    var rightToLeft = false
    /// Left margin in points (`nil`: the parent's).
    var marginLeft: Double?
    /// A bar on the left: colour and width in points.
    var bar: RGBColor?
    var barWidth = 0.0
    var keepWithNext = false
    var noSpaceAfter = false
    /// `start`, `center`, `end` (`nil`: the parent's).
    var align: String?
    var background: RGBColor?
    var bold = false
    var color: RGBColor?
    /// Text properties of this theme role (the date line).
    var role: ThemeRole?

    /// Whether the key adds nothing to its parent (the parent's name is used as it is).
    var isPlain: Bool { self == ParagraphKey(parent: parent) }
}

/// The character properties of an automatic text style (`T1`, `T2`, …), from a run's attributes
/// or a highlighted code role.
struct TextKey: Hashable {
    /// `Source_20_Text` (code), `TeX_20_math` (math), or `nil`.
    var parent: String?
    var bold = false
    var italic = false
    var strike = false
    var underline = false
    var superscript = false
    var `subscript` = false
    /// The script (cursive) font (`~script~`).
    var script = false
    /// Font size in points (a text-style span).
    var size: Double?
    var color: RGBColor?
    var background: RGBColor?
    var engraved = false

    /// Whether the key adds nothing to its parent.
    var isPlain: Bool { self == TextKey(parent: parent) }
}

/// Where a block is written.
struct ODTContext {
    /// Left indent in points added by quotes, callouts and definitions.
    var indent = 0.0
    var quoteDepth = 0
    /// The bar of the enclosing callout.
    var bar: RGBColor?
    var inFootnote = false
    /// Depth of enclosing `text:list`s.
    var listDepth = 0
    /// In a tight list: no space after paragraphs.
    var tight = false
}

/// Writes one document's body and collects the automatic styles it uses.
struct ODTBuilder {
    let document: Document
    let theme: ResolvedTheme
    let sheet: ODTStyleSheet
    /// Keep dangerous link destinations live (``URLSafety``).
    var unsafe = false
    /// A site run's link report says which images are missing: not said again here.
    var missingImagesReported = false
    /// `--toc`.
    var tableOfContents: TableOfContents?
    /// The table written where a `[TOC]` marker is (``ContentsMarker``; `--toc`'s entries).
    var markerContents: TableOfContents?
    /// Tables of contents written as indexes so far (their names: ``writeTableOfContents(_:index:)``).
    var contentsIndexes = 0
    var diagnostics: [Diagnostic] = []
    /// The body (`office:body`), spliced into content.xml after the automatic styles.
    let x = XMLStreamWriter()
    var images: ODTImages

    var paragraphStyles: [ParagraphKey: String] = [:]
    var paragraphOrder: [ParagraphKey] = []
    var textStyles: [TextKey: String] = [:]
    var textOrder: [TextKey] = []
    /// List styles by kind, in order of first use (`L1`, `L2`, …).
    var listStyles: [ODTListKind] = []
    /// Tables: each one's column widths (relative).
    var tables: [[Int]] = []
    var frameCount = 0

    /// Footnote definitions by label, their labels in order of definition, those written.
    var footnotes: [String: [Block]] = [:]
    var footnoteOrder: [String] = []
    var writtenFootnotes: [String: Int] = [:]
    /// Bookmarks written (names are unique in a document).
    var bookmarks: Set<String> = []
    /// Bookmarks and text the next paragraph starts with.
    var pendingBookmarks: [String] = []
    var pendingText: String?
    /// The previous character written in this paragraph was a space (or the paragraph or line
    /// just started): the next space is written as `text:s`, which ODF does not collapse.
    var afterSpace = true
    /// The position of the block being written (for warnings about runs without their own).
    var currentPosition: SourcePosition?

    /// A builder of `document`'s body; images are read beside `sourceFile` (else the document's
    /// `sourcePath`).
    init(document: Document, theme: ResolvedTheme, sourceFile: String? = nil) {
        self.document = document
        self.theme = theme
        sheet = ODTStyleSheet(theme: theme)
        images = ODTImages(sourcePath: sourceFile ?? document.metadata.sourcePath)
    }

    // MARK: Automatic styles

    /// The style name of a paragraph with `key`'s properties.
    mutating func paragraphStyle(_ key: ParagraphKey) -> String {
        if key.isPlain { return key.parent }
        if let name = paragraphStyles[key] { return name }
        let name = "P\(paragraphOrder.count + 1)"
        paragraphStyles[key] = name
        paragraphOrder.append(key)
        return name
    }

    /// The style name of text with `key`'s properties (`nil`: no span needed).
    mutating func textStyle(_ key: TextKey) -> String? {
        if key.isPlain { return key.parent }
        if let name = textStyles[key] { return name }
        let name = "T\(textOrder.count + 1)"
        textStyles[key] = name
        textOrder.append(key)
        return name
    }

    /// The name of the list style for ordered or bullet lists (`L1`, `L2`).
    mutating func listStyle(ordered: Bool) -> String {
        listStyle(ordered ? .number : .bullet)
    }

    /// The name of the list style of `kind`, made on first use.
    mutating func listStyle(_ kind: ODTListKind) -> String {
        if let i = listStyles.firstIndex(of: kind) { return "L\(i + 1)" }
        listStyles.append(kind)
        return "L\(listStyles.count)"
    }

    /// content.xml: font faces, the automatic styles the body used, then the body.
    func contentXML(body: String, sheet: ODTStyleSheet) -> [UInt8] {
        let w = XMLStreamWriter()
        w.start("office:document-content", attributeList: ODFNamespace.documentDeclarations)
        sheet.writeFontFaces(w)
        w.start("office:automatic-styles")
        writeTableStyles(w)
        for key in paragraphOrder { writeParagraphStyle(w, key, name: paragraphStyles[key]!) }
        for key in textOrder { writeTextStyle(w, key, name: textStyles[key]!) }
        for (i, kind) in listStyles.enumerated() { writeListStyle(w, "L\(i + 1)", kind: kind) }
        w.start("style:style", ["style:name": "fr1", "style:family": "graphic"])
        w.start("style:graphic-properties", attributeList: [
            ("style:vertical-pos", "top"), ("style:vertical-rel", "baseline"), ("style:horizontal-pos", "center"),
            ("style:horizontal-rel", "paragraph"), ("fo:border", "none"), ("style:mirror", "none"),
        ])
        w.end()
        w.end()
        w.start("style:style", ["style:name": "Sect1", "style:family": "section"])
        w.start("style:section-properties", ["style:editable": "false"])
        w.end()
        w.end()
        w.end()
        // The body was written by the same libxml2 writer kind (well-formed, escaped); only its
        // XML declaration is dropped.
        w.raw(body)
        w.end()
        return w.bytes()
    }

    private func writeParagraphStyle(_ w: XMLStreamWriter, _ k: ParagraphKey, name: String) {
        w.start("style:style", ["style:name": name, "style:family": "paragraph", "style:parent-style-name": k.parent])
        var p: [(String, String)] = []
        if let m = k.marginLeft { p += [("fo:margin-left", ODTEmitter.pt(m)), ("fo:text-indent", "0pt")] }
        if k.noSpaceAfter { p.append(("fo:margin-bottom", "0pt")) }
        if let a = k.align { p.append(("fo:text-align", a)) }
        if k.keepWithNext { p.append(("fo:keep-with-next", "always")) }
        if let bg = k.background { p.append(("fo:background-color", ODTEmitter.color(bg))) }
        if let bar = k.bar {
            p += [("fo:padding-left", "6pt"), ("fo:border-left", ODTEmitter.pt(k.barWidth) + " solid " + ODTEmitter.color(bar)),
                  ("fo:border-right", "none"), ("fo:border-top", "none"), ("fo:border-bottom", "none")]
        }
        if k.rightToLeft {
            // LibreOffice (7.x) reads start and end as the left and right sides whatever the
            // direction (as it reads RTF's \ql and \qr): a right-to-left paragraph is "end".
            if k.align == nil { p.append(("fo:text-align", "end")) }
            p.append(("style:writing-mode", "rl-tb"))
        }
        if !p.isEmpty {
            w.start("style:paragraph-properties", attributeList: p)
            w.end()
        }
        if let role = k.role {
            sheet.writeTextProperties(w, theme.style(for: role), extra: k.bold ? [("fo:font-weight", "bold")] : [])
        } else if k.bold || k.color != nil {
            var t: [(String, String)] = []
            if let c = k.color { t.append(("fo:color", ODTEmitter.color(c))) }
            if k.bold { t += [("fo:font-weight", "bold"), ("style:font-weight-asian", "bold"), ("style:font-weight-complex", "bold")] }
            w.start("style:text-properties", attributeList: t)
            w.end()
        }
        w.end()
    }

    private func writeTextStyle(_ w: XMLStreamWriter, _ k: TextKey, name: String) {
        var a: [(String, String)] = [("style:name", name), ("style:family", "text")]
        if let p = k.parent { a.append(("style:parent-style-name", p)) }
        w.start("style:style", attributeList: a)
        var t: [(String, String)] = []
        if let c = k.color { t.append(("fo:color", ODTEmitter.color(c))) }
        if k.script { t.append(("style:font-name", theme.theme.scriptFont.portableFamily)) }
        if let s = k.size {
            let v = ODTEmitter.pt(s)
            t += [("fo:font-size", v), ("style:font-size-asian", v), ("style:font-size-complex", v)]
        }
        if k.italic || k.script { t += [("fo:font-style", "italic"), ("style:font-style-asian", "italic"), ("style:font-style-complex", "italic")] }
        if k.bold { t += [("fo:font-weight", "bold"), ("style:font-weight-asian", "bold"), ("style:font-weight-complex", "bold")] }
        if k.strike { t += [("style:text-line-through-style", "solid"), ("style:text-line-through-type", "single")] }
        if k.underline { t += [("style:text-underline-style", "solid"), ("style:text-underline-width", "auto"),
                               ("style:text-underline-color", "font-color")] }
        if k.superscript { t.append(("style:text-position", "super 58%")) } else if k.subscript { t.append(("style:text-position", "sub 58%")) }
        if k.engraved { t.append(("style:font-relief", "engraved")) }
        if let bg = k.background { t.append(("fo:background-color", ODTEmitter.color(bg))) }
        w.start("style:text-properties", attributeList: t)
        w.end()
        w.end()
    }

    /// A list style of ten levels, all bullets (•, ◦, ▪ in turn), all task boxes (☐ or ☒: a
    /// task item's own style, ``ODTListKind/task(checked:)``) or all numbers (`1.`, bold), each
    /// level indented one step more: two ems of the body size for bullets, two and a half for
    /// numbers (room for `100.`).
    private func writeListStyle(_ w: XMLStreamWriter, _ name: String, kind: ODTListKind) {
        let ordered = kind == .number
        let em = theme.style(for: .body).size
        let step = ordered ? em * 2.5 : em * 2
        w.start("text:list-style", ["style:name": name])
        for level in 1...ODTEmitter.maxListDepth {
            if ordered {
                w.start("text:list-level-style-number", attributeList: [
                    ("text:level", String(level)), ("text:style-name", "Numbering_20_Symbols"),
                    ("style:num-suffix", "."), ("style:num-format", "1"),
                ])
            } else {
                w.start("text:list-level-style-bullet", attributeList: [
                    ("text:level", String(level)), ("text:style-name", "Bullet_20_Symbols"),
                    ("text:bullet-char", kind == .task(checked: true) ? "\u{2612}" : kind == .task(checked: false) ? "\u{2610}"
                        : ["\u{2022}", "\u{25E6}", "\u{25AA}"][(level - 1) % 3]),
                ])
            }
            w.start("style:list-level-properties", ["text:list-level-position-and-space-mode": "label-alignment"])
            let left = ODTEmitter.pt(step * Double(level))
            w.start("style:list-level-label-alignment", attributeList: [
                ("text:label-followed-by", "listtab"), ("text:list-tab-stop-position", left),
                ("fo:text-indent", ODTEmitter.pt(-step)), ("fo:margin-left", left),
            ])
            w.end()
            w.end()
            w.end()
        }
        w.end()
    }

    /// Every table's style (its width) and its columns' (relative widths).
    private func writeTableStyles(_ w: XMLStreamWriter) {
        for (t, widths) in tables.enumerated() {
            let name = "Table\(t + 1)"
            w.start("style:style", ["style:name": name, "style:family": "table"])
            w.start("style:table-properties", ["style:width": ODTEmitter.pt(ODTEmitter.textWidth), "table:align": "margins"])
            w.end()
            w.end()
            let total = Double(max(widths.reduce(0, +), 1))
            for (c, width) in widths.enumerated() {
                w.start("style:style", ["style:name": "\(name).\(Self.columnName(c))", "style:family": "table-column"])
                w.start("style:table-column-properties", ["style:column-width": ODTEmitter.pt(ODTEmitter.textWidth * Double(width) / total),
                                                          "style:rel-column-width": "\(width)*"])
                w.end()
                w.end()
            }
        }
        if !tables.isEmpty {
            w.start("style:style", ["style:name": "TableCell", "style:family": "table-cell"])
            w.start("style:table-cell-properties", ["fo:padding": "3pt",
                                                    "fo:border": "0.5pt solid " + ODTEmitter.color(theme.colors.secondary)])
            w.end()
            w.end()
        }
    }

    /// A column's letters as spreadsheets name them: A … Z, AA, AB, ….
    static func columnName(_ index: Int) -> String {
        var n = index + 1, s = ""
        while n > 0 {
            let r = (n - 1) % 26
            s = String(UnicodeScalar(UInt8(65 + r))) + s
            n = (n - 1) / 26
        }
        return s
    }
}

/// What a list style numbers its items with.
enum ODTListKind: Equatable {
    /// •, ◦, ▪ by level.
    case bullet
    /// `1.`
    case number
    /// ☐ or ☒ at every level: the style a bullet list's task item overrides its list's with.
    case task(checked: Bool)
}
