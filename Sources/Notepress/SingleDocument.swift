import NotepressAST

/// Prepares a document converted on its own (one file to a file or standard output) the way a
/// site prepares its pages, without a site table: heading ids (``HeadingIDAssigner``), block
/// anchors taken out (``BlockAnchors``) when wiki links are read, and every wiki link shown as its
/// text (``Link/isMissing``): with no other pages there is nothing to resolve it against.
/// Top-level blocks can be prepared one at a time, in order, as a reader streams them.
package final class SingleDocumentPreparer: @unchecked Sendable {
    private var assigner = HeadingIDAssigner()
    /// Whether wiki links and block anchors are read (note markup; Markdown with `--wikilinks`).
    package let wikilinks: Bool

    /// A preparer for one document; `wikilinks` as ``wikilinks``.
    package init(wikilinks: Bool) {
        self.wikilinks = wikilinks
    }

    /// The next top-level block, prepared.
    package func prepare(_ block: Block) -> Block {
        var b = assigner.assign(block)
        if wikilinks {
            b = BlockAnchors.apply(b)
            b = InlineRewriting.mapInlines(b) { c in
                var out: Inlines?
                for (i, s) in c.spans.enumerated() {
                    switch s.kind {
                    case .link(let l) where l.syntax == .wiki, .image(let l) where l.syntax == .wiki:
                        if out == nil { out = c }
                        out!.spans[i].kind = .link(InlineRewriting.missing(l))
                    default: break
                    }
                }
                return out
            }
        }
        return b
    }

    /// A whole document, prepared (a new preparer per document).
    package func prepare(_ document: Document) -> Document {
        var d = document
        d.blocks = document.blocks.map(prepare)
        return d
    }
}
