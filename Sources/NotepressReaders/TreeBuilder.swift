import CCmarkGFM
import Foundation
import NotepressAST

/// Walks cmark's tree with its iterator (no recursion) and builds ours. Wiki links:
/// MarkdownWikiLinks.swift.
struct TreeBuilder {
    /// A growing array owned by one frame. Frames hold their children in a box so that an append
    /// changes the array in place: with the array in the enum payload, every append copied it
    /// (the stack still referenced the old one), which made building quadratic in the number of
    /// children (a 16 MB document took minutes).
    final class Box<Element> {
        var items: [Element] = []
        init() {}
    }

    enum Frame {
        case root(Box<Block>)
        case blockQuote(SourcePosition?, Box<Block>)
        case list(SourcePosition?, ListBlock, Box<ListItem>)
        case item(SourcePosition?, ListItem.TaskState?, Box<Block>)
        case footnote(SourcePosition?, String, Box<Block>)
        case unknown(SourcePosition?, String, Box<Block>)
        /// A container past the depth limit: its children go to the frame below.
        case flattened
        case paragraph(SourcePosition?)
        case heading(SourcePosition?, Int)
        case table(SourcePosition?, [Table.Alignment], Box<Inlines>, Box<[Inlines]>)
        case row(Bool, Box<Inlines>)
        case cell
    }

    let path: String?
    let lineOffset: Int
    /// The parsed bytes, to read footnote labels (libcmark-gfm 0.29 has no accessor for them).
    let source: UnsafeBufferPointer<UInt8>
    var lineStarts: [Int] = []
    var diagnostics: [Diagnostic] = []
    /// An HTML block or raw inline HTML was read (``Document/knownFreeOfRawHTML`` when not).
    var sawRawHTML = false
    var stack: [Frame] = []
    var containerDepth = 0
    /// The inline content being read (runs and the span tree, see ``InlinesBuilder``).
    var inlines = InlinesBuilder()
    /// The last run is text and no span has opened or closed since: the next text may join it.
    var lastRunIsOpenText = false
    /// Whether each open inline node opened a span (unknown inline containers do not), so exits match.
    var spanPushed: [Bool] = []
    var footnoteLabels: [String] = []
    var footnoteOccurrences: [Int: Int] = [:]
    var warnedDepth = false
    var warnedTypes = Set<String>()
    /// Called with each block appended to the document (top level), in order.
    var topLevelBlock: ((Block) -> Void)?
    /// Keep top-level blocks in the result (off: they only go to `topLevelBlock`).
    var retainTopLevel = true
    /// Read wiki links (``MarkdownReader/wikilinks``).
    var wikilinks = false
    /// Which side of a wiki link's `|` is the target (``MarkdownReader/wikiLinkOrder``).
    var wikiLinkOrder = WikiLinkSyntax.Order.targetFirst
    /// Open link and image nodes (no wiki link is looked for inside one).
    var linkDepth = 0
    /// Open link nodes, and the run count when the outermost opened: a footnote reference in a
    /// link's text (`[a [^b] c](url)`, cmark-gfm#249) is a link of its own, so it waits in
    /// ``footnotesAfterLink`` and follows the link (no format nests a link in a link).
    var openLinks: [Int] = []
    /// See ``openLinks``.
    var footnotesAfterLink: [RunContent] = []
    /// Raw `<a>` start tags left out of the open links' text (``dropsNestedLinkTag(_:_:)``)
    /// whose `</a>` is still to come.
    var droppedNestedLinks = 0
    /// The raw `<a>` start tag (outside Markdown links) open in the inline content being read
    /// (``noteLinkInsideRawLink(_:)``).
    var rawLinkOpen: OpaquePointer?
    /// A wiki link was made from `[` + a shortcut reference link + `]`: the `]` that starts the
    /// next text node belongs to it.
    var dropLeadingBracket = false
    /// Read GitHub alerts (GFM input).
    var alerts = false
    /// The vault pre-scan of the parsed text, when it replaced anything (``VaultSyntax``).
    var vault: VaultSyntax?
    /// The source line of each line of the parsed text (``MarkdownReader/lineMap``), when a text
    /// pass before the parse added lines; `nil`: the same lines.
    var lineMap: [Int32]?
    /// ```` ```math ```` blocks are display math.
    var mathBlocks = false
    /// The inline nesting level (``spanPushed`` count) of each open highlight span.
    var highlightLevels: [Int] = []
    /// Read Obsidian callouts in block quotes at any depth (``callout(_:)``).
    var callouts = false
    /// Read ``MkDocsBlocks``' rewritten admonitions (``admonition(_:)``).
    var admonitions = false
    /// A soft break not yet added (``flushBreak()``).
    var deferredSoftBreak = false
    /// `~text~` (one tilde) is a subscript, `~~text~~` strikethrough (MkDocs `pymdownx.tilde`).
    var subscriptTilde = false

