import NotepressAST

extension RawHTMLReading {
    /// `document` with its raw HTML read into AST nodes (``blocks(fromHTML:position:depth:)`` for
    /// HTML blocks, ``lowered(_:)`` for raw inline HTML when `inline`), or `document` itself when
    /// it has none. One pass that stops at the first raw HTML, and none when the reader saw that
    /// the document has no raw HTML (``Document/knownFreeOfRawHTML``).
    /// `keepingUnread`: raw inline HTML that reads as nothing (a tag no policy keeps, a comment)
    /// stays a raw HTML run, for a writer that reads such tags itself (man: ronn's `<placeholder>`).
    package static func reading(_ document: Document, inline: Bool = true, keepingUnread: Bool = false) -> Document {
        guard has(document, inline: inline) else { return document }
        var d = document
        d.blocks = read(document.blocks, inline: inline, depth: 0, keepingUnread: keepingUnread)
        return d
    }

    /// Whether `document` holds an HTML block, or raw inline HTML when `inline` (no scan when its
    /// reader saw none).
    static func has(_ document: Document, inline: Bool) -> Bool {
        !document.knownFreeOfRawHTML && has(document.blocks, inline: inline)
    }

    /// Whether `blocks` hold an HTML block, or raw inline HTML when `inline`.
    static func has(_ blocks: [Block], inline: Bool) -> Bool {
        for b in blocks {
            switch b.kind {
            case .htmlBlock: return true
            case .paragraph(let c), .heading(_, let c): if inline && hasRawHTML(c) { return true }
            case .table(let t):
                guard inline else { continue }
                for cell in t.header where hasRawHTML(cell) { return true }
                for row in t.rows { for cell in row where hasRawHTML(cell) { return true } }
            case .blockQuote(let bs), .footnoteDefinition(_, let bs), .unknown(_, let bs): if has(bs, inline: inline) { return true }
            case .alert(let a): if has(a.blocks, inline: inline) { return true }
            case .list(let l): for item in l.items where has(item.blocks, inline: inline) { return true }
            case .definitionList(let items):
                for item in items {
                    if inline && hasRawHTML(item.term) { return true }
                    for d in item.definitions where has(d, inline: inline) { return true }
                }
            case .codeBlock, .thematicBreak: continue
            }
        }
        return false
    }

