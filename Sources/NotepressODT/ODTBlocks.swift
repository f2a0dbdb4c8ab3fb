import NotepressAST
import NotepressThemes

/// Blocks (see ``ODTEmitter``): paragraphs, headings, quotes, callouts, lists, code, rules,
/// definition lists; tables and the table of contents in ODTTables.swift.
extension ODTBuilder {
    /// The body: `office:body` / `office:text` with the title, the date, the table of contents,
    /// the blocks, and footnote definitions never referenced (so that no text is lost). Returned
    /// as text without its XML declaration, for ``contentXML(body:sheet:)``.
    mutating func buildBody() -> String {
        collectFootnotes(document.blocks)
        x.start("office:body")
        x.start("office:text")
        titleAndDate()
        if let toc = tableOfContents, !toc.isEmpty { writeTableOfContents(toc) }
        let ctx = ODTContext()
        for block in document.blocks { writeBlock(block, ctx) }
        for label in footnoteOrder where writtenFootnotes[label] == nil {
            guard let blocks = footnotes[label] else { continue }
            writtenFootnotes[label] = writtenFootnotes.count + 1
            var c = ctx
            c.inFootnote = true
            pendingText = label + ". "
            for b in blocks { writeBlock(b, c) }
            flushPending(ctx)
        }
        x.end()
        x.end()
        let bytes = x.bytes()
        // Drop the declaration line libxml2 starts every document with.
        var start = 0
        if bytes.starts(with: Array("<?xml".utf8)), let end = bytes.firstIndex(of: UInt8(ascii: ">")) {
            start = end + 1
            while start < bytes.count, bytes[start] == 0x0A { start += 1 }
        }
        return String(decoding: bytes[start...], as: UTF8.self)
    }

    mutating func collectFootnotes(_ blocks: [Block]) {
        let found = Document.footnoteDefinitions(in: blocks)
        for label in found.order where footnotes[label] == nil {
            footnotes[label] = found.byLabel[label]
            footnoteOrder.append(label)
        }
    }

    /// The title (unless the first heading is the title) in the Title style, then the date
    /// (`29 November 2026`) in the date badge's style, right-aligned.
    mutating func titleAndDate() {
        if let title = document.metadata.title, document.metadata.titleSource != .firstHeading {
            var key = ParagraphKey(parent: "Title")
            key.rightToLeft = TextDirection.base(of: title) == .rightToLeft
            beginParagraph(paragraphStyle(key))
            writeText(title)
            x.end()
        }
        if let created = document.metadata.created {
            var key = ParagraphKey(parent: "Text_20_body")
            key.align = "end"
            key.role = .dateBadge
            beginParagraph(paragraphStyle(key))
            writeText(CivilDateTime(created).longDate)
            x.end()
        }
    }

    /// Opens `text:p` (or `text:h` of `outline` level) in `style`, then writes what is pending:
    /// bookmarks, a task box or a footnote's label.
    mutating func beginParagraph(_ style: String, outline: Int? = nil) {
        if let outline {
            x.start("text:h", ["text:style-name": style, "text:outline-level": String(outline)])
        } else {
            x.start("text:p", ["text:style-name": style])
        }
        afterSpace = true
        for name in pendingBookmarks where bookmarks.insert(name).inserted {
            x.start("text:bookmark", ["text:name": name])
            x.end()
        }
        pendingBookmarks.removeAll()
        if let t = pendingText {
            pendingText = nil
            writeText(t)
        }
    }

    /// An empty paragraph carrying what is pending (an empty list item's task box), if anything is.
    mutating func flushPending(_ ctx: ODTContext) {
        guard pendingText != nil || !pendingBookmarks.isEmpty else { return }
        beginParagraph(paragraphStyle(bodyKey(ctx, nil)))
        x.end()
    }

    /// The paragraph key of body text in `ctx`: Text body, Quotations or Footnote, with the
    /// context's indent, bar and spacing and the text's direction.
    func bodyKey(_ ctx: ODTContext, _ direction: TextDirection?) -> ParagraphKey {
        var key = ParagraphKey(parent: ctx.inFootnote ? "Footnote" : (ctx.quoteDepth > 0 ? "Quotations" : "Text_20_body"))
        applyContext(&key, ctx)
        key.rightToLeft = direction == .rightToLeft
        return key
    }

