/// The one place that gives a document's headings their ids: GitHub's algorithm
/// (``HeadingSlugger``, github-slugger's rules), one slugger per document, headings in document
/// order (pre-order: a heading inside a block quote, list item or footnote counts where it
/// stands). The site scanner records these ids in the site table and every writer shows the
/// same ids (HTML `id`, TEI `xml:id`), so a link checked against the table finds the id in the
/// page.
///
/// The text slugged is a heading's text content as a browser's `textContent` gives it for
/// GitHub's rendering: text and code runs, link text, footnote reference numbers; not image
/// descriptions (an `img` has no text content) and not raw HTML tags.
///
/// Linear in the size of the document (``HeadingSlugger`` is linear in the text it is given).
public struct HeadingIDAssigner: Sendable {
    private var slugger = HeadingSlugger()

    /// An assigner that has given no ids yet (one per document).
    public init() {}

    /// The next heading's id: the unique slug of `content`'s text in this document.
    public mutating func id(for content: Inlines) -> String {
        slugger.slug(Self.text(of: content))
    }

    /// `block` with ``Block/id`` set on it (when it is a heading) and on every heading inside it,
    /// in pre-order. Call it with each top-level block in order (a reader's stream works too).
    public mutating func assign(_ block: Block) -> Block {
        var b = block
        switch b.kind {
        case .heading(_, let content):
            b.id = id(for: content)
        case .blockQuote(let children):
            b.kind = .blockQuote(children.map { assign($0) })
        case .list(var list):
            list.items = list.items.map { item in
                var item = item
                item.blocks = item.blocks.map { assign($0) }
                return item
            }
            b.kind = .list(list)
        case .footnoteDefinition(let label, let children):
            b.kind = .footnoteDefinition(label: label, blocks: children.map { assign($0) })
        case .unknown(let name, let children):
            b.kind = .unknown(typeName: name, blocks: children.map { assign($0) })
        case .paragraph, .codeBlock, .htmlBlock, .thematicBreak, .table:
            break
        }
        return b
    }

    /// The text of a heading that is slugged (see the type's rules).
    public static func text(of content: Inlines) -> String {
        var s = ""
        let table = content.spans.isEmpty ? nil : InlineAttributeTable(content)
        for run in content.runs {
            if let table, table[run: run].innermostImage != nil { continue }
            switch run.content {
            case .text(let t): s += t
            case .softBreak: s += " "
            case .hardBreak: s += "\n"
            case .footnoteReference(_, let n, _): s += String(n)
            case .rawHTML: break
            }
        }
        return s
    }
}

/// A heading of a document with its id (``Document/headings()``): what a table of contents, the
/// site table and a link check need.
public struct HeadingAnchor: Sendable, Equatable {
    /// 1…6.
    public var level: Int
    /// The heading's text (``HeadingIDAssigner/text(of:)``).
    public var text: String
    /// The id (``HeadingIDAssigner``).
    public var id: String
    /// Where the heading starts in the source.
    public var position: SourcePosition?

    public init(level: Int, text: String, id: String, position: SourcePosition? = nil) {
        self.level = level
        self.text = text
        self.id = id
        self.position = position
    }
}

extension Document {
    /// The document with every heading's ``Block/id`` set (``HeadingIDAssigner``).
    public func assigningHeadingIDs() -> Document {
        var assigner = HeadingIDAssigner()
        var d = self
        d.blocks = blocks.map { assigner.assign($0) }
        return d
    }

    /// Every heading in document order with its id: the ids already on the blocks
    /// (``assigningHeadingIDs()``), else the ids ``HeadingIDAssigner`` gives.
    public func headings() -> [HeadingAnchor] {
        var assigner = HeadingIDAssigner()
        var out: [HeadingAnchor] = []
        forEachBlock { block, _ in
            if case .heading(let level, let content) = block.kind {
                let computed = assigner.id(for: content)  // keeps the slugger's count in step
                let id = block.id ?? computed
                out.append(HeadingAnchor(level: level, text: HeadingIDAssigner.text(of: content), id: id,
                                         position: block.position))
            }
        }
        return out
    }

    /// The heading ids in document order (``headings()``).
    public func headingIDs() -> [String] { headings().map(\.id) }
}
