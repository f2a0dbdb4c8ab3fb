import Foundation
import NotepressAST
import NotepressThemes

/// Blocks: paragraphs, headings, lists, quotes, code, tables, footnotes (see ``RTFEmitter``).
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
}
