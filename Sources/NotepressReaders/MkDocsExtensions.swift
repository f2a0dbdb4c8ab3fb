/// The Python-Markdown and PyMdown extensions a MkDocs project turns on in `mkdocs.yml`'s
/// `markdown_extensions:` (by the names it lists them under), which the Markdown reader
/// honours on top of libcmark-gfm's parse. A folder without `mkdocs.yml` (and `--fragment`)
/// turns none on: cmark-gfm's bytes.
package enum MkDocsExtension: String, Sendable, CaseIterable, Hashable {
    /// `!!! note "Title"` blocks (→ ``Alert``).
    case admonition
    /// `??? note` / `???+ note`: folded admonitions.
    case details = "pymdownx.details"
    /// `=== "Tab"` content tabs.
    case tabbed = "pymdownx.tabbed"
    /// `{ #id .class key=value }` after headings, links, images, paragraphs.
    case attrList = "attr_list"
    /// Definition lists (`Term` then `:   Definition`).
    case defList = "def_list"
    /// `*[HTML]: Hyper Text Markup Language` abbreviations.
    case abbr
    /// `--8<-- "file"` includes.
    case snippets = "pymdownx.snippets"
    /// `++ctrl+alt+del++` keys.
    case keys = "pymdownx.keys"
    /// `^^insert^^` and `^superscript^`.
    case caret = "pymdownx.caret"
    /// `==mark==`.
    case mark = "pymdownx.mark"
    /// `~~delete~~` and `~subscript~`.
    case tilde = "pymdownx.tilde"
    /// `toc` (with `permalink`: a link beside each heading).
    case toc
}
