import NotepressAST

/// Block anchors as Foam and Obsidian write them: ` ^id` at the end of a paragraph (also a list
/// item's paragraph), `id` made of ASCII letters, digits, `-` and `_`. The marker is metadata:
/// it is taken out of the text and the paragraph gets the id `^id` (``Block/id``), which HTML
/// writes as the paragraph's `id` so that `note.html#^id` (`[[note#^id]]`) finds it. Anchors on
/// headings, block quotes as a whole, code blocks and tables (Foam's other placements) are not
/// recognised: the text stays as written.
///
/// Applied to documents whose wiki links are read (note markup; Markdown with `--wikilinks`),
/// before the site scan, so the table's ``SiteRecord/anchors`` and the pages agree.
package enum BlockAnchors {
    /// The document with every paragraph's trailing ` ^id` taken out and its id set. Blocks with
    /// no anchor are not copied.
    package static func apply(_ document: Document) -> Document {
        var d = document
        if let changed = Block.changing(document.blocks, changing) { d.blocks = changed }
        return d
    }

    /// One block (and the blocks inside it), `b` itself when it has no anchor.
    static func apply(_ block: Block) -> Block { changing(block) ?? block }

    /// The block with its anchors taken out, `nil` when it has none.
    static func changing(_ block: Block) -> Block? {
        guard case .paragraph(let c) = block.kind else { return block.changingChildren(changing) }
        guard block.id == nil, let (content, id) = strip(c) else { return nil }
        var b = block
        b.kind = .paragraph(content)
        b.id = "^" + id
        return b
    }

    /// `content` without its trailing anchor, and the anchor, when its last run is text outside
    /// every span ending with ` ^id` (or that is `^id` after a line break).
    static func strip(_ content: Inlines) -> (Inlines, String)? {
        guard let last = content.runs.last, last.span == nil, case .text(let text) = last.content,
              text.utf8.contains(0x5E) else { return nil }
        let u = Array(text.utf8)
        var i = u.count
        while i > 0, isIDByte(u[i - 1]) { i -= 1 }
        guard i < u.count, i > 0, u[i - 1] == 0x5E else { return nil }
        let id = String(decoding: u[i...], as: UTF8.self)
        var cut = i - 1
        let startsLine = cut == 0 && content.runs.count >= 2
        guard startsLine || (cut > 0 && (u[cut - 1] == 0x20 || u[cut - 1] == 0x09)) else { return nil }
        while cut > 0, u[cut - 1] == 0x20 || u[cut - 1] == 0x09 { cut -= 1 }
        var runs = content.runs
        if cut == 0 {
            runs.removeLast()
            // The line break before a marker on its own line goes too.
            if let l = runs.last, l.content == .softBreak || l.content == .hardBreak { runs.removeLast() }
        } else {
            runs[runs.count - 1].content = .text(String(decoding: u[..<cut], as: UTF8.self))
        }
        if runs.isEmpty { return nil }
        return (Inlines(runs: runs, spans: content.spans), id)
    }

    static func isIDByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A) || b == 0x2D || b == 0x5F
    }

    /// The anchors of a document (ids of paragraphs that start with `^`, without it), in order.
    package static func anchors(in document: Document) -> [String] {
        var out: [String] = []
        document.forEachBlock { block, _ in
            if case .paragraph = block.kind, let id = block.id, id.hasPrefix("^") { out.append(String(id.dropFirst())) }
        }
        return out
    }
}
