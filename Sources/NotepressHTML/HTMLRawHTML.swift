import NotepressAST
import NotepressRawHTML

/// Raw HTML in pages without `--unsafe`: what ``RawHTMLPolicy`` keeps, written again with this
/// module's escaping (``HTMLEscape``), so nothing of the input's own bytes reaches the page.
extension HTMLBodyWriter {
    /// An HTML block: parsed, kept by the policy, written as a tree. Elements it leaves open
    /// that may hold Markdown's blocks (``RawHTMLPolicy/carriedElements(_:)``: `<details>`,
    /// blank line, Markdown, `</details>`) stay open in ``rawBlockOpen`` for the blocks after it;
    /// the next HTML block is parsed after their start tags, so its end tags close them as a
    /// browser would; what is still open when the container ends is closed there
    /// (``closeRawBlockElements()``). Every other element is closed in its block.
    mutating func sanitizedHTMLBlock(_ html: String) {
        var written = rawBlockOpen.count
        var nodes: [RawHTMLNode]
        if written == 0 {
            nodes = RawHTMLPolicy.sanitized(RawHTMLParser.parse(html))
        } else {
            var prefix: [UInt8] = []
            swap(&prefix, &out)
            for e in rawBlockOpen { writeRawStartTag(e) }
            swap(&prefix, &out)
            nodes = RawHTMLPolicy.sanitized(RawHTMLParser.parse(String(decoding: prefix, as: UTF8.self) + html))
            if !Self.starts(nodes, with: rawBlockOpen) {
                // The parser put the block's content outside the open elements (text in a
                // table row goes before the table): they end here, the block stands alone.
                closeRawBlockElements()
                written = 0
                nodes = RawHTMLPolicy.sanitized(RawHTMLParser.parse(html))
            }
        }
        let carried = RawHTMLPolicy.carriedElements(nodes)
        writeRawNodes(nodes, depth: 0, written: written, keepingOpen: carried.count)
        rawBlockOpen = carried
    }

    /// Whether `nodes` begin with `open` (names), each the first child of the one before.
    static func starts(_ nodes: [RawHTMLNode], with open: [RawHTMLElement]) -> Bool {
        var level = nodes
        for e in open {
            guard case .element(let n)? = level.first, n.name == e.name else { return false }
            level = n.children
        }
        return true
    }

    /// Closes the elements HTML blocks left open in the container being written
    /// (``sanitizedHTMLBlock(_:)``), innermost first, on a line of their own.
    mutating func closeRawBlockElements() {
        guard !rawBlockOpen.isEmpty else { return }
        cr()
        while let e = rawBlockOpen.popLast() { writeRawEndTag(e.name) }
        out.append(0x0A)
    }

    /// Writes kept nodes (elements already through the policy). Depth is bounded by the parser.
    /// Along the first-node path the `written` outermost elements were written before (their
    /// start tags are not written again); along the last-node path the `keepingOpen` outermost
    /// ones get no end tag.
    mutating func writeRawNodes(_ nodes: [RawHTMLNode], depth: Int = 0, written: Int = 0, keepingOpen: Int = 0) {
        for (i, node) in nodes.enumerated() {
            switch node {
            case .text(let t): HTMLEscape.appendText(t, to: &out)
            case .element(let e):
                let already = i == 0 && depth < written
                let staysOpen = i == nodes.count - 1 && depth < keepingOpen
                if !already { writeRawStartTag(e) }
                if !RawHTMLPolicy.isVoid(e.name) {
                    writeRawNodes(e.children, depth: depth + 1, written: already ? written : 0,
                                  keepingOpen: staysOpen ? keepingOpen : 0)
                    if !staysOpen { writeRawEndTag(e.name) }
                }
            }
        }
    }

    /// `<name attr="value">`, values escaped as attribute text.
    mutating func writeRawStartTag(_ e: RawHTMLElement) {
        out.append(0x3C)
        out.append(contentsOf: e.name.utf8)
        for a in e.attributes {
            out.append(0x20)
            out.append(contentsOf: a.name.utf8)
            out.append(contentsOf: "=\"".utf8)
            HTMLEscape.appendAttribute(a.value, to: &out)
            out.append(0x22)
        }
        out.append(0x3E)
    }

    /// `</name>`.
    mutating func writeRawEndTag(_ name: String) {
        out.append(contentsOf: "</".utf8)
        out.append(contentsOf: name.utf8)
        out.append(0x3E)
    }

    /// One raw inline HTML fragment: a kept start tag is written and remembered as open, an end
    /// tag closes the innermost open element of its name (and those opened inside it), anything
    /// else writes nothing. ``closeRawInlineElements()`` closes what is left at the end of the
    /// inline content, so an unclosed tag never reaches past its paragraph or cell.
    mutating func sanitizedInlineHTML(_ html: String) {
        switch RawHTMLPolicy.inlineToken(html) {
        case .start(let e):
            // As deep as the AST nests (``ASTLimits/maxNestingDepth``); deeper start tags go.
            if RawHTMLPolicy.isVoid(e.name) {
                writeRawStartTag(e)
            } else if rawInlineOpen.count < ASTLimits.maxNestingDepth {
                writeRawStartTag(e)
                rawInlineOpen.append(e.name)
            }
        case .startDroppingContent(let name):
            rawInlineDropping = name
        case .end(let name):
            guard let i = rawInlineOpen.lastIndex(of: name) else { return }
            while rawInlineOpen.count > i { writeRawEndTag(rawInlineOpen.removeLast()) }
        case .nothing:
            return
        }
    }

    /// Before a Markdown link: a raw `<a>` still open ends here, with the raw elements opened
    /// inside it, as a browser's parser ends it (links do not nest; HTML Living Standard
    /// §13.2.6.4.7, an `a` start tag with an `a` open), so `<a href="x">see [y](z) more</a>`
    /// links "see " to x, "y" to z and not " more" (what GitHub's page shows); its `</a>` then
    /// closes nothing. ``RawHTMLReading/lowered(_:)`` reads it the same way for other formats.
    mutating func endRawLink() {
        guard let i = rawInlineOpen.lastIndex(of: "a") else { return }
        while rawInlineOpen.count > i { writeRawEndTag(rawInlineOpen.removeLast()) }
    }

    /// Closes the raw inline elements still open, innermost first, and ends a dropped one.
    mutating func closeRawInlineElements() {
        while let name = rawInlineOpen.popLast() { writeRawEndTag(name) }
        rawInlineDropping = nil
    }

    /// Whether `run` is inside a raw inline `<script>`, `<style>`, … (not written); its end tag
    /// ends the dropping.
    mutating func droppedRawInline(_ run: InlineRun) -> Bool {
        guard let dropping = rawInlineDropping else { return false }
        if case .rawHTML(let h) = run.content, RawHTMLPolicy.inlineToken(h) == .end(dropping) { rawInlineDropping = nil }
        return true
    }
}
