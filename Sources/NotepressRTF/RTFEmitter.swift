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
    public static func render(_ document: Document, theme: ResolvedTheme, diagnostics: inout [Diagnostic]) -> String {
        RTFSerializer.serialize(tree(document, theme: theme, diagnostics: &diagnostics)) + "\n"
    }

    /// The document as one RTF group `{\rtf1 …}`: header (font table, colour table, list table,
    /// list override table, `\info`), page setup, then the body.
    public static func tree(_ document: Document, theme: ResolvedTheme, diagnostics: inout [Diagnostic]) -> RTFNode {
        var builder = RTFBuilder(document: document, theme: theme)
        let node = builder.build()
        diagnostics += builder.diagnostics
        return node
    }

    /// `29 November 2026`: day, English month name, year, in UTC (the date badge).
    public static func badgeDate(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                      "October", "November", "December"]
        return "\(c.day!) \(months[c.month! - 1]) \(c.year!)"
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
        for block in document.blocks {
            if case .footnoteDefinition = block.kind { continue }
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
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: created)
            nodes.append(.group([.word("creatim"), .word("yr", c.year!), .word("mo", c.month!), .word("dy", c.day!),
                                 .word("hr", c.hour!), .word("min", c.minute!)]))
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
        if let title = document.metadata.title {
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

    // MARK: Blocks

    mutating func collectFootnotes(_ blocks: [Block]) {
        for b in blocks {
            if case .footnoteDefinition(let label, let bs) = b.kind, footnotes[label] == nil {
                footnotes[label] = bs
                footnoteOrder.append(label)
            }
            collectFootnotes(b.children)
        }
    }

    mutating func blockNodes(_ block: Block, _ ctx: BlockContext) -> [RTFNode] {
        switch block.kind {
        case .paragraph(let inl):
            let s = theme.style(for: ctx.inFootnote ? .footnote : (ctx.quoteDepth > 0 ? .blockQuote : .body))
            let props = indentProps(ctx) + [.word("sa", ctx.spaceAfter)] + lineProps(s) + charProps(s)
            return paragraph(props: props, content: inlineNodes(inl, ctx))
        case .heading(let level, let inl):
            let s = theme.style(for: .heading(level))
            let props: [RTFNode] = [.word("outlinelevel", min(max(level, 1), 6) - 1), .word("keepn"),
                                    .word("sb", 240), .word("sa", 120)] + indentProps(ctx) + lineProps(s)
                + charProps(s)
            return paragraph(props: props, content: inlineNodes(inl, ctx))
        case .blockQuote(let children):
            var c = ctx
            c.indent = min(c.indent + RTFEmitter.indentStep, RTFEmitter.maxIndent)
            c.quoteDepth += 1
            return children.flatMap { blockNodes($0, c) }
        case .list(let list):
            return listNodes(list, ctx)
        case .codeBlock(_, let literal):
            let s = theme.style(for: .code)
            var lines = literal.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            var content: [RTFNode] = []
            for (i, line) in lines.enumerated() {
                if i > 0 { content.append(.word("line")) }
                content.append(.text(line))
            }
            let props = indentProps(ctx) + [.word("sa", ctx.spaceAfter), .word("cbpat", Self.colorCodeBackground)]
                + lineProps(s) + charProps(s, font: codeFont)
            return paragraph(props: props, content: content)
        case .htmlBlock:
            return []
        case .thematicBreak:
            let props = indentProps(ctx) + [.word("sa", 120), .word("brdrb"), .word("brdrs"), .word("brdrw", 10),
                                            .word("brsp", 20), .word("brdrcf", Self.colorSecondary),
                                            // Readers merge adjacent paragraphs with equal borders and
                                            // draw one bottom border for the group; a between-border
                                            // keeps consecutive breaks visible as separate rules.
                                            .word("brdrbtw"), .word("brdrs"), .word("brdrw", 10), .word("brsp", 20),
                                            .word("brdrcf", Self.colorSecondary), .word("fs", 8)]
            return paragraph(props: props, content: [])
        case .table(let table):
            return tableNodes(table, ctx)
        case .footnoteDefinition:
            // Written at its first reference (or at the end when never referenced).
            return []
        case .unknown(let name, let children):
            diagnostics.append(Diagnostic(.warning, "RTF: unknown block '\(name)' written as its children",
                                          file: document.metadata.sourcePath, position: block.position))
            return children.flatMap { blockNodes($0, ctx) }
        }
    }

    /// Writes a pending list prefix as a paragraph of its own (a list item that starts with a
    /// table or a nested list).
    mutating func flushPrefix() -> [RTFNode] {
        guard pendingPrefix != nil else { return [] }
        let s = theme.style(for: .body)
        return paragraph(props: [.word("sa", 0)] + lineProps(s) + charProps(s), content: [])
    }

    mutating func listNodes(_ list: ListBlock, _ ctx: BlockContext) -> [RTFNode] {
        var nodes: [RTFNode] = flushPrefix()
        let level = min(ctx.listLevel, RTFEmitter.maxListLevel)
        var number = list.start
        var listIndex = -1
        var expected: Int? = nil
        for item in list.items {
            let itemNumber = item.number ?? number
            // A new \list whenever the numbering does not continue (note markup keeps each
            // line's own number), so that readers using the list table show the right number.
            if listIndex < 0 || (list.type == .ordered && expected != itemNumber) {
                lists.append(RTFList(ordered: list.type == .ordered, start: itemNumber, levels: level + 1))
                listIndex = lists.count
            }
            expected = itemNumber + 1
            number = itemNumber + 1
            let marker = list.type == .ordered ? "\(itemNumber)." : Self.bullet(level)
            let markerStyle = theme.style(for: .listMarker)
            var content: [RTFNode] = [.group([.word("listtext"), .word("f", font(of: markerStyle)),
                                              .word("fs", RTFEmitter.halfPoints(markerStyle.size)),
                                              .text(marker), .word("tab")])]
            if let task = item.task { content.append(.text(task == .checked ? "\u{2611} " : "\u{2610} ")) }
            var c = ctx
            c.indent = min(ctx.indent + RTFEmitter.listIndent(theme), RTFEmitter.maxIndent)
            c.listLevel = level + 1
            c.spaceAfter = list.tight ? 0 : 120
            let props: [RTFNode] = [.word("ls", listIndex), .word("ilvl", level), .word("fi", -RTFEmitter.listIndent(theme)),
                                    .word("li", c.indent), .word("tx", c.indent)]
            pendingPrefix = (props, content)
            for b in item.blocks { nodes += blockNodes(b, c) }
            if pendingPrefix != nil {
                // An empty item: still show its marker.
                let s = theme.style(for: .body)
                nodes += paragraph(props: [.word("sa", c.spaceAfter)] + lineProps(s) + charProps(s), content: [])
            }
        }
        if list.tight, let last = nodes.lastIndex(of: .word("sa", 0)) {
            // Space after the list as a whole.
            nodes[last] = .word("sa", ctx.spaceAfter)
        }
        return nodes
    }

    mutating func tableNodes(_ table: Table, _ ctx: BlockContext) -> [RTFNode] {
        let columns = max(table.alignments.count, 1)
        let available = RTFEmitter.textWidth - ctx.indent
        let width = available / columns
        var nodes: [RTFNode] = flushPrefix()
        let rows: [(cells: [Inlines], header: Bool)] = [(table.header, true)] + table.rows.map { ($0, false) }
        for row in rows {
            let s = theme.style(for: row.header ? .tableHeader : .tableCell)
            var r: [RTFNode] = [.newline, .word("trowd"), .word("trgaph", 108), .word("trleft", ctx.indent)]
            if row.header { r.append(.word("trhdr")) }
            for col in 0..<columns {
                r += [.word("clbrdrt"), .word("brdrs"), .word("brdrw", 10), .word("clbrdrl"), .word("brdrs"),
                      .word("brdrw", 10), .word("clbrdrb"), .word("brdrs"), .word("brdrw", 10), .word("clbrdrr"),
                      .word("brdrs"), .word("brdrw", 10)]
                let right = col == columns - 1 ? available : width * (col + 1)
                r.append(.word("cellx", ctx.indent + right))
            }
            for col in 0..<columns {
                let align: String
                switch col < table.alignments.count ? table.alignments[col] : .none {
                case .center: align = "qc"
                case .right: align = "qr"
                case .left, .none: align = "ql"
                }
                let cell = col < row.cells.count ? row.cells[col] : Inlines()
                var props: [RTFNode] = [.word("pard"), .word("plain"), .word("intbl"), .word(align)]
                props += lineProps(s) + charProps(s)
                if row.header && !s.weight.isBold { props.append(.word("b")) }
                r.append(.newline)
                r += props + inlineNodes(cell, ctx) + [.word("cell")]
            }
            r.append(.word("row"))
            nodes += r
        }
        // Leave table mode before the next paragraph.
        nodes += [.newline, .word("pard")]
        return nodes
    }

    // MARK: Inlines

    /// The outermost link or image span of a run: a field covers exactly the runs that share it.
    static func linkSpan(_ run: InlineRun) -> (id: Int, destination: String)? {
        for span in run.spans {
            switch span.kind {
            case .link(let l), .image(let l): return (span.id, l.destination)
            default: continue
            }
        }
        return nil
    }

    mutating func inlineNodes(_ inl: Inlines, _ ctx: BlockContext) -> [RTFNode] {
        var nodes: [RTFNode] = []
        var i = 0
        let runs = inl.runs
        while i < runs.count {
            if let link = Self.linkSpan(runs[i]) {
                var result: [RTFNode] = [.word("cf", Self.colorLink), .word("ul")]
                while i < runs.count, let l = Self.linkSpan(runs[i]), l.id == link.id {
                    result += runNodes(runs[i], ctx)
                    i += 1
                }
                nodes.append(.group([
                    .word("field"),
                    .group([.symbol("*"), .word("fldinst"), .group([.text("HYPERLINK \"" + Self.fieldQuoted(link.destination) + "\"")])]),
                    .group([.word("fldrslt"), .group(result)]),
                ]))
            } else {
                nodes += runNodes(runs[i], ctx)
                i += 1
            }
        }
        return nodes
    }

    /// A field argument's escaping (Word field syntax): `\` → `\\`, `"` → `\"`. The result is
    /// then RTF-escaped like all text.
    static func fieldQuoted(_ s: String) -> String {
        var out = ""
        for c in s {
            if c == "\\" || c == "\"" { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// Character properties of a run's attributes (on top of the paragraph's).
    func runProps(_ a: InlineAttributes) -> [RTFNode] {
        var p: [RTFNode] = []
        if a.strong { p.append(.word("b")) }
        if a.emphasis { p.append(.word("i")) }
        if a.strikethrough { p.append(.word("strike")) }
        if a.code { p.append(.word("f", codeFont)) } else if a.script { p.append(.word("f", scriptFont)) }
        if let ts = a.textStyle { p.append(.word("fs", RTFEmitter.halfPoints(theme.style(ts).size))) }
        if a.colorRole == .alert { p.append(.word("cf", Self.colorAlert)) }
        if a.marker { p.append(.word("cf", Self.colorSecondary)) }
        if a.letterpress { p.append(.word("impr")) }
        return p
    }

    mutating func runNodes(_ run: InlineRun, _ ctx: BlockContext) -> [RTFNode] {
        switch run.content {
        case .text(let t):
            let props = runProps(run.attributes)
            return props.isEmpty ? [.text(t)] : [.group(props + [.text(t)])]
        case .softBreak:
            return [.text(" ")]
        case .hardBreak:
            return [.word("line")]
        case .rawHTML:
            return []
        case .footnoteReference(let label, let number, _):
            guard !ctx.inFootnote, !writtenFootnotes.contains(label), let blocks = footnotes[label] else {
                return [.group([.word("super"), .text(String(number))])]
            }
            writtenFootnotes.insert(label)
            var c = BlockContext()
            c.inFootnote = true
            c.spaceAfter = 0
            let saved = pendingPrefix
            pendingPrefix = ([], [.group([.word("super"), .word("chftn")]), .text(" ")])
            var inner: [RTFNode] = []
            for b in blocks { inner += blockNodes(b, c) }
            if pendingPrefix != nil {
                let s = theme.style(for: .footnote)
                inner += paragraph(props: charProps(s), content: [])
            }
            pendingPrefix = saved
            // The last paragraph of a footnote ends with the group, not with \par.
            if inner.last == .word("par") { inner.removeLast() }
            return [.group([.word("super"), .word("chftn")]), .group([.word("footnote")] + inner)]
        }
    }
}
