import Foundation
import NotepressAST
import NotepressThemes

/// Renders a ``Document`` as RTF 1.9.1 (Microsoft "Rich Text Format (RTF) Specification",
/// version 1.9.1) styled by a ``ResolvedTheme`` (issue 4).
///
/// The output is built as an ``RTFNode`` tree and written by ``RTFSerializer``; text reaches the
/// output only through ``RTFSerializer/escapeText(_:)``. Page: US Letter with 1-inch margins,
/// so the text width is 6.5 inches (9360 twips). Sizes: `\fs` in half-points, spacing and
/// indents in twips (1/20 point). Output is deterministic: same document and theme, same bytes.
public enum RTFEmitter {
    /// The text width in twips: 8.5-inch paper minus two 1-inch margins.
    public static let textWidth = 9360
    /// Indent per block-quote depth, in twips (a quarter inch).
    public static let indentStep = 360
    /// The deepest left indent in twips (half the text width): deeper containers stay there.
    public static let maxIndent = textWidth / 2
    /// RTF lists have nine levels, `\ilvl0`…`\ilvl8` (RTF 1.9.1, "Lists"); deeper lists use the last.
    public static let maxListLevel = 8

    /// Indent per list level in twips: two ems of the body size (680 twips at 17 pt), so that
    /// the marker (`10.`) fits the hanging indent at every size category.
    public static func listIndent(_ theme: ResolvedTheme) -> Int { twips(theme.style(for: .body).size * 2) }

    /// The whole document as RTF text. Warnings (unknown blocks) are appended to `diagnostics`.
    /// `unsafe` (`--unsafe`) keeps dangerous link destinations live (``URLSafety``).
    /// `tableOfContents` (`--toc`, made from this document) is written after the title and date
    /// with links to its headings (``RTFBuilder/tableOfContentsNodes(_:)``).
    public static func render(_ document: Document, theme: ResolvedTheme, unsafe: Bool = false,
                              tableOfContents: TableOfContents? = nil, diagnostics: inout [Diagnostic]) -> String {
        RTFSerializer.serialize(tree(document, theme: theme, unsafe: unsafe, tableOfContents: tableOfContents,
                                     diagnostics: &diagnostics)) + "\n"
    }

    /// The document as one RTF group `{\rtf1 …}`: header (font table, colour table, list table,
    /// list override table, `\info`), page setup, then the body.
    public static func tree(_ document: Document, theme: ResolvedTheme, unsafe: Bool = false,
                            tableOfContents: TableOfContents? = nil, diagnostics: inout [Diagnostic]) -> RTFNode {
        var builder = RTFBuilder(document: document, theme: theme)
        builder.unsafe = unsafe
        builder.tableOfContents = tableOfContents
        let node = builder.build()
        diagnostics += builder.diagnostics
        return node
    }

    /// `29 November 2026`: day, English month name, year, in UTC, proleptic Gregorian
    /// (``CivilDateTime``; the date badge).
    public static func badgeDate(_ date: Date) -> String {
        let c = CivilDateTime(date)
        return "\(c.day) \(CivilDateTime.monthNames[c.month - 1]) \(c.year)"
    }

    /// `\fs` value for a size in points: half-points, rounded.
    public static func halfPoints(_ points: Double) -> Int { Int((points * 2).rounded()) }
    /// Twips for a length in points, rounded.
    public static func twips(_ points: Double) -> Int { Int((points * 20).rounded()) }
}

/// A font table entry: family name and RTF font family keyword (`fswiss`, `froman`, `fmodern`,
/// `fscript`).
struct RTFFont: Equatable {
    var name: String
    var family: String
}

/// One `\list` of the list table: ordered (decimal) or bullet, levels 0…`levels-1` all of the
/// same kind, numbering starting at `start`.
struct RTFList {
    var ordered: Bool
    var start: Int
    var levels: Int
}

/// Where a block is written: indentation and the list/quote/footnote/table it is in.
struct BlockContext {
    /// Left indent in twips.
    var indent = 0
    /// Nesting level of lists (0 outside lists and in a top-level list's items).
    var listLevel = 0
    /// Number of enclosing block quotes.
    var quoteDepth = 0
    var inFootnote = false
    /// Space after each paragraph in twips (0 in tight lists).
    var spaceAfter = 120
}

/// Builds the tree. One per document.
struct RTFBuilder {
    let document: Document
    let theme: ResolvedTheme
    /// Keep dangerous link destinations live (``URLSafety``).
    var unsafe = false
    /// `--toc`: the table written after the title, made from this document's top-level headings.
    var tableOfContents: TableOfContents?
    var diagnostics: [Diagnostic] = []

    var fonts: [RTFFont] = []
    var lists: [RTFList] = []
    /// Footnote definitions by label.
    var footnotes: [String: [Block]] = [:]
    /// Footnote labels in document order.
    var footnoteOrder: [String] = []
    var writtenFootnotes: Set<String> = []
    /// List properties and content (list text, task box) the next paragraph starts with.
    var pendingPrefix: (props: [RTFNode], content: [RTFNode])?

