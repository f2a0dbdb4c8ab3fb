import Foundation
import NotepressAST
import NotepressThemes

/// Blocks: paragraphs, headings, lists, quotes, alerts, code, footnotes (see ``RTFEmitter``;
/// tables in RTFTable.swift).
extension RTFBuilder {

    mutating func collectFootnotes(_ blocks: [Block]) {
        let found = Document.footnoteDefinitions(in: blocks)
        for label in found.order where footnotes[label] == nil {
            footnotes[label] = found.byLabel[label]
            footnoteOrder.append(label)
        }
    }

    /// The bookmarks of `block`'s raw HTML ids (``Block/anchors``, named by
    /// ``bookmarkName(forID:)`` as links to `#id` are) not written yet and no block's id.
    mutating func rawAnchorBookmarks(_ block: Block) -> [RTFNode] {
        if rawBookmarks == nil { rawBookmarks = document.rawAnchorsWithoutBlock }
        var out: [RTFNode] = []
        for id in block.anchors where rawBookmarks?.remove(id) != nil {
            out += Self.bookmark(named: Self.bookmarkName(forID: id))
        }
        return out
    }

    /// Writes one block.
    mutating func writeBlock(_ block: Block, _ ctx: BlockContext) {
        // A block's id (heading ids, block anchors, at any depth: a list item's anchor too) is a
        // bookmark: `page.rtf#id` and `#id` links find it.
        if let id = block.id {
            switch block.kind {
            case .paragraph, .heading: pendingBookmarks += Self.bookmark(named: Self.bookmarkName(forID: id))
            default: break
            }
        }
        if !block.anchors.isEmpty { pendingBookmarks += rawAnchorBookmarks(block) }
        switch block.kind {
        case .paragraph(let inl):
            let s = theme.style(for: ctx.inFootnote ? .footnote : (ctx.quoteDepth > 0 ? .blockQuote : .body))
            writeLineParagraphs(inl, ctx, style: s)
        case .heading(let level, let inl):
            let s = theme.style(for: .heading(level))
            beginParagraph()
            writeDirection(Self.direction(inl, 0..<inl.runs.count))
            out.word("outlinelevel", min(max(level, 1), 6) - 1); out.word("keepn"); out.word("sb", 240)
            out.spaceAfter(120)
            writeIndentProps(ctx); writeLineProps(s); writeCharProps(s)
            writePendingPrefix()
            writeInlines(inl, ctx)
            endParagraph()
        case .blockQuote(let children):
            var c = ctx
            c.indent = min(c.indent + RTFEmitter.indentStep, RTFEmitter.maxIndent)
            c.quoteDepth += 1
            for child in children { writeBlock(child, c) }
        case .alert(let alert):
            writeAlert(alert, ctx)
        case .list(let list):
            writeList(list, ctx)
        case .codeBlock(_, let literal):
            let s = theme.style(for: .code)
            var lines = literal.split(separator: "\n", omittingEmptySubsequences: false)
            if lines.last == "" { lines.removeLast() }
            beginParagraph()
            // A highlighted block under a library theme (`--highlight-style`) is shaded in that
            // theme's own background and its plain text in the theme's plain colour, as in HTML
            // (``CodePalette/background``): a dark style's light text stays readable.
            let palette = theme.theme.codeLight
            let library = block.highlight != nil ? palette.background : nil
            out.word("ltrpar"); writeIndentProps(ctx); out.spaceAfter(ctx.spaceAfter)
            out.word("cbpat", library.map { extraColor($0) } ?? Self.colorCodeBackground)
            writeLineProps(s); writeCharProps(s, font: codeFont)
            if library != nil, let plain = palette.styles[.plain] { out.word("cf", extraColor(plain.color)) }
            writePendingPrefix()
            if let h = block.highlight {
                writeHighlightedCode(literal, h)
            } else {
                for (i, line) in lines.enumerated() {
                    if i > 0 { out.word("line") }
                    out.text(String(line))
                }
            }
            endParagraph()
        case .htmlBlock:
            break
        case .thematicBreak:
            beginParagraph()
            writeIndentProps(ctx)
            out.spaceAfter(120); out.word("brdrb"); out.word("brdrs"); out.word("brdrw", 10); out.word("brsp", 20)
            out.word("brdrcf", Self.colorSecondary)
            // Readers merge adjacent paragraphs with equal borders and draw one bottom border for
            // the group; a between-border keeps consecutive breaks visible as separate rules.
            out.word("brdrbtw"); out.word("brdrs"); out.word("brdrw", 10); out.word("brsp", 20)
            out.word("brdrcf", Self.colorSecondary); out.word("fs", 8)
            writePendingPrefix()
            endParagraph()
        case .table(let table):
            writeTable(table, ctx)
        case .footnoteDefinition:
            // Written at its first reference (or at the end when never referenced).
            break
        case .unknown(ContentsMarker.typeName, _) where markerContents != nil:
            writeTableOfContents(markerContents!)
        case .unknown(let name, let children):
            if !ContentTabs.isTabs(name) { diagnostics.append(Diagnostic(.warning, "RTF: unknown block '\(name)' written as its children",
                                          file: document.metadata.sourcePath, position: block.position)) }
            for child in children { writeBlock(child, ctx) }
        case .definitionList(let items):
            writeDefinitionList(items, ctx)
        }
    }

