import CNotepressPDF
import Foundation
import NotepressAST
import NotepressThemes

/// Blocks: paragraphs, headings, lists, quotes, alerts, code, rules, definition lists (see
/// ``PDFEmitter``; tables and images in PDFTable.swift and PDFImage.swift).
extension PDFEmitter {
    /// A `[TOC]` marker's table: a `Contents` caption in the heading-2 style, then one body
    /// paragraph per entry, indented a list step per nesting depth, linked to its heading (a
    /// destination: `#id`). Nothing for an empty table.
    func writeContents(_ toc: TableOfContents, _ ctx: BlockContext) {
        guard !toc.isEmpty else { return }
        let caption = theme.style(for: .heading(2))
        paragraph(attributed(Inlines([InlineRun(.text("Contents"))]), caption), caption, ctx, tag: "P",
                  spaceBefore: caption.size * 0.8, spaceAfter: caption.size * 0.35) { $0.keep_with_next = 1 }
        let body = theme.style(for: .body)
        for e in toc.entries {
            var c = ctx
            c.dest = nil
            c.left += Double(e.depth) * listIndent()
            let entry = Inlines(runs: [InlineRun(.text(e.text), span: 0)], spans: [InlineSpan(.link(Link(destination: "#" + e.id)))])
            paragraph(attributed(entry, body), body, c, tag: "P", spaceAfter: body.size * 0.2)
        }
    }

    /// Draws one block in `ctx`.
    func writeBlock(_ block: Block, _ ctx: BlockContext) {
        var ctx = ctx
        if ctx.dest == nil, let id = block.id, destinations.contains(destination(id)) { ctx.dest = destination(id) }
        if let position = block.position { blockPosition = position }
        let body = theme.style(for: ctx.role)
        switch block.kind {
        case .paragraph(let inl):
            if let image = soleImage(inl), writeImage(image, ctx) { return }
            if let image = floatingImage(inl, ctx), writeFloating(image, inl, body, ctx) { return }
            paragraph(attributed(inl, body), body, ctx, tag: "P", spaceAfter: body.size * 0.6)
        case .heading(let level, let inl):
            let s = theme.style(for: .heading(level))
            paragraph(attributed(inl, s), s, ctx, tag: "H\(min(max(level, 1), 6))", spaceBefore: s.size * 0.8, spaceAfter: s.size * 0.35) { p in
                p.keep_with_next = 1
                p.keep_extra = self.theme.style(for: .body).lineHeight * 2
                p.outline_level = Int32(min(max(level, 1), 6))
            }
        case .blockQuote(let children):
            writeQuoted(children, ctx, rule: colors.secondary, title: nil)
        case .alert(let alert):
            let title = alert.titleInlines ?? Inlines([InlineRun(.text(alert.displayTitle))])
            writeQuoted(alert.blocks, ctx, rule: AlertPalette.color(alert.kind), title: title)
        case .list(let list):
            writeList(list, ctx)
        case .codeBlock(_, let literal):
            writeCode(literal, block.highlight, ctx)
        case .htmlBlock, .footnoteDefinition:
            break
        case .thematicBreak:
            library.rule(handle, indent(ctx), 0, PDFFonts.rgb(colors.secondary), 0.75)
        case .table(let table):
            writeTable(table, ctx, position: block.position)
        case .unknown(ContentsMarker.typeName, _) where options.markerContents != nil:
            writeContents(options.markerContents!, ctx)
        case .unknown(let name, let children):
            if !ContentTabs.isTabs(name) {
                diagnostics.append(Diagnostic(.warning, "PDF: unknown block '\(name)' written as its children",
                                              file: document.metadata.sourcePath, position: block.position))
            }
            for child in children { writeBlock(child, ctx); ctx.marker = nil; ctx.dest = nil }
        case .definitionList(let items):
            for item in items {
                var term = attributed(item.term, body)
                for i in term.runs.indices { term.runs[i].style.weight = 700 }
                paragraph(term, body, ctx, tag: "P", spaceAfter: body.size * 0.2) { $0.keep_with_next = 1; $0.keep_extra = body.lineHeight }
                var inner = ctx
                inner.left += listIndent()
                inner.marker = nil; inner.dest = nil
                for definition in item.definitions { for b in definition { writeBlock(b, inner) } }
            }
        }
    }

