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
            out.append(HeadingID(level: level, id: slugger.id(for: content, explicit: block.attributes?.id), text: content.titleText,
                                 isTopLevel: depth == 0, position: block.position))
        }
        return out
    }
}

/// Stores the ids of ``Document/headingIDs()`` on the heading blocks themselves (``Block/id``), so
/// that every writer shows exactly those ids without counting headings itself, and a reader's
/// stream can be given its ids one top-level block at a time: one ``HeadingSlugger`` fed each
/// heading's ``Inlines/headingIDText`` in document order (pre-order), the rule of
/// ``Document/headingIDs()``. The site scanner records the same ids in the site table.
package struct HeadingIDAssigner: Sendable {
    fileprivate var slugger = HeadingSlugger()

    /// An assigner that has given no ids yet (one per document).
    package init() {}

    /// Headings that already carry an id keep it (``Document/assigningMissingHeadingIDs()``).
    fileprivate var keepsCarriedIDs = false

    /// The next heading's id: the unique slug of `content`'s ``Inlines/headingIDText``.
    package mutating func id(for content: Inlines) -> String {
        slugger.slug(content.headingIDText)
    }

    /// `block` with ``Block/id`` set on it (when it is a heading) and on every heading inside it,
    /// in pre-order. Call it with each top-level block in order.
    package mutating func assign(_ block: Block) -> Block {
        var b = block
        assign(&b)
        return b
    }

    /// ``assign(_:)`` in place: only headings and the top-level containers that hold one are
    /// touched, the rest of the tree is not copied. (Whether a container holds a heading is
    /// looked up once, at the top level: linear however deep containers nest.)
    package mutating func assign(_ b: inout Block) {
        assign(&b, checked: false)
    }

    private mutating func assign(_ b: inout Block, checked: Bool) {
        func holds(_ blocks: [Block]) -> Bool { checked || Self.holdsHeading(blocks) }
        switch b.kind {
        case .heading(_, let content):
            if keepsCarriedIDs, b.id != nil { return }
            b.id = slugger.id(for: content, explicit: b.attributes?.id)
        case .blockQuote(var children):
            guard holds(children) else { return }
            b.kind = .thematicBreak  // the payload's last reference goes: `children` is unique
            for i in children.indices { assign(&children[i], checked: true) }
            b.kind = .blockQuote(children)
        case .list(var list):
            guard checked || list.items.contains(where: { Self.holdsHeading($0.blocks) }) else { return }
            b.kind = .thematicBreak
            for i in list.items.indices {
                for j in list.items[i].blocks.indices { assign(&list.items[i].blocks[j], checked: true) }
            }
            b.kind = .list(list)
        case .footnoteDefinition(let label, var children):
            guard holds(children) else { return }
            b.kind = .thematicBreak
            for i in children.indices { assign(&children[i], checked: true) }
            b.kind = .footnoteDefinition(label: label, blocks: children)
        case .unknown(let name, var children):
            guard holds(children) else { return }
            b.kind = .thematicBreak
            for i in children.indices { assign(&children[i], checked: true) }
            b.kind = .unknown(typeName: name, blocks: children)
        case .alert(var alert):
            guard holds(alert.blocks) else { return }
            b.kind = .thematicBreak
            for i in alert.blocks.indices { assign(&alert.blocks[i], checked: true) }
            b.kind = .alert(alert)
        case .definitionList(var items):
            guard checked || items.contains(where: { $0.definitions.contains(where: Self.holdsHeading) }) else { return }
            b.kind = .thematicBreak
            for i in items.indices {
                for j in items[i].definitions.indices {
                    for k in items[i].definitions[j].indices { assign(&items[i].definitions[j][k], checked: true) }
                }
            }
            b.kind = .definitionList(items)
        case .paragraph, .codeBlock, .htmlBlock, .thematicBreak, .table:
            break
        }
    }

    /// Whether a heading is among `blocks` or inside them (iterative: nesting is bounded by
    /// ``ASTLimits/maxNestingDepth`` but a stack costs nothing).
    static func holdsHeading(_ blocks: [Block]) -> Bool {
        var stack = blocks[...].reversed().map { $0 }
        while let b = stack.popLast() {
            if case .heading = b.kind { return true }
            stack.append(contentsOf: b.children.reversed())
        }
        return false
    }
}

extension Document {
    /// The document with every heading's ``Block/id`` set (``HeadingIDAssigner``): the ids of
    /// ``headingIDs()``, in the same order.
    package func assigningHeadingIDs() -> Document {
        var d = self
        d.assignHeadingIDs()
        return d
    }

    /// Each heading's own ``Block/id`` in document order (pre-order, as ``headingIDs()``), `nil`
    /// for a heading that carries none. When any heading carries one (a prepared page), the
    /// headings without are an embedded note's (NotepressSite's `SiteEmbeds`): they have no anchor
    /// in the page, and no table of contents lists them, in any format.
    package var carriedHeadingIDs: [String?] {
        var out: [String?] = []
        forEachBlock { b, _ in if case .heading = b.kind { out.append(b.id) } }
        return out
    }

    /// The document with an id on every heading, keeping the ids headings already carry: a site
    /// page's headings carry theirs, and the headings its embedded notes brought in
    /// (NotepressSite's `SiteEmbeds`) none. Those get the next unique slug after every carried
    /// id, so a link to `page#id` lands on the page's own heading in every format. A document
    /// whose headings carry no id gets ``assigningHeadingIDs()``'s.
    package func assigningMissingHeadingIDs() -> Document {
        let carried = carriedHeadingIDs.compactMap { $0 }
        guard !carried.isEmpty else { return assigningHeadingIDs() }
        var assigner = HeadingIDAssigner()
        assigner.keepsCarriedIDs = true
        for id in carried { assigner.slugger.reserve(id) }
        var d = self
        for i in d.blocks.indices { assigner.assign(&d.blocks[i]) }
        return d
    }

    /// ``assigningHeadingIDs()`` in place (no copy of the tree when the document holds the only
    /// reference to its blocks).
    package mutating func assignHeadingIDs() {
        var assigner = HeadingIDAssigner()
        for i in blocks.indices { assigner.assign(&blocks[i]) }
    }
}