    init(path: String?, lineOffset: Int, source: UnsafeBufferPointer<UInt8>) {
        self.path = path
        self.lineOffset = lineOffset
        self.source = source
    }

    /// The node types the builder knows, named as cmark names them (`cmark_node_get_type_string`);
    /// `other` is any type not listed.
    enum NodeKind: String {
        case block_quote, list, item, tasklist, footnote_definition, paragraph, heading, code_block, html_block,
             thematic_break, table, table_header, table_row, table_cell
        case text, softbreak, linebreak, code, html_inline, footnote_reference, emph, strong, strikethrough,
             link, image
        case other
    }

    /// Kind per `cmark_node_type` value, filled on first sight: one table lookup per node instead
    /// of building the type-name string and comparing it case by case (the name is looked up
    /// again only for kinds the builder does not know, to name them in warnings).
    ///
    /// Extension nodes are cached too, keyed by type value and extension: the names that vary per
    /// node of one type (`table_header`/`table_row`) are handled alike. A direct-mapped table of
    /// 256 slots: cmark's type values are a block or inline flag (`0x8000`, `0x4000`) plus a small
    /// number, so type number, flag and "has an extension" give the slot; the stored key is checked.
    var kindSlots = [(key: UInt64, kind: NodeKind)?](repeating: nil, count: 256)

    mutating func kind(_ node: OpaquePointer) -> NodeKind {
        let raw = cmark_node_get_type(node).rawValue
        let ext = cmark_node_get_syntax_extension(node)
        let key = UInt64(raw) << 1 | (ext == nil ? 0 : 1)
        let slot = Int(raw & 0x3F) | Int((raw >> 14) & 1) << 6 | (ext == nil ? 0 : 1) << 7
        if let k = kindSlots[slot], k.key == key { return k.kind }
        let kind = NodeKind(rawValue: Self.typeName(node)) ?? .other
        kindSlots[slot] = (key, kind)
        return kind
    }

    /// cmark's type name of a node. libcmark-gfm 0.29 reports footnote nodes as "<unknown>".
    static func typeName(_ node: OpaquePointer) -> String {
        let t = cmark_node_get_type(node)
        if t == CMARK_NODE_FOOTNOTE_DEFINITION { return "footnote_definition" }
        if t == CMARK_NODE_FOOTNOTE_REFERENCE { return "footnote_reference" }
        return string(cmark_node_get_type_string(node))
    }

    /// The label of a footnote definition, read from the source at the node's start
    /// (`[^label]:`, GFM spec §6.? footnotes; labels hold no whitespace or `]`).
    mutating func footnoteLabel(_ node: OpaquePointer) -> String {
        if lineStarts.isEmpty { computeLineStarts() }
        // cmark reports the definition's start at its content (after "]:"), so look back from
        // there for the last "[^" on that line or the lines before it.
        let line = Int(cmark_node_get_start_line(node)), col = Int(cmark_node_get_start_column(node))
        guard line >= 1 else { return "" }
        var l = min(line, lineStarts.count)
        while l >= 1 {
            let ls = lineStarts[l - 1]
            let le = l < lineStarts.count ? lineStarts[l] : source.count
            let limit = l == line ? min(le, ls + max(col - 1, 0)) : le
            var j = limit - 2
            while j >= ls {
                if source[j] == 0x5B && source[j + 1] == 0x5E {
                    var k = j + 2
                    while k < le, source[k] != 0x5D { k += 1 }
                    if k + 1 < source.count, source[k] == 0x5D, source[k + 1] == 0x3A {
                        return String(decoding: UnsafeBufferPointer(rebasing: source[(j + 2)..<k]), as: UTF8.self)
                    }
                }
                j -= 1
            }
            l -= 1
        }
        return ""
    }

    /// Where `node` starts in the source (the vault pre-scan's columns given back as the source's).
    func position(_ node: OpaquePointer) -> SourcePosition? {
        rawPosition(node).map(sourcePosition)
    }

