import CCmarkGFM

/// Raw `<a>` tags inside a Markdown link's text (`[see <a href="u">x</a>](v)`): HTML does not
/// nest links (a browser splits the outer one), so the outer link keeps its text and the inner
/// link is left out, with one warning at its file:line:column, in every format alike.
extension TreeBuilder {
    /// Whether raw inline HTML `html`, inside an open link, is a tag of a nested link to leave
    /// out: an `<a …>` start tag (warned) or the `</a>` of one left out. cmark-gfm delimits each
    /// tag (CommonMark §6.10), so the name is the letters after `<` or `</`.
    mutating func dropsNestedLinkTag(_ html: String, _ node: OpaquePointer) -> Bool {
        guard let end = Self.linkTag(html) else { return false }
        if end {
            guard droppedNestedLinks > 0 else { return false }
            droppedNestedLinks -= 1
            return true
        }
        droppedNestedLinks += 1
        warn("raw HTML link '\(html.prefix(60))' inside link text: left out, its text stays in the outer link (links do not nest)", node)
        return true
    }

    /// Whether raw inline HTML `html` is an `a` tag: `false` a start tag, `true` an end tag,
    /// `nil` anything else. cmark-gfm delimits each tag (CommonMark §6.10), so the name is the
    /// letters after `<` or `</`.
    static func linkTag(_ html: String) -> Bool? {
        let u = Array(html.utf8.prefix(4))
        let end = u.count > 1 && u[1] == UInt8(ascii: "/")
        let at = end ? 2 : 1
        guard u.count > at + 1, u[0] == UInt8(ascii: "<"), u[at] | 0x20 == UInt8(ascii: "a") else { return nil }
        let next = u[at + 1]
        guard next == UInt8(ascii: ">") || next == UInt8(ascii: " ") || next == UInt8(ascii: "\t") || next == UInt8(ascii: "\n")
                || next == UInt8(ascii: "\r") || next == UInt8(ascii: "/") else { return nil }
        return end
    }

    /// Notes raw inline HTML `html` at `node`, outside any Markdown link: the raw `<a>` open, if
    /// any (``rawLinkOpen``).
    mutating func noteRawLinkTag(_ html: String, _ node: OpaquePointer) {
        guard let end = Self.linkTag(html) else { return }
        rawLinkOpen = end ? nil : node
    }

    /// A Markdown link `node` starts outside other Markdown links: inside a raw `<a>`
    /// (``rawLinkOpen``) the raw link ends where it starts, in every format (as a browser reads
    /// `<a href="x">see [y](z) more</a>`: "see " to x, "y" to z, " more" not a link), with a
    /// warning at the link (or at the raw tag when the link has no position: a GFM autolink),
    /// unless nothing changes: the link is all the raw link holds and goes where it goes
    /// (`<a href="u">u</a>`, which GFM's autolinks make of a bare URL).
    mutating func noteLinkInsideRawLink(_ node: OpaquePointer) {
        guard let raw = rawLinkOpen else { return }
        rawLinkOpen = nil
        let tag = Self.string(cmark_node_get_literal(raw))
        if let before = Self.sibling(of: node, next: false), before == raw, let after = Self.sibling(of: node, next: true),
           Self.typeName(after) == "html_inline", Self.linkTag(Self.string(cmark_node_get_literal(after))) == true,
           tag == "<a href=\"" + Self.string(cmark_node_get_url(node)) + "\">" {
            return
        }
        warn("link inside raw HTML link '\(tag.prefix(60))': the raw link ends where this link starts, its text after this link is no link (links do not nest)",
             position(node) == nil ? raw : node)
    }

    /// The sibling before (or after, `next`) `node`, past empty text nodes (GFM's autolinks
    /// leave them around the link they cut out of a text).
    static func sibling(of node: OpaquePointer, next: Bool) -> OpaquePointer? {
        var n = next ? cmark_node_next(node) : cmark_node_previous(node)
        while let c = n, typeName(c) == "text", string(cmark_node_get_literal(c)).isEmpty {
            n = next ? cmark_node_next(c) : cmark_node_previous(c)
        }
        return n
    }
}
