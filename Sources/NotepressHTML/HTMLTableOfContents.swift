import NotepressAST

/// The HTML of a ``TableOfContents``: a `nav` of nested lists, one link per heading to its id
/// (pandoc's `--toc` markup, with a class instead of pandoc's `id="TOC"`):
///
/// ```html
/// <nav class="toc" aria-label="Contents">
/// <ul>
/// <li><a href="#intro">Intro</a>
/// <ul>
/// <li><a href="#setup">Setup</a></li>
/// </ul>
/// </li>
/// </ul>
/// </nav>
/// ```
///
/// Text goes through ``HTMLEscape/text(_:)``, ids through ``HTMLEscape/url(_:)`` after `#`
/// (cmark-gfm's link escaping, so `#café` is `#caf%C3%A9`, which browsers match to `id="café"`).
/// Empty for an empty table. Linear in the entries (depth grows by at most one per entry).
package enum HTMLTableOfContents {
    /// The `nav` element (no final newline), or `""`.
    package static func markup(_ toc: TableOfContents) -> String { markup(toc, className: "toc", label: "Contents") }

    /// The same `nav` with another class and accessible name (a site page's contents beside
    /// the text: ``pageContents(_:)``).
    package static func markup(_ toc: TableOfContents, className: String, label: String) -> String {
        guard !toc.isEmpty else { return "" }
        var out = "<nav class=\"" + className + "\" aria-label=\"" + HTMLEscape.text(label) + "\">\n<ul>\n"
        var depth = 0
        for (i, e) in toc.entries.enumerated() {
            if i > 0 {
                if e.depth > depth {
                    out += "\n<ul>\n"
                } else {
                    out += "</li>\n"
                    for _ in 0..<(depth - e.depth) { out += "</ul>\n</li>\n" }
                }
            }
            depth = e.depth
            out += "<li><a href=\"#" + HTMLEscape.url(e.id) + "\">" + HTMLEscape.text(e.text) + "</a>"
        }
        out += "</li>\n"
        for _ in 0..<depth { out += "</ul>\n</li>\n" }
        return out + "</ul>\n</nav>"
    }

    /// A site page's own contents, shown beside the text on wide screens and folded above it on
    /// narrow ones (issue 47 item 1, MkDocs' right column): the page's sections, levels 2 and 3,
    /// from the same headings and ids as `--toc`; `""` for a page with fewer than two sections.
    package static func pageContents(_ document: Document) -> String {
        let sections = TableOfContents(document).entries.filter { $0.level >= 2 }
        guard sections.count >= 2 else { return "" }
        let toc = TableOfContents(headings: sections.map { ($0.level, $0.text, $0.id) })
        return markup(toc, className: "page-toc", label: "On this page")
    }
}