    /// Where `node` starts in the text cmark parsed (after the vault pre-scan, ``VaultSyntax``):
    /// for adding byte offsets within the node before ``sourcePosition(_:)``.
    func rawPosition(_ node: OpaquePointer) -> SourcePosition? {
        let line = Int(cmark_node_get_start_line(node))
        guard line > 0 else { return nil }
        return SourcePosition(line: line + lineOffset, column: Int(cmark_node_get_start_column(node)))
    }

    /// A position in the parsed text as the source's (the same without a vault pre-scan).
    func sourcePosition(_ p: SourcePosition) -> SourcePosition {
        guard vault != nil || lineMap != nil else { return p }
        let column = vault.map { $0.sourceColumn(line: p.line - lineOffset, column: p.column) } ?? p.column
        return SourcePosition(line: sourceLine(p.line), column: column)
    }

    /// A line of the parsed text (front matter counted) as the source's (``lineMap``).
    func sourceLine(_ line: Int) -> Int {
        guard let lineMap, line >= 1, line <= lineMap.count else { return line }
        return Int(lineMap[line - 1])
    }

    /// A construct read and not converted as written (flattened, written as its content): a
    /// warning counted in a folder run's summary (``Diagnostic/notConverted``).
    mutating func warn(_ message: String, _ node: OpaquePointer) {
        var d = Diagnostic(.warning, message, file: path, position: position(node))
        d.notConverted = true
        diagnostics.append(d)
    }

    static func string(_ p: UnsafePointer<CChar>?) -> String {
        guard let p else { return "" }
        return String(cString: p)
    }

    mutating func build(_ root: OpaquePointer) -> [Block] {
        // Footnote definitions sit at the end of the document in numbering order.
        var child = cmark_node_first_child(root)
        while let c = child {
            if cmark_node_get_type(c) == CMARK_NODE_FOOTNOTE_DEFINITION {
                footnoteLabels.append(footnoteLabel(c))
            }
            child = cmark_node_next(c)
        }
        stack = [.root(Box())]
        guard let iter = cmark_iter_new(root) else { return [] }
        defer { cmark_iter_free(iter) }
        while true {
            let ev = cmark_iter_next(iter)
            if ev == CMARK_EVENT_DONE { break }
            guard let node = cmark_iter_get_node(iter), node != root else { continue }
            let kind = kind(node)
            if ev == CMARK_EVENT_ENTER {
                if kind == .link || kind == .image, wikilinks, linkDepth == 0, enterReferenceWikiLink(node, image: kind == .image) {
                    // Written as a whole: its children and its exit are skipped.
                    cmark_iter_reset(iter, node, CMARK_EVENT_EXIT)
                    continue
                }
                enter(node, kind)
            } else {
                exit(node, kind)
            }
        }
        if case .root(let blocks) = stack.first { return blocks.items }
        return []
    }

    /// Whether cmark reports only an ENTER event for this node type (leaves).
    static func isLeaf(_ type: String) -> Bool {
        switch type {
        case "text", "softbreak", "linebreak", "code", "html_inline", "code_block", "html_block",
             "thematic_break", "footnote_reference":
            return true
        default:
            return false
        }
    }

    mutating func append(block: Block) {
        var i = stack.count - 1
        while i > 0, case .flattened = stack[i] { i -= 1 }
        switch stack[i] {
        case .root(let b):
            if retainTopLevel { b.items.append(block) }
            topLevelBlock?(block)
        case .blockQuote(_, let b), .item(_, _, let b), .footnote(_, _, let b), .unknown(_, _, let b):
            b.items.append(block)
        case .list(_, _, let items):
            // A flattened item's blocks land in its list: keep them as an item of their own.
            items.items.append(ListItem(blocks: [block], position: block.position))
        default: break
        }
    }

    mutating func pushContainer(_ frame: Frame, _ node: OpaquePointer) {
        if containerDepth >= ASTLimits.maxNestingDepth {
            if !warnedDepth {
                warnedDepth = true
                warn("containers nested deeper than \(ASTLimits.maxNestingDepth) levels are flattened", node)
            }
            stack.append(.flattened)
        } else {
            stack.append(frame)
        }
        containerDepth += 1
    }

    /// Adds a run; text right after a text run in the same span joins it.
    mutating func addRun(_ content: RunContent) {
        flushBreak()
        addRunNow(content)
    }