    // Colour table indices (entry 0 is "auto").
    static let colorText = 1, colorAlert = 2, colorLink = 3, colorSecondary = 4, colorCodeBackground = 5

    let bodyFont: Int, codeFont: Int, scriptFont: Int

    init(document: Document, theme: ResolvedTheme) {
        self.document = document
        self.theme = theme
        func keyword(_ g: GenericFamily) -> String { g == .serif ? "froman" : "fswiss" }
        let body = theme.style(for: .body)
        var fonts = [RTFFont(name: body.family, family: keyword(body.generic))]
        fonts.append(RTFFont(name: theme.theme.codeFont.family, family: "fmodern"))
        fonts.append(RTFFont(name: theme.theme.scriptFont.family, family: "fscript"))
        for role in ThemeRole.allCases where role != .code {
            let s = theme.style(for: role)
            let f = RTFFont(name: s.family, family: keyword(s.generic))
            if !fonts.contains(f) { fonts.append(f) }
        }
        self.fonts = fonts
        bodyFont = 0; codeFont = 1; scriptFont = 2
    }

    /// The font table index of a text style's font.
    func font(of style: ResolvedStyle) -> Int {
        let f = RTFFont(name: style.family, family: style.generic == .serif ? "froman" : "fswiss")
        return fonts.firstIndex(of: f) ?? bodyFont
    }

    mutating func build() -> RTFNode {
        collectFootnotes(document.blocks)
        var body: [RTFNode] = []
        body += titleAndBadge()
        let ctx = BlockContext()
        // The table lists the top-level headings of its levels in order: entry `next` is the
        // next top-level heading of its level.
        let entries = tableOfContents?.entries ?? []
        if let toc = tableOfContents { body += tableOfContentsNodes(toc) }
        var next = 0
        for block in document.blocks {
            if case .footnoteDefinition = block.kind { continue }
            if case .heading(let level, _) = block.kind, next < entries.count, entries[next].level == level {
                pendingPrefix = ([], Self.bookmark(next))
                next += 1
            }
            body += blockNodes(block, ctx)
        }
        // Definitions never referenced are written at the end so that no text is lost.
        for label in footnoteOrder where !writtenFootnotes.contains(label) {
            if let blocks = footnotes[label] {
                writtenFootnotes.insert(label)
                var c = ctx
                c.spaceAfter = 120
                pendingPrefix = ([], [.group([.word("super"), .text(label)]), .text(" ")])
                for b in blocks { body += blockNodes(b, c) }
                if pendingPrefix != nil { body += paragraph(props: [], content: []) }
            }
        }
        var doc: [RTFNode] = [.word("rtf", 1), .word("ansi"), .word("ansicpg", 1252), .word("deff", 0), .word("uc", 1)]
        doc.append(.newline)
        doc.append(fontTable())
        doc.append(.newline)
        doc.append(colorTable())
        if !lists.isEmpty {
            doc.append(.newline)
            doc += listTables()
        }
        doc.append(.newline)
        doc.append(info())
        doc.append(.newline)
        doc += [.word("paperw", 12240), .word("paperh", 15840), .word("margl", 1440), .word("margr", 1440),
                .word("margt", 1440), .word("margb", 1440), .word("ftnbj"), .word("ftnnar")]
        doc += body
        doc.append(.newline)
        return .group(doc)
    }

    // MARK: Header

    func fontTable() -> RTFNode {
        var entries: [RTFNode] = [.word("fonttbl")]
        for (i, f) in fonts.enumerated() {
            // A `;` would end the entry early; font names never need one.
            let name = f.name.replacingOccurrences(of: ";", with: "")
            // `\fprq1` (fixed pitch) for the code font, `\fprq2` (variable) otherwise, so readers
            // without the family pick a fitting substitute.
            // `{\*\falt …}`: a common font of the same kind for readers without the family.
            let alternative = ["fmodern": "Courier New", "froman": "Times New Roman", "fscript": "Zapf Chancery"][f.family]
                ?? "Helvetica"
            entries.append(.group([.word("f", i), .word(f.family), .word("fprq", f.family == "fmodern" ? 1 : 2),
                                   .word("fcharset", 0), .text(name),
                                   .group([.symbol("*"), .word("falt"), .text(alternative)]), .semicolon]))
        }
        return .group(entries)
    }

    func colorTable() -> RTFNode {
        let c = theme.colors
        var nodes: [RTFNode] = [.word("colortbl"), .semicolon]
        for color in [c.text, c.alert, c.link, c.secondary, c.codeBackground] {
            nodes += [.word("red", Int(color.red)), .word("green", Int(color.green)), .word("blue", Int(color.blue)),
                      .semicolon]
        }
        return .group(nodes)
    }