    /// `blocks` (at container `depth`) with raw HTML read. The ids raw HTML names
    /// (``RawHTMLPolicy/anchorIDs(of:)``) become ``Block/anchors`` of the paragraph or heading
    /// they are in; a paragraph left without text (`<a id="x"></a>` alone) is left out and its
    /// ids go to the next paragraph or heading at its level (else the last one before it).
    static func read(_ blocks: [Block], inline: Bool, depth: Int, keepingUnread: Bool = false) -> [Block] {
        var out: [Block] = []
        out.reserveCapacity(blocks.count)
        var carried: [String] = []
        for var b in blocks {
            switch b.kind {
            case .htmlBlock(let h):
                for var r in Self.blocks(fromHTML: h, position: b.position, depth: depth) {
                    if !carried.isEmpty, takesAnchors(r) { r.anchors = carried + r.anchors; carried = [] }
                    if case .paragraph(let c) = r.kind, c.isEmpty { carried += r.anchors; continue }
                    out.append(r)
                }
                continue
            case .paragraph(let c):
                if inline && hasRawHTML(c) {
                    var ids: [String] = []
                    let l = lowered(c, anchors: &ids, keepingUnread: keepingUnread, position: b.position)
                    if l.isEmpty && !ids.isEmpty { carried += ids; continue }
                    b.kind = .paragraph(l); b.anchors += ids
                }
            case .heading(let level, let c):
                if inline && hasRawHTML(c) {
                    var ids: [String] = []
                    b.kind = .heading(level: level, content: lowered(c, anchors: &ids, keepingUnread: keepingUnread, position: b.position))
                    b.anchors += ids
                }
            case .table(var t):
                if inline {
                    var ids: [String] = []
                    let p = b.position
                    t.header = t.header.map { hasRawHTML($0) ? lowered($0, anchors: &ids, keepingUnread: keepingUnread, position: p) : $0 }
                    t.rows = t.rows.map { $0.map { hasRawHTML($0) ? lowered($0, anchors: &ids, keepingUnread: keepingUnread, position: p) : $0 } }
                    b.kind = .table(t)
                }
            case .blockQuote(let bs): b.kind = .blockQuote(read(bs, inline: inline, depth: depth + 1, keepingUnread: keepingUnread))
            case .footnoteDefinition(let label, let bs):
                b.kind = .footnoteDefinition(label: label, blocks: read(bs, inline: inline, depth: depth + 1, keepingUnread: keepingUnread))
            case .unknown(let name, let bs): b.kind = .unknown(typeName: name, blocks: read(bs, inline: inline, depth: depth + 1, keepingUnread: keepingUnread))
            case .alert(var a):
                a.blocks = read(a.blocks, inline: inline, depth: depth + 1, keepingUnread: keepingUnread)
                b.kind = .alert(a)
            case .list(var l):
                for i in l.items.indices { l.items[i].blocks = read(l.items[i].blocks, inline: inline, depth: depth + 2, keepingUnread: keepingUnread) }
                b.kind = .list(l)
            case .definitionList(var items):
                for i in items.indices {
                    if inline && hasRawHTML(items[i].term) { items[i].term = lowered(items[i].term) }
                    items[i].definitions = items[i].definitions.map { read($0, inline: inline, depth: depth + 2) }
                }
                b.kind = .definitionList(items)
            case .codeBlock, .thematicBreak: break
            }
            if !carried.isEmpty, takesAnchors(b) { b.anchors = carried + b.anchors; carried = [] }
            out.append(b)
        }
        if !carried.isEmpty {
            if let i = out.lastIndex(where: takesAnchors) {
                out[i].anchors += carried
            } else {
                out.append(Block(.paragraph(Inlines()), position: blocks.last?.position))
                out[out.count - 1].anchors = carried
            }
        }
        return out
    }

    /// Whether `b` can carry ``Block/anchors`` (a paragraph or heading).
    static func takesAnchors(_ b: Block) -> Bool {
        switch b.kind {
        case .paragraph, .heading: return true
        default: return false
        }
    }

    /// The blocks an HTML block reads as (no block for one that is only a comment, a script or
    /// tags), each at `position`; containers past ``ASTLimits/maxNestingDepth`` (counting the
    /// `depth` the block sits at) give their content to their parent.
    package static func blocks(fromHTML html: String, position: SourcePosition?, depth: Int = 0) -> [Block] {
        var r = BlockReader(position: position)
        r.blocks(RawHTMLParser.parse(html), depth: depth)
        r.flush()
        return r.out
    }
}

/// Reads parsed raw HTML into blocks: block elements into their AST blocks, phrasing content
/// into paragraphs (whitespace collapsed as HTML renders it).
struct BlockReader {
    let position: SourcePosition?
    var out: [Block] = []
    var inline = InlinesBuilder()
    /// Whitespace was read since the last text and is written before the next one.
    var pendingSpace = false
    /// Ids read since the last block (``RawHTMLPolicy/anchorIDs(of:)``): the next paragraph or
    /// heading's ``Block/anchors``.
    var pendingAnchors: [String] = []

    init(position: SourcePosition?) { self.position = position }

    /// Block elements: their own blocks; elements read as containers of blocks.
    static let containers: Set<String> = [
        "div", "p", "figure", "figcaption", "section", "article", "header", "footer", "main", "nav", "aside",
        "center", "address", "details", "summary", "picture", "form", "fieldset", "body", "html", "dl", "dd", "dt",
        "tbody", "thead", "tfoot", "tr", "caption",
    ]

    /// The paragraph read so far, if it has text, ends.
    /// A paragraph without text is written only to hold ids (``RawHTMLReading/read(_:inline:depth:)``
    /// moves them to the next block).
    mutating func flush() {
        pendingSpace = false
        if inline.isEmpty && pendingAnchors.isEmpty { return }
        let c = inline.take()
        out.append(Block(.paragraph(c), position: position))
        out[out.count - 1].anchors = pendingAnchors
        pendingAnchors = []
    }

