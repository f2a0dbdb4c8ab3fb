import Foundation
import NotepressAST
import NotepressThemes

/// Blocks: paragraphs, headings, lists, quotes, alerts, code, footnotes (see ``RTFEmitter``;
/// tables in RTFTable.swift).
extension RTFBuilder {

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
            return lineParagraphs(inl, ctx, before: indentProps(ctx), after: lineProps(s) + charProps(s))
        case .heading(let level, let inl):
            let s = theme.style(for: .heading(level))
            let props: [RTFNode] = Self.directionProps(Self.direction(inl, 0..<inl.runs.count))
                + [.word("outlinelevel", min(max(level, 1), 6) - 1), .word("keepn"), .word("sb", 240), .word("sa", 120)]
                + indentProps(ctx) + lineProps(s) + charProps(s)
            return paragraph(props: props, content: inlineNodes(inl, ctx))
        case .blockQuote(let children):
            var c = ctx
            c.indent = min(c.indent + RTFEmitter.indentStep, RTFEmitter.maxIndent)
            c.quoteDepth += 1
            return children.flatMap { blockNodes($0, c) }
        case .alert(let alert):
            return alertNodes(alert, ctx)
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
            let props = [.word("ltrpar")] + indentProps(ctx) + [.word("sa", ctx.spaceAfter), .word("cbpat", Self.colorCodeBackground)]
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

    /// A paragraph as one RTF paragraph per line: a hard line break (note markup's line ends,
    /// Markdown's hard breaks) starts a new one with no space between, so that each line takes
    /// its own direction (``directionProps(_:)``) as the HTML page's lines do under
    /// `unicode-bidi: plaintext`. The last line gets the context's space after. The attribute
    /// table is built once for the whole paragraph.
    mutating func lineParagraphs(_ inl: Inlines, _ ctx: BlockContext, before: [RTFNode], after: [RTFNode]) -> [RTFNode] {
        let table = InlineAttributeTable(inl)
        var ranges: [Range<Int>] = []
        var start = 0
        for (i, run) in inl.runs.enumerated() where run.content == .hardBreak {
            ranges.append(start..<i)
            start = i + 1
        }
        ranges.append(start..<inl.runs.count)
        var out: [RTFNode] = []
        for (k, range) in ranges.enumerated() {
            let space = k == ranges.count - 1 ? ctx.spaceAfter : 0
            let p = Self.directionProps(Self.direction(inl, range)) + before + [.word("sa", space)] + after
            out += paragraph(props: p, content: inlineNodes(inl, range, table, ctx))
        }
        return out
    }

    /// An alert: its title (``Alert/Kind/title``) bold in the kind's colour (``AlertPalette``),
    /// then its blocks, all indented one step with a bar in that colour on the left.
    mutating func alertNodes(_ alert: Alert, _ ctx: BlockContext) -> [RTFNode] {
        var c = ctx
        c.indent = min(c.indent + RTFEmitter.indentStep, RTFEmitter.maxIndent)
        let color = alertColor(alert.kind)
        c.alertColor = color
        let s = theme.style(for: .body)
        var nodes = paragraph(props: [.word("ltrpar"), .word("keepn")] + indentProps(c) + [.word("sa", 60)] + lineProps(s)
                                  + charProps(s) + [.word("b"), .word("cf", color)],
                              content: [.text(alert.kind.title)])
        for b in alert.blocks { nodes += blockNodes(b, c) }
        return nodes
    }

    /// Writes a pending list prefix as a paragraph of its own (a list item that starts with a
    /// table or a nested list).
    mutating func flushPrefix() -> [RTFNode] {
        guard pendingPrefix != nil else { return [] }
        let s = theme.style(for: .body)
        return paragraph(props: [.word("sa", 0)] + lineProps(s) + charProps(s), content: [])
    }

    /// A list. The marker's formatting comes from the list level (see ``listTables()``): numbers
    /// bold (note markup's numbered lines, README; HTML draws every ordered list's numbers bold),
    /// bullets regular, neither ever italic or struck like the item's text. The `\listtext` group
    /// (for readers without list tables) states the same, after `\pard\plain`.
    mutating func listNodes(_ list: ListBlock, _ ctx: BlockContext) -> [RTFNode] {
        var nodes: [RTFNode] = flushPrefix()
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
            let marker = ordered ? "\(itemNumber)." : Self.bullet(level)
            var text: [RTFNode] = [.word("listtext"), .word("pard"), .word("plain"), .word("rtlch"), .word("af", markerFont),
                                   .word("afs", markerSize)]
            if ordered { text.append(.word("ab")) }
            text += [.word("ltrch"), .word("f", markerFont), .word("fs", markerSize)]
            if ordered { text.append(.word("b")) }
            var content: [RTFNode] = [.group(text + [.word("cf", Self.colorText), .text(marker), .word("tab")])]
            // ☒ for checked: ☑ (U+2611) has emoji presentation, and LibreOffice draws it with the
            // colour emoji font, which its PDF export leaves blank.
            if let task = item.task { content.append(.text(task == .checked ? "\u{2612} " : "\u{2610} ")) }
            var c = ctx
            c.indent = min(ctx.indent + indent, RTFEmitter.maxIndent)
            c.listLevel = level + 1
            c.spaceAfter = list.tight ? 0 : 120
            let props: [RTFNode] = [.word("ls", listIndex), .word("ilvl", level), .word("fi", -indent),
                                    .word("li", c.indent), .word("tx", c.indent)]
            pendingPrefix = (props, content)
            for b in item.blocks { nodes += blockNodes(b, c) }
            if pendingPrefix != nil {
                // An empty item: still show its marker.
                let s = theme.style(for: .body)
                nodes += paragraph(props: [.word("ltrpar"), .word("sa", c.spaceAfter)] + lineProps(s) + charProps(s), content: [])
            }
        }
        if list.tight, let last = nodes.lastIndex(of: .word("sa", 0)) {
            // Space after the list as a whole.
            nodes[last] = .word("sa", ctx.spaceAfter)
        }
        return nodes
    }
}