    /// A definition list: each term a bold paragraph kept with what follows, its definitions'
    /// blocks indented one step below it.
    mutating func writeDefinitionList(_ items: [DefinitionItem], _ ctx: BlockContext) {
        let s = theme.style(for: .body)
        var inner = ctx
        inner.indent = min(inner.indent + RTFEmitter.indentStep, RTFEmitter.maxIndent)
        for item in items {
            beginParagraph()
            writeDirection(Self.direction(item.term, 0..<item.term.runs.count))
            out.word("keepn"); writeIndentProps(ctx); out.spaceAfter(60)
            writeLineProps(s); writeCharProps(s); out.word("b")
            writePendingPrefix()
            writeInlines(item.term, ctx)
            endParagraph()
            for definition in item.definitions {
                for child in definition { writeBlock(child, inner) }
            }
        }
    }

    /// Writes a paragraph as one RTF paragraph per line: a hard line break (note markup's line
    /// ends, Markdown's hard breaks) starts a new one with no space between, so that each line
    /// takes its own direction (``writeDirection(_:)``) as the HTML page's lines do under
    /// `unicode-bidi: plaintext`. The last line gets the context's space after. The attribute
    /// table is built once for the whole paragraph.
    mutating func writeLineParagraphs(_ inl: Inlines, _ ctx: BlockContext, style s: ResolvedStyle) {
        let table = InlineAttributeTable(inl)
        let runs = inl.runs
        var start = 0
        while true {
            var end = start
            while end < runs.count, runs[end].content != .hardBreak { end += 1 }
            let last = end == runs.count
            beginParagraph()
            writeDirection(Self.direction(inl, start..<end))
            writeIndentProps(ctx)
            out.spaceAfter(last ? ctx.spaceAfter : 0)
            writeLineProps(s); writeCharProps(s)
            writePendingPrefix()
            writeInlines(inl, start..<end, table, ctx)
            endParagraph()
            if last { break }
            start = end + 1
        }
    }

    /// Writes an alert: its title (``Alert/Kind/title``) bold in the kind's colour
    /// (``AlertPalette``), then its blocks, all indented one step with a bar in that colour on
    /// the left.
    mutating func writeAlert(_ alert: Alert, _ ctx: BlockContext) {
        var c = ctx
        c.indent = min(c.indent + RTFEmitter.indentStep, RTFEmitter.maxIndent)
        let color = alertColor(alert.kind)
        c.alertColor = color
        let s = theme.style(for: .body)
        beginParagraph()
        out.word("ltrpar"); out.word("keepn"); writeIndentProps(c); out.spaceAfter(60); writeLineProps(s)
        writeCharProps(s); out.word("b"); out.word("cf", color)
        writePendingPrefix()
        // A callout's title keeps its markup (code, emphasis, math, links) in the title's style.
        if let t = alert.markedTitle { writeInlines(t, c) } else { out.text(alert.displayTitle) }
        endParagraph()
        for b in alert.blocks { writeBlock(b, c) }
    }

    /// Writes a pending list prefix as a paragraph of its own (a list item that starts with a
    /// table or a nested list).
    mutating func flushPrefix() {
        guard pendingPrefix != nil else { return }
        let s = theme.style(for: .body)
        beginParagraph()
        out.spaceAfter(0); writeLineProps(s); writeCharProps(s)
        writePendingPrefix()
        endParagraph()
    }

    /// Writes a list. The marker's formatting comes from the list level (see ``writeListTables(into:)``):
    /// numbers bold (note markup's numbered lines, README; HTML draws every ordered list's
    /// numbers bold), bullets regular, neither ever italic or struck like the item's text. The
    /// `\listtext` group (for readers without list tables) states the same, after `\pard\plain`.
    mutating func writeList(_ list: ListBlock, _ ctx: BlockContext) {
        let listStart = out.bytes.count
        flushPrefix()
        let level = min(ctx.listLevel, RTFEmitter.maxListLevel)
        var number = list.start
        var listIndex = -1
        var expected: Int? = nil
        let markerStyle = theme.style(for: .listMarker)
        let markerFont = font(of: markerStyle)
        let markerSize = RTFEmitter.halfPoints(markerStyle.size)
        let ordered = list.type == .ordered
        var largest = list.start, next = list.start
        for item in list.items where ordered {
            largest = max(largest, abs(item.number ?? next))
            next = (item.number ?? next) + 1
        }
        let indent = RTFEmitter.listIndent(theme, digits: ordered ? String(largest).count : 0)
        for item in list.items {
            let itemNumber = item.number ?? number
            // A new \list whenever the numbering does not continue (note markup keeps each
            // line's own number), so that readers using the list table show the right number.
            if listIndex < 0 || (ordered && expected != itemNumber) {
                lists.append(RTFList(ordered: ordered, start: itemNumber, levels: level + 1, indent: indent))
                listIndex = lists.count
            }
            expected = itemNumber + 1
            number = itemNumber + 1
            var c = ctx
            c.indent = min(ctx.indent + indent, RTFEmitter.maxIndent)
            c.listLevel = level + 1
            c.spaceAfter = list.tight ? 0 : 120
            pendingPrefix = .listItem(ListItemPrefix(
                list: listIndex, level: level, indent: indent, leftIndent: c.indent, ordered: ordered,
                marker: ordered ? "\(itemNumber)." : Self.bullet(level), markerFont: markerFont, markerSize: markerSize,
                task: item.task))
            for b in item.blocks { writeBlock(b, c) }
            if pendingPrefix != nil {
                // An empty item: still show its marker.
                let s = theme.style(for: .body)
                beginParagraph()
                out.word("ltrpar"); out.spaceAfter(c.spaceAfter); writeLineProps(s); writeCharProps(s)
                writePendingPrefix()
                endParagraph()
            }
        }
        // Space after the list as a whole.
        if list.tight { out.setLastZeroSpaceAfter(since: listStart, to: ctx.spaceAfter) }
    }
}
