import NotepressAST

/// The MkDocs Markdown extensions (``MkDocsExtension``) that are read as passes over the tree
/// libcmark-gfm parsed (never a Markdown parser of their own): the text runs cmark gives back
/// are searched for the extensions' syntax, outside code spans, code blocks and math.
///
/// - `attr_list`: `{ #id .class key=value }` (or `{: … }`) at the end of a heading's line
///   (``Block/attributes``; the id is the heading's anchor), on a paragraph's last line by itself,
///   and right after a link or image (``Link/attributes``; an image's numeric `width`/`height`
///   are its size).
/// - `def_list`: a paragraph's lines starting `: ` after its first line(s) are definitions of
///   those lines (terms); a paragraph of `: ` lines after a paragraph defines that paragraph's
///   lines; an indented code block right after a definition is more of its content (read again).
/// - `abbr`: paragraphs of `*[ABBR]: expansion` lines are taken out; every whole-word `ABBR` in
///   text is an ``InlineSpan/Kind/abbreviation(_:)``.
/// - `pymdownx.keys`: `++ctrl+alt+del++` → one ``InlineSpan/Kind/keyboard`` span per key, `+`
///   between them.
/// - `pymdownx.caret`: `^^text^^` → ``InlineSpan/Kind/insert``, `^text^` (no blank) →
///   superscript. `pymdownx.tilde`'s `~text~` is read in ``TreeBuilder`` (cmark's one-tilde
///   strikethrough); `pymdownx.mark`'s `==text==` by ``VaultSyntax``.
///
/// - `toc`: a paragraph that is only `[TOC]` becomes a ``ContentsMarker`` block.
///
/// The inline constructs are found within one text run (their content plain text): `^^**a**^^`
/// stays as written.
struct MkDocsSyntax {
    /// The extensions on.
    let extensions: Set<MkDocsExtension>
    /// Reads Markdown text into blocks (a definition's indented continuation).
    let reparse: (String) -> [Block]
    /// `*[ABBR]: expansion` definitions found, by abbreviation.
    var abbreviations: [String: String] = [:]
    /// The file read, for warnings.
    let path: String?
    /// Warnings: constructs of an extension that is on, recognised and left as written.
    let findings = Findings()

    /// Warnings collected while the (non-mutating) passes run.
    final class Findings {
        /// The warnings, in document order.
        var diagnostics: [Diagnostic] = []
    }

    /// A pass for `extensions`, warning about `path`; `reparse` reads a definition's indented text.
    init(extensions: Set<MkDocsExtension>, path: String? = nil, reparse: @escaping (String) -> [Block]) {
        self.extensions = extensions
        self.path = path
        self.reparse = reparse
    }

    /// Per span of `c`: whether its text is literal (code, math, or inside them). One pass,
    /// parents first.
    static func literalSpans(_ c: Inlines) -> [Bool] {
        var literal = [Bool](repeating: false, count: c.spans.count)
        for (i, s) in c.spans.enumerated() {
            switch s.kind {
            case .code, .math: literal[i] = true
            default: literal[i] = s.parent.map { literal[$0] } ?? false
            }
        }
        return literal
    }

    /// Reports, once per block, syntax of an extension that is on and was left in `c`'s text
    /// (outside code): `^^…^^` or `++…++` around markup (read within one text run only), an
    /// attribute list where none is read.
    func reportLeftovers(_ c: Inlines, _ block: Block) {
        let literal = Self.literalSpans(c)
        var text = ""
        for r in c.runs {
            guard case .text(let t) = r.content, !(r.span.map { literal[$0] } ?? false) else { continue }
            text += t
        }
        var what: [String] = []
        if extensions.contains(.caret), text.components(separatedBy: "^^").count > 2 { what.append("^^…^^ (pymdownx.caret)") }
        if extensions.contains(.keys), text.components(separatedBy: "++").count > 2, text.range(of: "++ ") == nil {
            what.append("++…++ (pymdownx.keys)")
        }
        if extensions.contains(.attrList), text.contains("{:") || text.contains("{ #") || text.contains("{#") {
            what.append("{ … } (attr_list)")
        }
        guard !what.isEmpty else { return }
        findings.diagnostics.append(Diagnostic(.warning, what.joined(separator: ", ")
            + " around markup or in a place it is not read: left as written", file: path, position: block.position))
    }

    /// `blocks` (a document's) with the extensions read.
    mutating func apply(_ blocks: [Block]) -> [Block] {
        var bs = blocks
        if extensions.contains(.abbr) { bs = collectAbbreviations(bs) }
        return transform(bs)
    }

