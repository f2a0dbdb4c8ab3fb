import NotepressAST
import NotepressRawHTML

/// Raw HTML in pages without `--unsafe`: what ``RawHTMLPolicy`` keeps, written again with this
/// module's escaping (``HTMLEscape``), so nothing of the input's own bytes reaches the page.
extension HTMLBodyWriter {
    /// An HTML block: parsed, kept by the policy, written as a balanced tree.
    mutating func sanitizedHTMLBlock(_ html: String) {
        writeRawNodes(RawHTMLPolicy.sanitized(RawHTMLParser.parse(html)))
    }

    /// Writes kept nodes (elements already through the policy). Depth is bounded by the parser.
    mutating func writeRawNodes(_ nodes: [RawHTMLNode]) {
        for node in nodes {
            switch node {
            case .text(let t): HTMLEscape.appendText(t, to: &out)
            case .element(let e):
                writeRawStartTag(e)
                if !RawHTMLPolicy.isVoid(e.name) {
                    writeRawNodes(e.children)
                    writeRawEndTag(e.name)
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
