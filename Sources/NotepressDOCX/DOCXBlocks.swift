import Foundation
import NotepressAST
import NotepressThemes

/// Blocks: paragraphs, headings, lists, quotes, callouts, code, breaks, definition lists (see
/// ``DOCXEmitter``; tables in DOCXTable.swift).
extension DOCXBuilder {
    func collectFootnotes(_ blocks: [Block]) {
        let found = Document.footnoteDefinitions(in: blocks)
        for label in found.order where footnotes[label] == nil {
            footnotes[label] = found.byLabel[label]
            footnoteOrder.append(label)
        }
    }

    /// The bookmark names of `block`'s raw HTML ids that no block has and none was written for.
    func rawAnchorBookmarks(_ block: Block) -> [String] {
        if rawBookmarks == nil { rawBookmarks = document.rawAnchorsWithoutBlock }
        var out: [String] = []
        for id in block.anchors where rawBookmarks?.remove(id) != nil { out.append(WordBookmark.name(forID: id)) }
        return out
    }

    /// Writes one block.
    func writeBlock(_ block: Block, _ ctx: DOCXContext) {
        if let id = block.id {
            switch block.kind {
            case .paragraph, .heading: pendingBookmarks.append(WordBookmark.name(forID: id))
            default: break
            }
        }
        if !block.anchors.isEmpty { pendingBookmarks += rawAnchorBookmarks(block) }
        switch block.kind {
        case .paragraph(let inl):
            let style = ctx.inFootnote ? "FootnoteText" : (ctx.quoteDepth > 0 ? "Quote" : nil)
            writeLineParagraphs(inl, ctx, style: style)
        case .heading(let level, let inl):
            var p = DOCXParagraph(style: DOCXParts.headingStyle(level))
            p.rightToLeft = Self.direction(inl, 0..<inl.runs.count) == .rightToLeft
            p.spaceAfter = 120
            beginParagraph(p, ctx)
            writeInlines(inl, ctx)
            endParagraph()
        case .blockQuote(let children):
            var c = ctx
            c.indent = min(c.indent + 360, DOCXEmitter.maxIndent)
            c.quoteDepth += 1
            for child in children { writeBlock(child, c) }
        case .alert(let alert):
            writeCallout(alert, ctx)
        case .list(let list):
            writeList(list, ctx)
        case .codeBlock:
            writeCodeBlock(block, ctx)
        case .htmlBlock:
            break
        case .thematicBreak:
            var p = DOCXParagraph()
            p.ruleBelow = theme.colors.secondary
            beginParagraph(p, ctx)
            endParagraph()
        case .table(let table):
            writeTable(table, block.position, ctx)
        case .footnoteDefinition:
            break  // written at its first reference (or at the end when never referenced)
        case .unknown(ContentsMarker.typeName, _) where markerContents != nil:
            writeTableOfContents(markerContents!)
        case .unknown(let name, let children):
            if !ContentTabs.isTabs(name) { warn("unknown block '\(name)' written as its children", at: block.position) }
            for child in children { writeBlock(child, ctx) }
        case .definitionList(let items):
            var inner = ctx
            inner.indent = min(inner.indent + 360, DOCXEmitter.maxIndent)
            for item in items {
                var p = DOCXParagraph(keepNext: true)
                p.rightToLeft = Self.direction(item.term, 0..<item.term.runs.count) == .rightToLeft
                p.spaceAfter = 60
                beginParagraph(p, ctx)
                writeInlines(item.term, ctx, bold: true)
                endParagraph()
                for definition in item.definitions { for child in definition { writeBlock(child, inner) } }
            }
        }
    }

    /// A paragraph as one Word paragraph per line (a hard break starts the next, with no space
    /// between), so that each line takes its own direction, as RTF and the HTML page do.
    func writeLineParagraphs(_ inl: Inlines, _ ctx: DOCXContext, style: String?) {
        let table = InlineAttributeTable(inl)
        let runs = inl.runs
        var start = 0
        while true {
            var end = start
            while end < runs.count, runs[end].content != .hardBreak { end += 1 }
            let last = end == runs.count
            var p = DOCXParagraph(style: style)
            p.rightToLeft = Self.direction(inl, start..<end) == .rightToLeft
            p.spaceAfter = last ? ctx.spaceAfter : 0
            beginParagraph(p, ctx)
            writeInlines(inl, start..<end, table, ctx)
            endParagraph()
            if last { break }
            start = end + 1
        }
    }

    /// A callout: its title bold in the kind's colour (``AlertPalette``), then its blocks, every
    /// paragraph in a box of that colour (readers draw adjacent equal boxes as one).
    func writeCallout(_ alert: Alert, _ ctx: DOCXContext) {
        var c = ctx
        c.indent = min(c.indent + 120, DOCXEmitter.maxIndent)
        let color = AlertPalette.color(alert.kind)
        c.calloutColor = color
        var p = DOCXParagraph(keepNext: true)
        p.spaceAfter = 60
        beginParagraph(p, c)
        if let t = alert.markedTitle {
            writeInlines(t, c, bold: true, color: color)
        } else {
            var r = DOCXRun()
            r.bold = true; r.color = color
            run(alert.displayTitle, r)
        }
        endParagraph()
        for b in alert.blocks { writeBlock(b, c) }
    }

