import NotepressAST

/// ronn input (`.ronn` files, ronn-format(7)): what ronn itself does differently from Markdown.
extension ManRenderer {
    /// ronn's list of HTML elements (``RonnPlaceholder/htmlElements``).
    static var ronnHTMLElements: Set<String> { RonnPlaceholder.htmlElements }

    /// Whether `document` is ronn input: its source file ends in `.ronn` (the extension ronn
    /// reads; the Markdown reader parses it as GFM).
    static func isRonn(_ document: Document) -> Bool {
        document.metadata.sourcePath?.lowercased().hasSuffix(".ronn") ?? false
    }

    /// The element names that `document` closes somewhere (`</name>` in raw inline HTML or an
    /// HTML block), lower case: ronn keeps `<name>` as HTML when the document contains its end
    /// tag. One pass over the document.
    static func closedTagNames(_ document: Document) -> Set<String> {
        var names: Set<String> = []
        func scan(_ html: String) {
            var rest = Substring(html)
            while let r = rest.range(of: "</") {
                let name = rest[r.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
                if !name.isEmpty { names.insert(name.lowercased()) }
                rest = rest[r.upperBound...]
            }
        }
        func scan(_ c: Inlines) {
            for run in c.runs { if case .rawHTML(let h) = run.content { scan(h) } }
        }
        document.forEachBlock { b, _ in
            switch b.kind {
            case .paragraph(let c), .heading(_, let c): scan(c)
            case .htmlBlock(let h): scan(h)
            case .table(let t): for row in [t.header] + t.rows { for cell in row { scan(cell) } }
            default: break
            }
        }
        return names
    }

    /// ronn's definition list (ronn-format(7) "Definition lists"; ronn's `html_filter_definition_lists`):
    /// a bullet list whose every item starts with a line ending in `:` (`* `-m`, `--man`:` and
    /// the definition on the lines below). Returns each item's term (that line without its `:`),
    /// the rest of its first paragraph, and its other blocks; `nil` when `list` is no such list.
    static func ronnDefinitions(_ list: ListBlock) -> [(term: Inlines, definition: Inlines, rest: [Block])]? {
        guard list.type == .bullet, !list.items.isEmpty else { return nil }
        var entries: [(term: Inlines, definition: Inlines, rest: [Block])] = []
        for item in list.items {
            guard item.task == nil, case .paragraph(let c)? = item.blocks.first?.kind else { return nil }
            let end = c.runs.firstIndex { $0.content == .softBreak || $0.content == .hardBreak } ?? c.runs.count
            guard end > 0, case .text(let last) = c.runs[end - 1].content else { return nil }
            let trimmed = last.hasSuffix(" ") ? String(last.reversed().drop { $0 == " " }.reversed()) : last
            guard trimmed.hasSuffix(":") else { return nil }
            var term = c.subrange(0..<end)
            term.runs[end - 1].content = .text(String(trimmed.dropLast()))
            let definition = end < c.runs.count ? c.subrange((end + 1)..<c.runs.count) : Inlines(runs: [], spans: c.spans)
            entries.append((term, definition, Array(item.blocks.dropFirst())))
        }
        return entries
    }
}
