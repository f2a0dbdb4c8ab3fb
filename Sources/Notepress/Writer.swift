import Foundation
import NotepressAST
import NotepressHTML
import NotepressResources
import NotepressThemes

/// Options of a conversion, shared by every output format: each format reads the fields that
/// concern it (the list under each field). The defaults give what `notepress convert` writes
/// without options: a standalone HTML page in the default theme at the Large size category,
/// plain 80-column terminal text, validated TEI.
public struct ConversionOptions: Sendable {
    /// The theme at the chosen size category and Bold Text setting (HTML pages, RTF, terminal
    /// text): ``Theme/default`` at ``SizeCategory/large`` unless given; ``Theme/named(_:)`` loads
    /// another shipped one.
    public var theme: ResolvedTheme
    /// Templates, themes and schemas (embedded, or overridden by `--data-dir`).
    package var templates: TemplateStore
    /// HTML: write only the body content, no page template (for Markdown, byte for byte what
    /// cmark-gfm writes).
    public var fragment = false
    /// Every format: keep raw HTML and dangerous URLs (`javascript:` and the like), as
    /// `--unsafe` does. Off by default: raw HTML is left out and such links are not live.
    public var unsafe = false
    /// Terminal text: the width in columns that lines are broken at (default 80). The command
    /// line passes the terminal's width; the library never looks at a terminal.
    public var width = 80
    /// Terminal text: how many colours the escape sequences use (default ``ColorDepth/none``:
    /// plain text).
    public var colorDepth: ColorDepth = .none
    /// Terminal text: the terminal draws on a dark background, so highlighted code takes the
    /// theme's dark code palette at 256 colours and truecolour (default off: the light one). The
    /// command line reads it from `COLORFGBG` (rxvt's and Konsole's `FG;BG`, BG 0–6 or 8 dark).
    public var darkTerminal = false
    /// Terminal text: write links as OSC 8 hyperlinks (default off: the URL follows the text).
    public var hyperlinks = false
    /// Terminal text: ASCII table borders instead of box drawing.
    public var ascii = false
    /// TEI: validate the output against the shipped schema before returning it (default on);
    /// output that fails throws ``NotepressError/schemaViolation(file:position:message:)``.
    public var validate = true
    /// HTML fragments and pages of GFM input: apply GFM's tagfilter to raw HTML kept by
    /// ``unsafe`` (default on).
    public var tagfilter = true
    /// HTML fragments: write heading ids and block anchors (`--heading-ids`). Pages always do;
    /// a fragment without it is byte for byte cmark-gfm's HTML.
    public var headingIDs = false
    /// HTML: the text of a link to its own anchor after each heading that has an id (MkDocs
    /// `toc` `permalink`: `¶`, class `headerlink`); `nil` (the default): none.
    public var headingPermalink: String?
    /// Man pages: the manual section (`1`–`9`, optionally with a suffix: `3p`) when the document
    /// names none (front matter `section`, a `% NAME(S)` or ronn title line, a `name.S.md` file
    /// name); `notepress convert -o page.8` gives `8`. `nil`: section 1 with a warning.
    public var manSection: String?
    /// HTML pages and a folder run's lists and stylesheet: the stylesheets generated so far, so
    /// that the pages of a run generate each once. Shared by the copies of these options (a
    /// folder run's per-page options); new options start a new one, so nothing outlives the run.
    package var stylesheets = StylesheetCache()
    /// The HTML page template, loaded once (`--template FILE`, or `html/page.html` of the data
    /// folder or built in); `nil` reads `html/page.html` from ``templates`` for each page.
    package var pageTemplate: PageTemplate?
    /// HTML, RTF, terminal text and TEI: put a table of contents of the headings before the body
    /// (`--toc`); man pages and the JSON dump have none.
    public var tableOfContents = false
    /// Highlight fenced code blocks that name a language (default on; `--no-highlight` turns it
    /// off): HTML pages, RTF, terminal text, TEI and the JSON dump. An HTML fragment stays
    /// cmark-gfm's bytes unless ``highlightStyle`` is given; man pages are never coloured.
    public var highlight = true
    /// The library theme code is coloured with (`--highlight-style`, KSyntaxHighlighting's theme
    /// names: `Breeze Light`, `GitHub Dark`, …; ``Notepress/codePalette(libraryTheme:)`` makes
    /// the palette); `nil`: the theme's own code palette. Given, it also highlights HTML fragments.
    public var highlightStyle: String?

    /// Whether code is highlighted in output `format` with these options.
    package func highlightsCode(in format: OutputFormat) -> Bool {
        guard highlight else { return false }
        switch format {
        case .man: return false
        case .html: return !fragment || highlightStyle != nil
        case .rtf, .ansi, .tei, .json, .docx, .odt, .epub, .pdf: return true
        }
    }

    /// Whether a run of `writers` with these options makes HTML pages (``OutputFormat/makesHTMLPages(with:)``
    /// for one of them): the question a folder run asks before it gives pages the site's chrome,
    /// writes the notes list, tag pages, search and the shared assets.
    package func makesHTMLPages(_ writers: [any DocumentWriter]) -> Bool {
        writers.contains { $0.format.makesHTMLPages(with: self) }
    }

    /// The process exits right after this conversion (the single-file command line, not
    /// `--watch`): writers leave their intermediate trees (TEI's XML tree) to the exit
    /// (``LeftToExit``) instead of freeing them node by node. Default off: a library user and a
    /// long-running process free them as usual.
    package var leavesTreesToExit = false

