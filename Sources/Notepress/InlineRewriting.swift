import NotepressAST

/// Rewriting the inline content of blocks, for the one-document preparation
/// (``SingleDocumentPreparer``) and the site's link rewriting (NotepressSite's `SiteRewriter`).
package enum InlineRewriting {
    /// A wiki link nothing matches: its text only.
    package static func missing(_ l: Link) -> Link {
        var m = l
        m.destination = ""
        m.isMissing = true
        return m
    }

    /// `block` with `f` applied to every inline content in it (paragraphs, headings, table cells,
    /// callout titles, at any depth). `f` returns `nil` for content it leaves as it is; blocks with no change
    /// are not rebuilt (a page with few links is not copied). Content without spans is left
    /// alone (it has no link) unless `spanless`.
    package static func mapInlines(_ block: Block, spanless: Bool = false, _ f: (Inlines) -> Inlines?) -> Block {
        changingInlines(block, spanless: spanless, f) ?? block
    }

    /// ``mapInlines(_:spanless:_:)``, `nil` when nothing changed.
    package static func changingInlines(_ block: Block, spanless: Bool = false, _ f: (Inlines) -> Inlines?) -> Block? {
        func cells(_ cs: [Inlines]) -> [Inlines]? {
            var out: [Inlines]?
            for (i, c) in cs.enumerated() {
                if let n = f(c) {
                    if out == nil { out = cs }
                    out![i] = n
                }
            }
            return out
        }
        var b = block
        switch block.kind {
        case .paragraph(let c):
            guard spanless || !c.spans.isEmpty, let n = f(c) else { return nil }
            b.kind = .paragraph(n)
        case .heading(let level, let c):
            guard spanless || !c.spans.isEmpty, let n = f(c) else { return nil }
            b.kind = .heading(level: level, content: n)
        case .table(var t):
            var changed = false
            if let h = cells(t.header) { t.header = h; changed = true }
            for (i, row) in t.rows.enumerated() {
                if let r = cells(row) { t.rows[i] = r; changed = true }
            }
            guard changed else { return nil }
            b.kind = .table(t)
        case .alert(let a):
            // A callout's title with markup (``Alert/markedTitle``) may hold links too.
            let children = block.changingChildren { changingInlines($0, spanless: spanless, f) }
            guard let t = a.markedTitle, let n = f(t) else { return children }
            b = children ?? block
            if case .alert(var changed) = b.kind { changed.titleInlines = n; b.kind = .alert(changed) }
        case .definitionList:
            // The terms hold inline content too; the definitions are blocks.
            b = block.changingChildren { changingInlines($0, spanless: spanless, f) } ?? block
            guard case .definitionList(var items) = b.kind else { return nil }
            var changed = b != block
            for i in items.indices {
                let t = items[i].term
                if spanless || !t.spans.isEmpty, let n = f(t) { items[i].term = n; changed = true }
            }
            guard changed else { return nil }
            b.kind = .definitionList(items)
        default:
            return block.changingChildren { changingInlines($0, spanless: spanless, f) }
        }
        return b
    }
}