    /// Reads `nodes` at container `depth`.
    mutating func blocks(_ nodes: [RawHTMLNode], depth: Int) {
        for node in nodes {
            guard case .element(let e) = node else { inlineNode(node); continue }
            let nested = depth + 1 < ASTLimits.maxNestingDepth
            switch e.name {
            case "h1", "h2", "h3", "h4", "h5", "h6":
                flush()
                pendingAnchors = RawHTMLPolicy.anchorIDs(of: e)
                inlineNodes(e.children)
                let c = inline.take(); pendingSpace = false
                out.append(Block(.heading(level: Int(String(e.name.dropFirst()))!, content: c), position: position))
                out[out.count - 1].anchors = pendingAnchors
                pendingAnchors = []
            case "hr":
                flush(); pendingAnchors += RawHTMLPolicy.anchorIDs(of: e); out.append(Block(.thematicBreak, position: position))
            case "pre":
                flush()
                pendingAnchors += RawHTMLPolicy.anchorIDs(of: e)
                var text = Self.text(e.children)
                if text.hasPrefix("\n") { text.removeFirst() }
                if !text.hasSuffix("\n") { text += "\n" }
                out.append(Block(.codeBlock(info: "", literal: text), position: position))
            case "blockquote" where nested:
                flush()
                pendingAnchors += RawHTMLPolicy.anchorIDs(of: e)
                out.append(Block(.blockQuote(sub(e.children, depth: depth + 1)), position: position))
            case "ul", "ol":
                flush()
                pendingAnchors += RawHTMLPolicy.anchorIDs(of: e)
                if depth + 2 < ASTLimits.maxNestingDepth {
                    out.append(Block(.list(list(e, depth: depth)), position: position))
                } else {
                    blocks(e.children, depth: depth); flush()
                }
            case "table":
                flush()
                pendingAnchors += RawHTMLPolicy.anchorIDs(of: e)
                if let t = table(e) { out.append(Block(.table(t), position: position)) }
            case "summary":
                flush()
                pendingAnchors += RawHTMLPolicy.anchorIDs(of: e)
                inline.push(.strong); inlineNodes(e.children); inline.pop()
                flush()
            case "li", "blockquote":
                flush(); pendingAnchors += RawHTMLPolicy.anchorIDs(of: e); blocks(e.children, depth: depth); flush()
            case let name where Self.containers.contains(name):
                flush(); pendingAnchors += RawHTMLPolicy.anchorIDs(of: e); blocks(e.children, depth: depth); flush()
            default:
                inlineNode(node)
            }
        }
    }

    /// The blocks of `nodes` read on their own (a container's content).
    func sub(_ nodes: [RawHTMLNode], depth: Int) -> [Block] {
        var r = BlockReader(position: position)
        r.blocks(nodes, depth: depth)
        r.flush()
        return r.out
    }

    /// A list: each `li` an item of its blocks, other content an item of its own.
    func list(_ e: RawHTMLElement, depth: Int) -> ListBlock {
        let ordered = e.name == "ol"
        var items: [ListItem] = []
        for child in e.children {
            if case .element(let li) = child, li.name == "li" {
                items.append(ListItem(blocks: sub(li.children, depth: depth + 2), position: position))
            } else if case .text(let t) = child, t.allSatisfy(\.isWhitespace) {
                continue
            } else {
                items.append(ListItem(blocks: sub([child], depth: depth + 2), position: position))
            }
        }
        let start = ordered ? Int(e.attribute("start") ?? "") ?? 1 : 1
        return ListBlock(type: ordered ? .ordered : .bullet, start: start, delimiter: ordered ? .period : nil,
                         bulletChar: ordered ? nil : "-", tight: true, items: items)
    }

