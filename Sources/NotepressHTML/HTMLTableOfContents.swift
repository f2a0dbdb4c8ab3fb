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
    package static func markup(_ toc: TableOfContents) -> String {
        guard !toc.isEmpty else { return "" }
        var out = "<nav class=\"toc\" aria-label=\"Contents\">\n<ul>\n"
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
}
