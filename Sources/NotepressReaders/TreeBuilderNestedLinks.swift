/// Raw `<a>` tags inside a Markdown link's text (`[see <a href="u">x</a>](v)`): HTML does not
/// nest links (a browser splits the outer one), so the outer link keeps its text and the inner
/// link is left out, with one warning at its file:line:column, in every format alike.
extension TreeBuilder {
    /// Whether raw inline HTML `html`, inside an open link, is a tag of a nested link to leave
    /// out: an `<a …>` start tag (warned) or the `</a>` of one left out. cmark-gfm delimits each
    /// tag (CommonMark §6.10), so the name is the letters after `<` or `</`.
    mutating func dropsNestedLinkTag(_ html: String, _ node: OpaquePointer) -> Bool {
        let u = Array(html.utf8.prefix(4))
        let end = u.count > 1 && u[1] == UInt8(ascii: "/")
        let at = end ? 2 : 1
        guard u.count > at + 1, u[0] == UInt8(ascii: "<"), u[at] | 0x20 == UInt8(ascii: "a") else { return false }
        let next = u[at + 1]
        guard next == UInt8(ascii: ">") || next == UInt8(ascii: " ") || next == UInt8(ascii: "\t") || next == UInt8(ascii: "\n")
                || next == UInt8(ascii: "\r") || next == UInt8(ascii: "/") else { return false }
        if end {
            guard droppedNestedLinks > 0 else { return false }
            droppedNestedLinks -= 1
            return true
        }
        droppedNestedLinks += 1
        warn("raw HTML link '\(html.prefix(60))' inside link text: left out, its text stays in the outer link (links do not nest)", node)
        return true
    }
}