    /// Adds the context's indent (outside lists: a list's levels indent its items), callout bar
    /// and tight spacing to `key`.
    func applyContext(_ key: inout ParagraphKey, _ ctx: ODTContext) {
        if ctx.listDepth == 0, ctx.indent > 0 || ctx.quoteDepth > 1 {
            let base = key.parent == "Quotations" ? ODTEmitter.indentStep : 0
            let indent = min(ctx.indent, ODTEmitter.maxIndent)
            if indent != base { key.marginLeft = indent }
        }
        if let bar = ctx.bar { key.bar = bar; key.barWidth = 2 }
        if ctx.tight { key.noSpaceAfter = true }
    }

    /// Writes one block.
    mutating func writeBlock(_ block: Block, _ ctx: ODTContext) {
        if let p = block.position { currentPosition = p }
        if let id = block.id {
            switch block.kind {
            case .paragraph, .heading: pendingBookmarks.append(id)
            default: break
            }
        }
        pendingBookmarks += block.anchors
        switch block.kind {
        case .paragraph(let inl):
            beginParagraph(paragraphStyle(bodyKey(ctx, Self.direction(inl))))
            writeInlines(inl, ctx)
            x.end()
        case .heading(let level, let inl):
            let l = min(max(level, 1), 6)
            var key = ParagraphKey(parent: "Heading_20_\(l)")
            key.rightToLeft = Self.direction(inl) == .rightToLeft
            applyContext(&key, ctx)
            key.noSpaceAfter = false
            beginParagraph(paragraphStyle(key), outline: l)
            writeInlines(inl, ctx)
            x.end()
        case .blockQuote(let children):
            var c = ctx
            c.indent += ODTEmitter.indentStep
            c.quoteDepth += 1
            for child in children { writeBlock(child, c) }
        case .alert(let alert):
            writeAlert(alert, ctx)
        case .list(let list):
            writeList(list, ctx)
        case .codeBlock(_, let literal):
            writeCode(block, literal, ctx)
        case .htmlBlock:
            break
        case .thematicBreak:
            var key = ParagraphKey(parent: "Horizontal_20_Line")
            applyContext(&key, ctx)
            beginParagraph(paragraphStyle(key))
            x.end()
        case .table(let table):
            writeTable(table, ctx)
        case .footnoteDefinition:
            // Written at its first reference (or at the end when never referenced).
            break
        case .unknown(ContentsMarker.typeName, _) where markerContents != nil:
            flushPending(ctx)
            if !markerContents!.isEmpty { writeTableOfContents(markerContents!, index: ctx.listDepth == 0 && !ctx.inFootnote) }
        case .unknown(let name, let children):
            if !ContentTabs.isTabs(name) {
                diagnostics.append(Diagnostic(.warning, "ODT: unknown block '\(name)' written as its children",
                                              file: document.metadata.sourcePath, position: block.position))
            }
            for child in children { writeBlock(child, ctx) }
        case .definitionList(let items):
            var inner = ctx
            inner.indent += ODTEmitter.indentStep
            for item in items {
                var key = bodyKey(ctx, Self.direction(item.term))
                key.bold = true
                key.keepWithNext = true
                beginParagraph(paragraphStyle(key))
                writeInlines(item.term, ctx)
                x.end()
                for definition in item.definitions {
                    for child in definition { writeBlock(child, inner) }
                }
            }
        }
    }

