/// One heading of a document with the id GitHub gives it (``Document/headingIDs()``).
package struct HeadingID: Sendable, Equatable {
    /// The heading level, 1…6.
    package var level: Int
    /// The id: ``HeadingSlugger`` of ``Inlines/headingIDText``, unique in the document
    /// (`intro`, `intro-1`, …). Not escaped for any format.
    package var id: String
    /// The heading as a reader sees it, for tables of contents: ``Inlines/plainText`` (image
    /// descriptions included, breaks as spaces).
    package var text: String
    /// Whether the heading is a top-level block: not inside a block quote, list, footnote or
    /// unknown container (only those make sections and tables of contents).
    package var isTopLevel: Bool
    /// Where the heading starts in the source.
    package var position: SourcePosition?

    package init(level: Int, id: String, text: String, isTopLevel: Bool, position: SourcePosition? = nil) {
        self.level = level
        self.id = id
        self.text = text
        self.isTopLevel = isTopLevel
        self.position = position
    }
}

extension Inlines {
    /// The text a heading's id is made from: what a browser's `textContent` gives for cmark-gfm's
    /// HTML of the heading, as GitHub makes the id from the rendered heading. Text runs (inline
    /// code and link text included) as they are, a footnote reference as its number, a soft or
    /// hard break as `"\n"` (a control character: the slugger removes it); image descriptions
    /// (the `alt` attribute, not text) and raw HTML are left out. Linear in the runs.
    package var headingIDText: String {
        let table = spans.isEmpty ? nil : InlineAttributeTable(self)
        var s = ""
        for run in runs {
            if let table, table[run: run].attributes.image != nil { continue }
            switch run.content {
            case .text(let t): s += t
            case .softBreak, .hardBreak: s += "\n"
            case .footnoteReference(_, let n, _): s += String(n)
            case .rawHTML: break
            }
        }
        return s
    }
}

extension Document {
    /// Every heading in document order (pre-order: a container's headings where the container
    /// stands, footnote definitions where the reader put them), each with its unique id from one
    /// ``HeadingSlugger`` fed ``Inlines/headingIDText``. This is the one rule for heading ids:
    /// HTML `id`s, TEI `xml:id`s and table-of-contents links all come from it (an emitter that
    /// writes blocks as they are read gets the same ids by giving each heading's
    /// ``Inlines/headingIDText``, in this order, to its own ``HeadingSlugger``).
    /// Linear in the document (iterative walk, ``forEachBlock(_:)``).
    package func headingIDs() -> [HeadingID] {
        var slugger = HeadingSlugger()
        var out: [HeadingID] = []
        forEachBlock { block, depth in
            guard case .heading(let level, let content) = block.kind else { return }
            out.append(HeadingID(level: level, id: slugger.slug(content.headingIDText), text: content.plainText,
                                 isTopLevel: depth == 0, position: block.position))
        }
        return out
    }
}