    /// A code block: one Source Code paragraph, lines separated by `w:br`, highlighted roles in
    /// the theme's light code colours (bold, italic) as RTF draws them; a library theme's own
    /// background (`--highlight-style`) shades the paragraph.
    func writeCodeBlock(_ block: Block, _ ctx: DOCXContext) {
        guard case .codeBlock(_, let literal) = block.kind else { return }
        var text = Substring(literal)
        if text.hasSuffix("\n") { text = text.dropLast() }
        let palette = theme.theme.codeLight
        var p = DOCXParagraph(style: "SourceCode")
        if block.highlight != nil, let bg = palette.background { p.shading = bg }
        beginParagraph(p, ctx)
        let plain = block.highlight != nil && palette.background != nil ? palette.styles[.plain]?.color : nil
        let pieces: [(role: CodeRole, text: Substring)] = block.highlight?.pieces(of: String(text)) ?? [(.plain, text)]
        for (role, piece) in pieces {
            let style = role == .plain ? nil : palette.styles[role]
            var r = DOCXRun()
            r.color = style?.color ?? plain
            r.bold = style?.bold ?? false
            r.italic = style?.italic ?? false
            for (i, line) in piece.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if i > 0 { x.start("w:r"); x.element("w:br"); x.end() }
                if !line.isEmpty { run(String(line), r) }
            }
        }
        endParagraph()
    }

    /// A list through numbering definitions: a top-level list is a new list (`w:num`) with an
    /// abstract numbering of its own; a nested list is the next level of its parent's list when
    /// that level is free or of the same kind (Word restarts a level after each item above it),
    /// else a list of its own. Ordered lists keep their start number; where note markup's kept
    /// numbers do not continue, a new instance restarts the level at the item's number.
    func writeList(_ list: ListBlock, _ ctx: DOCXContext) {
        flushPending(ctx)
        let level = min(ctx.listLevel, DOCXEmitter.maxListLevel)
        let ordered = list.type == .ordered
        var largest = list.start, next = list.start
        for item in list.items where ordered {
            largest = max(largest, abs(item.number ?? next))
            next = (item.number ?? next) + 1
        }
        // The hanging indent holds the marker: `1000.` needs more than a bullet.
        let hanging = ordered ? max(360, 110 * (String(largest).count + 1) + 100) : 360
        let step = max(720, hanging + 240)
        let kind: DOCXListKind = !ordered ? .bullet : (list.delimiter == .parenthesis ? .parenthesis : .period)
        let first = ordered ? (list.items.first?.number ?? list.start) : 1
        var current: (id: Int, abstract: Int)
        if let parent = ctx.list, level > 0, abstractLists[parent.abstract].levels[level] == nil
            || (abstractLists[parent.abstract].levels[level]?.kind == kind && abstractLists[parent.abstract].levels[level]?.start == first) {
            abstractLists[parent.abstract].levels[level] = (kind, first)
            current = parent
        } else {
            var abstract = DOCXAbstractList()
            abstract.levels[level] = (kind, first)
            abstractLists.append(abstract)
            lists.append(DOCXList(abstract: abstractLists.count - 1))
            current = (lists.count, abstractLists.count - 1)
        }
        var expected = first
        for item in list.items {
            let number = item.number ?? expected
            if ordered, number != expected {
                lists.append(DOCXList(abstract: current.abstract, restart: (level, number)))
                current.id = lists.count
            }
            expected = number + 1
            var c = ctx
            c.indent = min(ctx.indent + step, DOCXEmitter.maxIndent)
            c.listLevel = level + 1
            c.list = current
            c.spaceAfter = list.tight ? 0 : 120
            // A bullet list's task item: the box is its bullet (a numbering of boxes); an ordered
            // one keeps its number, the box starting its text.
            if let task = item.task, !ordered {
                pendingNumbering = (taskNumbering(checked: task == .checked), level, hanging)
            } else {
                pendingNumbering = (current.id, level, hanging)
                pendingTask = item.task
            }
            for b in item.blocks { writeBlock(b, c) }
            flushPending(c)
        }
    }

    /// The numbering (`w:num` id) whose every level's bullet is ☐, or ☒ when `checked`, made once.
    func taskNumbering(checked: Bool) -> Int {
        if let id = taskLists[checked] { return id }
        var abstract = DOCXAbstractList()
        abstract.levels = abstract.levels.map { _ in (DOCXListKind.task(checked: checked), 1) }
        abstractLists.append(abstract)
        lists.append(DOCXList(abstract: abstractLists.count - 1))
        taskLists[checked] = lists.count
        return lists.count
    }

    /// The direction of the runs of `inl` in `range` (their text's first strong character).
    static func direction(_ inl: Inlines, _ range: Range<Int>) -> TextDirection? {
        for i in range {
            if case .text(let t) = inl.runs[i].content, let d = TextDirection.base(of: t) { return d }
        }
        return nil
    }
}