    /// A table: its rows in order (`thead`, `tbody`, `tfoot` or directly), the first the header,
    /// every row padded to the widest; `caption` text is left to the paragraph before it.
    mutating func table(_ e: RawHTMLElement) -> Table? {
        var rows: [[Inlines]] = []
        func collect(_ nodes: [RawHTMLNode]) {
            for case .element(let c) in nodes {
                switch c.name {
                case "thead", "tbody", "tfoot": collect(c.children)
                case "tr":
                    var row: [Inlines] = []
                    for case .element(let cell) in c.children where cell.name == "td" || cell.name == "th" {
                        var r = BlockReader(position: position)
                        r.inlineNodes(cell.children)
                        row.append(r.inline.take())
                        pendingAnchors += r.pendingAnchors
                    }
                    rows.append(row)
                case "caption":
                    inlineNodes(c.children); flush()
                default: continue
                }
            }
        }
        collect(e.children)
        let width = rows.map(\.count).max() ?? 0
        guard width > 0 else { return nil }
        let padded = rows.map { $0 + Array(repeating: Inlines(), count: width - $0.count) }
        return Table(alignments: Array(repeating: .none, count: width), header: padded[0], rows: Array(padded.dropFirst()))
    }

    /// Reads `nodes` as phrasing content into the paragraph being read.
    mutating func inlineNodes(_ nodes: [RawHTMLNode]) {
        for node in nodes { inlineNode(node) }
    }

    /// Reads one node as phrasing content: text with whitespace collapsed, `br` a hard break,
    /// `img` an image, elements with a span (``RawHTMLReading/spanKind(_:)``) that span, any
    /// other element its content (a block element inside phrasing content, a space around it).
    mutating func inlineNode(_ node: RawHTMLNode) {
        switch node {
        case .text(let t): text(t)
        case .element(let e):
            pendingAnchors += RawHTMLPolicy.anchorIDs(of: e)
            switch e.name {
            case "br": inline.append(.hardBreak); pendingSpace = false
            case "img":
                if pendingSpace && !inline.isEmpty { inline.append(.text(" ")) }
                pendingSpace = false
                RawHTMLReading.appendImage(e, to: &inline, position: position)
            case "pre":
                let t = Self.text(e.children)
                if pendingSpace && !inline.isEmpty { inline.append(.text(" ")) }
                pendingSpace = false
                inline.append(.text(t), in: .code)
            default:
                let block = Self.containers.contains(e.name) || ["li", "ul", "ol", "blockquote", "table", "hr"].contains(e.name)
                if block { pendingSpace = true }
                // A summary is a line of its own in phrasing content (a table cell): not "Sx".
                if e.name == "details" && !inline.isEmpty { inline.append(.hardBreak); pendingSpace = false }
                if let kind = RawHTMLReading.spanKind(e) {
                    // The space before the element stays outside its span.
                    if pendingSpace && !inline.isEmpty { inline.append(.text(" ")); pendingSpace = false }
                    inline.push(kind); inlineNodes(e.children); inline.pop()
                } else {
                    inlineNodes(e.children)
                }
                if e.name == "summary" { inline.append(.hardBreak); pendingSpace = false }
                if block { pendingSpace = true }
            }
        }
    }

    /// Text with runs of HTML whitespace as one space (none at the start of a paragraph).
    mutating func text(_ t: String) {
        var s = ""
        for ch in t.unicodeScalars {
            if ch == " " || ch == "\n" || ch == "\t" || ch == "\r" || ch == "\u{0C}" {
                pendingSpace = true
            } else {
                if pendingSpace && (!s.isEmpty || !inline.isEmpty) { s.unicodeScalars.append(" ") }
                pendingSpace = false
                s.unicodeScalars.append(ch)
            }
        }
        if !s.isEmpty { inline.append(.text(s)) }
    }

    /// The text of `nodes` as written (`pre`): `br` a line break.
    static func text(_ nodes: [RawHTMLNode]) -> String {
        var s = ""
        for n in nodes {
            switch n {
            case .text(let t): s += t
            case .element(let e): s += e.name == "br" ? "\n" : text(e.children)
            }
        }
        return s
    }
}