    /// The input file as read (relative to the current folder, or absolute) when the document's
    /// ``DocumentMetadata/sourcePath`` is not (a folder run's pages carry their path below the
    /// input folder): writers that embed files beside the source (the images of DOCX, ODT and
    /// EPUB) read them there. `nil`: beside ``DocumentMetadata/sourcePath``.
    package var sourceFile: String?
    /// A site run's link report already says which local images are missing, at file:line:column
    /// (NotepressSite's `LinkReport`): the EPUB, DOCX and ODT writers then do not say it a second
    /// time (they still say what else keeps an image out: empty, damaged, not an image).
    package var missingImagesReported = false
    /// PDF: the paper (default A4; the command line takes Letter from a US or Canadian locale).
    public var paperSize: PaperSize = .a4

    /// The deepest heading level the table of contents lists (`--toc-depth`, 1…6; default 3).
    public var tableOfContentsMaxLevel = TableOfContents.defaultMaxLevel

    /// The table of contents of `document` when ``tableOfContents`` is on, else `nil`.
    package func tableOfContents(of document: Document) -> TableOfContents? {
        tableOfContents ? TableOfContents(document, maxLevel: tableOfContentsMaxLevel) : nil
    }
    /// The table `document`'s `[TOC]` markers stand for (``ContentsMarker``): the `--toc` table,
    /// whether or not ``tableOfContents`` is on; `nil` when the document has no marker.
    package func markerContents(of document: Document) -> TableOfContents? {
        ContentsMarker.contents(of: document, maxLevel: tableOfContentsMaxLevel)
    }
    /// The folder of tag pages relative to the output folder of a format (`tags`), when the site
    /// writes them: HTML then renders a hashtag as a link to its page (`tags/NAME.html`, relative
    /// to each page: ``HTMLWriter/htmlOptions(_:format:sourcePath:)``). A folder run sets it for
    /// its HTML pages when it writes tag pages (``SiteTags``); `nil` (the default, outside a folder
    /// run, or when no page has a tag): a hashtag is `<span class="tag">`. Other formats do not
    /// link tags.
    package var tagPagesFolder: String?
    /// Folder runs, HTML pages: list the pages that link to each page ("Linked from",
    /// ``SiteBacklinks``; `--backlinks`).
    package var backlinks = false
    /// Folder runs, HTML pages: the values of this page's site chrome for the page template
    /// (``HTMLPage/site``: root, shared stylesheet and script, sidebar, breadcrumbs, previous and
    /// next), set per page by the site engine (`SitePageExtras`); `nil` outside a folder run, so
    /// a single page is self-contained. Rendering state of the run, not document data.
    package var sitePage: [String: MustacheValue]?
    /// Folder runs, HTML pages: the site title of the header (`--site-title`); `nil`: the root
    /// index page's title, else `Notes`.
    package var siteTitle: String?
    /// Folder runs, HTML pages: where each page's source can be edited, an "Edit this page" link
    /// (`--edit-url`, else mkdocs.yml's `repo_url` + `edit_uri`, book.toml's `[output.html]
    /// edit-url-template`): a URL in which `{path}` stands for the input's path below the input
    /// folder (percent-encoded); `nil`: no link.
    package var editURL: String?
    /// Folder runs: the URL the site is published at (`--base-url`, ending in `/`): with it the run
    /// writes `sitemap.xml` and `feed.xml`, and `404.html` links absolutely under it.
    package var baseURL: String?
    /// Folder runs: how many notes the Atom feed holds (`--feed-size`, default 20).
    package var feedSize = 20
    /// Folder runs: entries per page of the notes list and tag pages (`--list-page-size`,
    /// default 200; 0: one page).
    package var listPageSize = 200
    /// Folder runs: the notes list and tag pages sort by each page's last update (its `updated`:
    /// front matter, the last commit that touched it, its file's time), newest first, and show
    /// that date (`--list-order updated`); off (the default): by its date (`created`).
    package var listByUpdate = false
    /// Folder runs, HTML pages: write `print.html`, every page in the navigation's order on one
    /// page, and link it from the header (default on; `--no-print-page` turns it off).
    package var printPage = true

    /// Options with the defaults above and `theme` (``Theme/default`` at the Large size category
    /// unless given: what `notepress convert` uses without `--theme` and `--size-category`).
    public init(theme: ResolvedTheme = Theme.default.resolved()) {
        self.theme = theme
        self.templates = TemplateStore()
    }

    /// Options that read templates, themes and the TEI schema from `templates` (`--data-dir`).
    package init(theme: ResolvedTheme = Theme.standard.resolved(), templates: TemplateStore) {
        self.theme = theme
        self.templates = templates
    }
}

/// An output format: renders a document to bytes.
package protocol DocumentWriter: Sendable {
    /// The format this writer writes: what code asks a writer instead of comparing names
    /// (``OutputFormat/makesHTMLPages(with:)`` and the like).
    var format: OutputFormat { get }
    /// File extension of outputs, without the dot.
    var fileExtension: String { get }
    /// Renders `document`. Warnings go to `diagnostics`.
    /// - Throws: ``NotepressError`` when the output cannot be produced (for example TEI that fails
    ///   validation).
    func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8]
    /// Whether the output depends on ``ConversionOptions/theme`` with these settings (`fragment`:
    /// `--fragment`). When no writer of a run needs it and none was asked for, the command line does
    /// not load a theme at all (a tenth of converting a small file). Default: `true`.
    func usesTheme(fragment: Bool) -> Bool
}

extension DocumentWriter {
    package func usesTheme(fragment: Bool) -> Bool { true }
    /// The name users pass to `-t` (`html`, `rtf`, `ansi`, `tei`, `man`, `json`): the format's
    /// raw value. For messages, output folders and the manifest; never compared to tell writers
    /// apart (``format`` does that).
    package var name: String { format.rawValue }
}