    /// A code block: one Preformatted Text paragraph, lines split by `text:line-break`, spaces
    /// kept (`text:s`); highlighted runs in the palette's colours, bold and italic. Under a
    /// library theme (`--highlight-style`) the block takes that theme's background and plain colour.
    mutating func writeCode(_ block: Block, _ literal: String, _ ctx: ODTContext) {
        var text = Substring(literal)
        if text.hasSuffix("\n") { text = text.dropLast() }
        let palette = theme.theme.codeLight
        var key = ParagraphKey(parent: "Preformatted_20_Text")
        applyContext(&key, ctx)
        key.noSpaceAfter = ctx.tight
        if block.highlight != nil, let bg = palette.background {
            key.background = bg
            key.color = palette.styles[.plain]?.color
        }
        beginParagraph(paragraphStyle(key))
        if let h = block.highlight {
            for (role, piece) in h.pieces(of: String(text)) {
                guard role != .plain, let style = palette.styles[role] else { writeText(String(piece), code: true); continue }
                var k = TextKey()
                k.color = style.color
                k.bold = style.bold
                k.italic = style.italic
                writeSpan(textStyle(k), String(piece), code: true)
            }
        } else {
            writeText(String(text), code: true)
        }
        x.end()
    }

    /// A callout: its title (``Alert/markedTitle`` or the kind's name) bold in the kind's colour
    /// (``AlertPalette``), then its blocks, all indented one step with a bar of that colour on
    /// the left (adjacent paragraphs with equal borders join into one bar).
    mutating func writeAlert(_ alert: Alert, _ ctx: ODTContext) {
        var c = ctx
        c.indent += ODTEmitter.indentStep
        c.bar = AlertPalette.color(alert.kind)
        var key = ParagraphKey(parent: "Text_20_body")
        applyContext(&key, c)
        key.bold = true
        key.color = c.bar
        key.keepWithNext = true
        key.noSpaceAfter = true
        if let t = alert.markedTitle {
            key.rightToLeft = Self.direction(t) == .rightToLeft
            beginParagraph(paragraphStyle(key))
            writeInlines(t, c)
        } else {
            beginParagraph(paragraphStyle(key))
            writeText(alert.displayTitle)
        }
        x.end()
        for b in alert.blocks { writeBlock(b, c) }
    }

    /// A list as `text:list` in the bullet or number list style (``listStyle(ordered:)``); an
    /// item whose number does not continue the count (the first one's start, note markup's own
    /// numbers) says so with `text:start-value`. A bullet list's task item has ☐ or ☒ as its bullet
    /// (`text:style-override`); an ordered one's first paragraph starts with it.
    /// Deeper than ``ODTEmitter/maxListDepth``: paragraphs indented to the deepest level, each
    /// item's first one starting with its marker.
    mutating func writeList(_ list: ListBlock, _ ctx: ODTContext) {
        let ordered = list.type == .ordered
        let flat = ctx.listDepth >= ODTEmitter.maxListDepth
        if !flat {
            flushPending(ctx)
            x.start("text:list", ["text:style-name": listStyle(ordered: ordered)])
        }
        var expected = 1
        for (index, item) in list.items.enumerated() {
            let number = item.number ?? (index == 0 ? list.start : expected)
            var task = item.task.map { $0 == .checked ? "\u{2612} " : "\u{2610} " } ?? ""
            if flat {
                // The box is a task item's bullet.
                if ordered || task.isEmpty { task = (ordered ? "\(number). " : "\u{2022} ") + task }
            } else if ordered && number != expected {
                x.start("text:list-item", ["text:start-value": String(number)])
            } else if let t = item.task, !ordered {
                // A bullet list's task item: its box is its bullet (its own list style), as pandoc.
                x.start("text:list-item", ["text:style-override": listStyle(.task(checked: t == .checked))])
                task = ""
            } else {
                x.start("text:list-item")
            }
            expected = number + 1
            var c = ctx
            if !flat { c.listDepth += 1 }
            c.tight = list.tight
            if !task.isEmpty { pendingText = task }
            if item.blocks.isEmpty, !flat { pendingText = pendingText ?? "" }
            for b in item.blocks { writeBlock(b, c) }
            flushPending(c)
            if !flat { x.end() }
        }
        if !flat { x.end() }
    }

    /// The direction of the first strong character of `inl`'s text.
    static func direction(_ inl: Inlines) -> TextDirection? {
        for run in inl.runs {
            if case .text(let t) = run.content, let d = TextDirection.base(of: t) { return d }
        }
        return nil
    }
}