    // MARK: blocks

    /// The blocks of one container, each read and definition lists formed.
    func transform(_ blocks: [Block]) -> [Block] {
        var out: [Block] = []
        out.reserveCapacity(blocks.count)
        for var b in blocks {
            switch b.kind {
            case .paragraph(var c):
                // A cut line (``MkDocsBlocks/outCut``) that libcmark-gfm did not read on into an
                // admonition: its sentinel goes.
                if let first = c.runs.first, first.span == nil, case .text(let t) = first.content, let s = t.unicodeScalars.first,
                   s == MkDocsBlocks.outCut || s == MkDocsBlocks.quoteCut {
                    c.runs[0].content = .text(String(t.unicodeScalars.dropFirst()))
                }
                // `toc`'s marker: the page's table of contents goes there (``ContentsMarker``).
                if extensions.contains(.toc), Self.isContentsMarker(c) {
                    b.kind = .paragraph(c)
                    out.append(Block(.unknown(typeName: ContentsMarker.typeName, blocks: [b]), position: b.position))
                    continue
                }
                if extensions.contains(.attrList), let (rest, attrs) = Self.trailingAttributeLine(c) {
                    c = rest
                    b.attributes = attrs
                }
                c = inlines(c)
                reportLeftovers(c, b)
                b.kind = .paragraph(c)
                if extensions.contains(.defList), definitions(b, c, into: &out) { continue }
            case .heading(let level, var c):
                if extensions.contains(.attrList), let (rest, attrs) = Self.trailingAttributes(c) {
                    c = rest
                    b.attributes = attrs
                }
                c = inlines(c)
                reportLeftovers(c, b)
                b.kind = .heading(level: level, content: c)
            case .table(var t):
                t.header = t.header.map(inlines)
                t.rows = t.rows.map { $0.map(inlines) }
                b.kind = .table(t)
            case .codeBlock(let info, let literal):
                // An indented block right after a definition continues it (Python-Markdown's
                // four-space indentation of a definition's further paragraphs).
                if extensions.contains(.defList), info.isEmpty, let last = out.last, case .definitionList(var items) = last.kind,
                   !items.isEmpty, !items[items.count - 1].definitions.isEmpty, Self.isIndented(b) {
                    let n = items[items.count - 1].definitions.count - 1
                    items[items.count - 1].definitions[n] += reparse(literal)
                    out[out.count - 1].kind = .definitionList(items)
                    continue
                }
            case .blockQuote(let children): b.kind = .blockQuote(transform(children))
            case .list(var l):
                for i in l.items.indices { l.items[i].blocks = transform(l.items[i].blocks) }
                b.kind = .list(l)
            case .footnoteDefinition(let label, let children): b.kind = .footnoteDefinition(label: label, blocks: transform(children))
            case .alert(var a):
                a.blocks = transform(a.blocks)
                b.kind = .alert(a)
            case .unknown(let name, let children): b.kind = .unknown(typeName: name, blocks: transform(children))
            case .definitionList, .htmlBlock, .thematicBreak: break
            }
            out.append(b)
        }
        return out
    }

    /// Whether a paragraph is only `[TOC]` (cmark drops the blanks around it), as Python-Markdown's `toc`
    /// finds its marker: text outside any span, nothing else.
    static func isContentsMarker(_ c: Inlines) -> Bool {
        guard c.runs.count <= 8 else { return false }
        var text = ""
        for r in c.runs {
            guard r.span == nil, case .text(let t) = r.content else { return false }
            text += t
        }
        return text == ContentsMarker.text
    }

    /// Whether a code block was indented (not fenced): its source line does not start with a fence.
    static func isIndented(_ b: Block) -> Bool {
        // Fenced blocks carry an info string or were written with ``` / ~~~; the reader keeps no
        // flag, so a block with an empty info string counts as indented unless its position's
        // column shows a fence, which cmark reports at the fence's column (indented: column 5+).
        guard let p = b.position else { return true }
        return p.column >= 5
    }

    // MARK: definition lists