    mutating func addRunNow(_ content: RunContent) {
        if lastRunIsOpenText, case .text(let t) = content {
            inlines.extendLastText(t)
            return
        }
        inlines.append(content)
        if case .text = content { lastRunIsOpenText = true } else { lastRunIsOpenText = false }
    }

    /// Whether a strikethrough node was written with one `~` (its text starts one column after it).
    static func isSingleTilde(_ node: OpaquePointer) -> Bool {
        guard let child = cmark_node_first_child(node),
              cmark_node_get_start_line(child) == cmark_node_get_start_line(node) else { return false }
        return cmark_node_get_start_column(child) - cmark_node_get_start_column(node) == 1
    }

    mutating func openSpan(_ kind: InlineSpan.Kind) {
        flushBreak()
        inlines.push(kind)
        lastRunIsOpenText = false
        spanPushed.append(true)
    }

    /// Closes the span of an inline node that is exited, if it opened one.
    mutating func closeSpan() {
        flushBreak()
        if !highlightLevels.isEmpty { closeInnerHighlights() }
        if spanPushed.popLast() == true {
            inlines.pop()
            lastRunIsOpenText = false
        }
    }

    mutating func takeRuns() -> Inlines {
        deferredSoftBreak = false
        rawLinkOpen = nil
        highlightLevels = []
        spanPushed = []
        lastRunIsOpenText = false
        return inlines.take()
    }

    /// Text without placeholders: wiki links looked for (``wikilinks``), else one run.
    mutating func addPlainText(_ text: String, _ pos: SourcePosition?) {
        if wikilinks, linkDepth == 0, text.utf8.count >= 5, text.utf8.contains(0x5B) {
            addTextWithWikiLinks(text, pos)
        } else {
            addRun(.text(text))
        }
    }

    /// The byte offset of each line's start in ``source`` (LF, CR LF or CR ends a line).
    mutating func computeLineStarts() {
        lineStarts = [0]
        for (i, b) in source.enumerated() where b == 0x0A || (b == 0x0D && (i + 1 >= source.count || source[i + 1] != 0x0A)) {
            lineStarts.append(i + 1)
        }
    }

    /// The alert a top-level block quote of `blocks` is (``Alert``'s rule), or `nil`: the first
    /// paragraph's first run is the marker's text, in no span, followed by a line break or by
    /// the end of the paragraph, and something follows the marker.
    static func alert(_ blocks: [Block]) -> Alert? {
        guard let head = blocks.first, case .paragraph(let inl) = head.kind, let first = inl.runs.first,
              first.span == nil, case .text(let marker) = first.content, let kind = Alert.kind(ofMarker: marker) else {
            return nil
        }
        var content = Array(blocks.dropFirst())
        let end: Alert.MarkerEnd
        if inl.runs.count == 1 {
            end = .paragraphEnd
        } else {
            switch inl.runs[1].content {
            case .softBreak: end = .softBreak
            case .hardBreak: end = .hardBreak
            default: return nil
            }
            var rest = inl
            rest.runs.removeFirst(2)
            if !rest.isEmpty {
                // The paragraph goes on on the marker's next line.
                let position = head.position.map { SourcePosition(line: $0.line + 1, column: $0.column) }
                content.insert(Block(.paragraph(rest), position: position), at: 0)
            }
        }
        guard !content.isEmpty else { return nil }
        return Alert(kind: kind, marker: marker, markerEnd: end, blocks: content)
    }

    mutating func closeContainer() {
        containerDepth -= 1
        guard let f = stack.popLast() else { return }
        switch f {
        case .blockQuote(let p, let b):
            if admonitions {
                // An admonition may end inside the quote (``MkDocsBlocks/quoteCut``).
                for block in resolvedQuote(b.items, position: p) { append(block: block) }
            } else {
                append(block: quoteBlock(b.items, position: p))
            }
        case .footnote(let p, let l, let b): append(block: Block(.footnoteDefinition(label: l, blocks: b.items), position: p))
        case .unknown(let p, let n, let b): append(block: Block(.unknown(typeName: n, blocks: b.items), position: p))
        case .list(let p, var l, let items):
            l.items = items.items
            append(block: Block(.list(l), position: p))
        case .item(let p, let t, let b):
            if case .list(_, _, let items)? = stack.last {
                items.items.append(ListItem(task: t, blocks: b.items, position: p))
            } else {
                for block in b.items { append(block: block) }
            }
        default: break
        }
    }
}
