import CCmarkGFM
import Foundation
import NotepressAST

/// Wiki links in Markdown (``MarkdownReader/wikilinks``): in text nodes, and Foam's `[[note]]`
/// that cmark reads as `[` + a shortcut reference link + `]`.
extension TreeBuilder {
    /// Adds a text node's text, with each wiki link in it as a link span (``WikiLinkSyntax``).
    /// `pos` is the node's start in the parsed text (``TreeBuilder/rawPosition(_:)``); a text node
    /// never spans lines, so a link's column is the node's plus its byte offset (exact unless
    /// entities or escapes before it changed the length), then given back as the source's.
    mutating func addTextWithWikiLinks(_ text: String, _ pos: SourcePosition?) {
        let whole = text
        var text = text
        text.withUTF8 { bytes in
            let found = WikiLinkSyntax.matches(in: bytes, order: wikiLinkOrder)
            var done = 0
            for m in found {
                let inner = String(decoding: UnsafeBufferPointer(rebasing: bytes[m.inner]), as: UTF8.self)
                guard let parts = WikiLinkSyntax.parts(inner, embed: m.isEmbed, order: wikiLinkOrder) else { continue }
                if m.range.lowerBound > done {
                    addRun(.text(String(decoding: UnsafeBufferPointer(rebasing: bytes[done..<m.range.lowerBound]), as: UTF8.self)))
                }
                let at = pos.map { SourcePosition(line: $0.line, column: $0.column + m.range.lowerBound) }
                addWikiLink(parts, at)
                done = m.range.upperBound
            }
            if done < bytes.count {
                addRun(.text(done == 0 ? whole : String(decoding: UnsafeBufferPointer(rebasing: bytes[done...]), as: UTF8.self)))
            }
        }
    }

    /// One wiki link span holding its text; `pos` in the parsed text (raw).
    mutating func addWikiLink(_ parts: WikiLinkSyntax.Parts, _ pos: SourcePosition?) {
        var link = Link(destination: parts.target, syntax: parts.isExternal ? .standard : .wiki, position: pos.map(sourcePosition),
                        isEmbed: parts.isEmbed && !parts.isImage && !parts.isExternal)
        (link.width, link.height) = (parts.width, parts.height)
        openSpan(parts.isImage ? .image(link) : .link(link))
        addRun(.text(parts.text))
        closeSpan()
    }

    /// `[[note]]` that cmark read as `[`, a shortcut reference link `[note]` (a link reference
    /// definition `[note]: …` exists) and `]`: when `node` is that link (its source is exactly
    /// `[` + its text + `]`, with `[` before it and `]` after it), the `[` already added is taken
    /// back, the wiki link is added, and the `]` of the next text node is dropped. Returns whether
    /// it did.
    mutating func enterReferenceWikiLink(_ node: OpaquePointer, image: Bool) -> Bool {
        // Cheap first: the text before ends with `[` (C string, no copy).
        guard !image, let previous = cmark_node_previous(node), cmark_node_get_type(previous) == CMARK_NODE_TEXT,
              let previousText = cmark_node_get_literal(previous), strlen(previousText) > 0, previousText[strlen(previousText) - 1] == 0x5B,
              let after = cmark_node_next(node), cmark_node_get_type(after) == CMARK_NODE_TEXT,
              let afterText = cmark_node_get_literal(after), afterText[0] == 0x5D else { return false }
        guard let child = cmark_node_first_child(node), cmark_node_next(child) == nil,
              cmark_node_get_type(child) == CMARK_NODE_TEXT else { return false }
        let embedBefore = strlen(previousText) >= 2 && previousText[strlen(previousText) - 2] == 0x21  // `![`
        let line = Int(cmark_node_get_start_line(node))
        let start = Int(cmark_node_get_start_column(node)), end = Int(cmark_node_get_end_column(node))
        guard line >= 1, Int(cmark_node_get_end_line(node)) == line, start >= 2 else { return false }
        if lineStarts.isEmpty { computeLineStarts() }
        guard line <= lineStarts.count else { return false }
        let lineStart = lineStarts[line - 1]
        let first = lineStart + start - 1, last = lineStart + end - 1  // the link's `[` and `]`
        guard last + 1 < source.count, first >= 1, source[first - 1] == 0x5B, source[first] == 0x5B,
              source[last] == 0x5D, source[last + 1] == 0x5D else { return false }
        let inner = String(decoding: UnsafeBufferPointer(rebasing: source[(first + 1)..<last]), as: UTF8.self)
        guard inner == Self.string(cmark_node_get_literal(child)) else { return false }
        let embed = first >= 2 && source[first - 2] == 0x21
        guard let parts = WikiLinkSyntax.parts(inner, embed: embed, order: wikiLinkOrder),
              inlines.removeSuffixOfLastText(embed && embedBefore ? "![" : "[") else { return false }
        lastRunIsOpenText = false
        let column = start - 1 - (embed ? 1 : 0)
        addWikiLink(parts, SourcePosition(line: sourceLine(line + lineOffset), column: column))
        dropLeadingBracket = true
        return true
    }
}