    /// Reads paragraph `b` (content `c`) as definitions, appending to `out`; `false` when it holds none.
    func definitions(_ b: Block, _ c: Inlines, into out: inout [Block]) -> Bool {
        let lines = Self.lines(c)
        guard let k = lines.firstIndex(where: { Self.definitionText($0) != nil }) else { return false }
        var terms: [Inlines]
        var termPosition = b.position
        if k == 0 {
            // `: definition` after a blank line: the previous paragraph's lines are the terms, or
            // the definition is one more of the previous list's last term.
            guard let prev = out.last else { return false }
            if case .paragraph(let pc) = prev.kind, prev.attributes == nil {
                terms = Self.lines(pc)
                termPosition = prev.position
                out.removeLast()
            } else if case .definitionList = prev.kind {
                terms = []
            } else if case .htmlBlock(let h) = prev.kind {
                // A term written as raw HTML (MkDocs Material's `<!-- md:option name -->`), as
                // Python-Markdown takes the HTML placeholder paragraph before the definition.
                var html = h
                while html.last == "\n" { html.removeLast() }
                terms = [Inlines([InlineRun(.rawHTML(html))])]
                termPosition = prev.position
                out.removeLast()
            } else {
                return false
            }
        } else {
            terms = Array(lines[..<k])
        }
        // The definitions: each `: ` line and the lines after it up to the next.
        var defs: [Inlines] = []
        var current: [Inlines] = []
        for line in lines[k...] {
            if let d = Self.definitionText(line) {
                if !current.isEmpty { defs.append(Self.joined(current)) }
                current = [d]
            } else {
                current.append(line)
            }
        }
        if !current.isEmpty { defs.append(Self.joined(current)) }
        let position = b.position.map { SourcePosition(line: $0.line + k, column: $0.column) }
        let defBlocks: [[Block]] = defs.map { [Block(.paragraph($0), position: position)] }
        var items = terms.enumerated().map { i, t in
            DefinitionItem(term: t, definitions: [], position: termPosition.map { SourcePosition(line: $0.line + i, column: $0.column) })
        }
        if let last = out.last, case .definitionList(var existing) = last.kind {
            if items.isEmpty {
                guard !existing.isEmpty else { return false }
                existing[existing.count - 1].definitions += defBlocks
            } else {
                items[items.count - 1].definitions = defBlocks
                existing += items
            }
            out[out.count - 1].kind = .definitionList(existing)
            return true
        }
        guard !items.isEmpty else { return false }
        items[items.count - 1].definitions = defBlocks
        out.append(Block(.definitionList(items), position: termPosition))
        return true
    }

    /// The lines of `c`, split at its line breaks (the breaks dropped).
    static func lines(_ c: Inlines) -> [Inlines] {
        var out: [Inlines] = []
        var start = 0
        for (i, r) in c.runs.enumerated() {
            switch r.content {
            case .softBreak, .hardBreak:
                out.append(c.subrange(start..<i))
                start = i + 1
            default: continue
            }
        }
        out.append(c.subrange(start..<c.runs.count))
        return out
    }

    /// Lines joined again by soft breaks.
    static func joined(_ lines: [Inlines]) -> Inlines {
        var b = InlinesBuilder()
        for (i, l) in lines.enumerated() {
            if i > 0 { b.append(.softBreak) }
            b.append(contentsOf: compacted(l))
        }
        return b.take()
    }

    /// `line` with only the spans its runs use (a subrange keeps the whole tree).
    static func compacted(_ line: Inlines) -> Inlines {
        var map = [Int: Int]()
        var spans: [InlineSpan] = []
        func keep(_ s: Int) -> Int {
            if let m = map[s] { return m }
            var span = line.spans[s]
            let parent = span.parent.map(keep)
            span.parent = parent
            spans.append(span)
            map[s] = spans.count - 1
            return spans.count - 1
        }
        let runs = line.runs.map { r -> InlineRun in
            var n = r
            n.span = r.span.map(keep)
            return n
        }
        return Inlines(runs: runs, spans: spans)
    }

    /// A definition line's content without its `:` and the blanks after it, or `nil` when the
    /// line is no definition (its first run is not text outside every span starting `: `).
    static func definitionText(_ line: Inlines) -> Inlines? {
        guard let first = line.runs.first, first.span == nil, case .text(let t) = first.content else { return nil }
        let u = Array(t.utf8)
        guard u.count >= 2, u[0] == 0x3A, u[1] == 0x20 || u[1] == 0x09 else { return nil }
        var i = 1
        while i < u.count, u[i] == 0x20 || u[i] == 0x09 { i += 1 }
        var l = compacted(line)
        if i == u.count {
            l.runs.removeFirst()
        } else {
            l.runs[0].content = .text(String(decoding: u[i...], as: UTF8.self))
        }
        return l
    }
}