    /// A block quote or an alert: its blocks indented beside a rule, after the alert's title.
    private func writeQuoted(_ blocks: [Block], _ ctx: BlockContext, rule: RGBColor, title: Inlines?) {
        var inner = ctx
        let step = theme.style(for: .body).size * 1.2
        inner.left += step
        inner.bars.append((indent(ctx) + step * 0.3, rule))
        if ctx.role == .body { inner.role = .blockQuote }
        library.tagBegin(handle, "BlockQuote", nil)
        if let title {
            let s = theme.style(for: inner.role)
            var t = attributed(title, s, color: rule)
            for i in t.runs.indices { t.runs[i].style.weight = 700 }
            paragraph(t, s, inner, tag: "P", spaceAfter: s.size * 0.3) { $0.keep_with_next = 1; $0.keep_extra = s.lineHeight }
            inner.marker = nil; inner.dest = nil
        }
        for b in blocks {
            writeBlock(b, inner)
            inner.marker = nil; inner.dest = nil
        }
        library.tagEnd(handle, "BlockQuote")
        // The rule ran on through the last paragraph's space after: a gap ends the quote.
        library.space(handle, theme.style(for: .body).size * 0.6)
    }

    /// A list: each item's blocks at a hanging indent, its number or bullet before the first.
    private func writeList(_ list: ListBlock, _ ctx: BlockContext) {
        let last = list.start + max(list.items.count - 1, 0)
        let indent = list.type == .ordered ? listIndent(digits: String(last).count) : listIndent()
        library.tagBegin(handle, "L", nil)
        for (i, item) in list.items.enumerated() {
            var inner = ctx
            inner.left += indent
            inner.listDepth += 1
            inner.marker = marker(list, item, index: i, depth: ctx.listDepth)
            library.tagBegin(handle, "LI", nil)
            if item.blocks.isEmpty {
                paragraph(AttributedText(), theme.style(for: ctx.role), inner, tag: nil, spaceAfter: 0)
            }
            for b in item.blocks {
                writeBlock(b, inner)
                inner.marker = nil; inner.dest = nil
            }
            library.tagEnd(handle, "LI")
        }
        library.tagEnd(handle, "L")
    }

    /// An item's marker: its number and delimiter, a task box, or a bullet by depth.
    private func marker(_ list: ListBlock, _ item: ListItem, index: Int, depth: Int) -> String {
        if let task = item.task { return task == .checked ? "\u{2611}" : "\u{2610}" }
        if list.type == .ordered {
            return "\(item.number ?? list.start + index)" + (list.delimiter == .parenthesis ? ")" : ".")
        }
        return ["\u{2022}", "\u{25E6}", "\u{25AA}"][depth % 3]
    }

    /// A code block: the code font on the code background, long lines broken anywhere, the
    /// highlighting colours of the theme's light palette.
    private func writeCode(_ literal: String, _ highlight: CodeHighlight?, _ ctx: BlockContext) {
        let s = theme.style(for: .code)
        var code = Substring(literal)
        if code.hasSuffix("\n") { code = code.dropLast() }
        let palette = theme.theme.codeLight
        let background = (highlight != nil ? palette.background : nil) ?? colors.codeBackground
        var plain = RunStyle(s, color: highlight != nil ? palette.styles[.plain]?.color ?? colors.text : colors.text)
        plain.family = codeFamily
        plain.noHyphens = true
        var text = AttributedText()
        if let highlight {
            for (role, piece) in highlight.pieces(of: String(code)) {
                var r = plain
                if role != .plain, let st = palette.styles[role] {
                    r.color = st.color
                    if st.bold { r.weight = 700 }
                    r.italic = st.italic
                }
                text.append(String(piece), r)
            }
        } else {
            text.append(String(code), plain)
        }
        let pad = s.size * 0.5
        var inner = ctx
        inner.left += pad
        // A line too long for the width breaks anywhere, with a mark (↩) in the right padding.
        paragraph(text, s, inner, tag: "Code", spaceBefore: pad, spaceAfter: s.size + pad) { p in
            p.right = pad
            p.rule = PDFFonts.rgb(self.colors.secondary)
            p.wrap_anywhere = 1
            p.has_box = 1
            p.box = PDFFonts.rgb(background)
            p.box_pad = pad
        }
    }
}