    /// `\listtable` and `\listoverridetable` (RTF 1.9.1, "Lists"). List `i` has `\listid(i+1)`
    /// and is used through override `\ls(i+1)`.
    func listTables() -> [RTFNode] {
        var table: [RTFNode] = [.symbol("*"), .word("listtable")]
        var overrides: [RTFNode] = [.symbol("*"), .word("listoverridetable")]
        for (i, list) in lists.enumerated() {
            var l: [RTFNode] = [.word("list"), .word("listtemplateid", i + 1), .word("listsimple", 0)]
            for level in 0..<list.levels {
                var lv: [RTFNode] = [.word("listlevel"), .word("levelnfc", list.ordered ? 0 : 23),
                                     .word("levelnfcn", list.ordered ? 0 : 23), .word("leveljc", 0),
                                     .word("leveljcn", 0), .word("levelfollow", 0),
                                     .word("levelstartat", list.ordered ? list.start : 1), .word("levelspace", 0),
                                     .word("levelindent", 0)]
                if list.ordered {
                    // Level text: length 2, the placeholder for this level, then a period.
                    lv.append(.group([.word("leveltext"), .hex(2), .hex(UInt8(level)), .text("."), .semicolon]))
                    lv.append(.group([.word("levelnumbers"), .hex(1), .semicolon]))
                } else {
                    lv.append(.group([.word("leveltext"), .hex(1), .text(Self.bullet(level)), .semicolon]))
                    lv.append(.group([.word("levelnumbers"), .semicolon]))
                }
                let step = RTFEmitter.listIndent(theme)
                lv += [.word("fi", -step), .word("li", step * (level + 1)), .word("lin", step * (level + 1))]
                l.append(.group(lv))
            }
            l.append(.word("listid", i + 1))
            table.append(.group(l))
            overrides.append(.group([.word("listoverride"), .word("listid", i + 1), .word("listoverridecount", 0),
                                     .word("ls", i + 1)]))
        }
        return [.group(table), .newline, .group(overrides)]
    }

    /// The bullet of a list level: •, ◦, ▪ in turn.
    static func bullet(_ level: Int) -> String { ["\u{2022}", "\u{25E6}", "\u{25AA}"][level % 3] }

    func info() -> RTFNode {
        var nodes: [RTFNode] = [.word("info")]
        if let title = document.metadata.title { nodes.append(.group([.word("title"), .text(title)])) }
        if let created = document.metadata.created {
            let c = CivilDateTime(created)
            nodes.append(.group([.word("creatim"), .word("yr", c.year), .word("mo", c.month), .word("dy", c.day),
                                 .word("hr", c.hour), .word("min", c.minute)]))
        }
        return .group(nodes)
    }

    // MARK: Paragraph building

    /// Character properties of a style: font, size in half-points, bold when the weight is.
    func charProps(_ style: ResolvedStyle, font: Int? = nil) -> [RTFNode] {
        var p: [RTFNode] = [.word("f", font ?? self.font(of: style)), .word("fs", RTFEmitter.halfPoints(style.size)),
                            .word("cf", Self.colorText)]
        if style.weight.isBold { p.append(.word("b")) }
        return p
    }

    /// Line spacing from the style's leading: `\slN\slmult0`, N = line height × 20 (twips).
    func lineProps(_ style: ResolvedStyle) -> [RTFNode] {
        [.word("sl", RTFEmitter.twips(style.lineHeight)), .word("slmult", 0)]
    }

    /// Indentation and quote bar of a context.
    func indentProps(_ ctx: BlockContext) -> [RTFNode] {
        var p: [RTFNode] = []
        if ctx.indent > 0 { p.append(.word("li", ctx.indent)) }
        if ctx.quoteDepth > 0 {
            p += [.word("brdrl"), .word("brdrs"), .word("brdrw", 20), .word("brsp", 80),
                  .word("brdrcf", Self.colorSecondary)]
        }
        return p
    }

    /// `\pard\plain` + props + (pending list prefix) + content + `\par`.
    mutating func paragraph(props: [RTFNode], content: [RTFNode]) -> [RTFNode] {
        var p: [RTFNode] = [.newline, .word("pard"), .word("plain")]
        var c = content
        if let prefix = pendingPrefix {
            pendingPrefix = nil
            p += props + prefix.props
            c = prefix.content + content
        } else {
            p += props
        }
        return p + c + [.word("par")]
    }

    // MARK: Title and date badge

    mutating func titleAndBadge() -> [RTFNode] {
        var nodes: [RTFNode] = []
        // A title taken from the body's first heading is shown there, not twice.
        if let title = document.metadata.title, document.metadata.titleSource != .firstHeading {
            let s = theme.style(for: .noteTitle)
            nodes += paragraph(props: [.word("sa", 120)] + lineProps(s) + charProps(s) + [.word("impr")],
                               content: [.text(title)])
        }
        if let created = document.metadata.created {
            let s = theme.style(for: .dateBadge)
            nodes += paragraph(props: [.word("qr"), .word("sa", 240)] + lineProps(s) + charProps(s)
                                   + [.word("cf", Self.colorSecondary)],
                               content: [.text(RTFEmitter.badgeDate(created))])
        }
        return nodes
    }
}
