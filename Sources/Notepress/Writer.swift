import Foundation
import NotepressAST
import NotepressHTML
import NotepressResources
import NotepressThemes

/// Options shared by every writer. Each writer reads the fields that concern it.
public struct ConversionOptions: Sendable {
    /// The theme at the chosen size category and Bold Text setting.
    public var theme: ResolvedTheme
    /// Templates, themes and schemas (embedded, or overridden by `--data-dir`).
    public var templates: TemplateStore
    /// Write only the body content (HTML), no page template.
    public var fragment = false
    /// Keep raw HTML and dangerous URLs (`--unsafe`).
    public var unsafe = false
    /// Terminal width in columns (ANSI); `nil` = detect.
    public var width: Int?
    /// Terminal colour depth (ANSI): `none`, `ansi16`, `ansi256`, `truecolor`.
    public var colorDepth: ColorDepth = .none
    /// OSC 8 hyperlinks (ANSI).
    public var hyperlinks = false
    /// ASCII table borders instead of box drawing (ANSI).
    public var ascii = false
    /// Validate TEI output against the schema before writing it (`--no-validate` turns it off).
    public var validate = true
    /// Apply GFM's tagfilter to raw HTML kept by `unsafe` (on for GFM input).
    public var tagfilter = true
    /// HTML fragments: write heading ids and block anchors (`--heading-ids`). Pages always do;
    /// a fragment without it is byte for byte cmark-gfm's HTML.
    public var headingIDs = false
    /// The HTML page template, loaded once (`--template FILE`, or `html/page.html` of the data
    /// folder or built in); `nil` reads `html/page.html` from ``templates`` for each page.
    public var pageTemplate: PageTemplate?
    /// Insert a table of contents (`--toc`, ``TableOfContents``): HTML, RTF, terminal text and TEI
    /// show one; man pages and the JSON dump do not.
    public var tableOfContents = false
    /// The deepest heading level the table of contents lists (`--toc-depth`, 1…6).
    public var tableOfContentsMaxLevel = TableOfContents.defaultMaxLevel

    /// The table of contents of `document` when ``tableOfContents`` is on, else `nil`.
    public func tableOfContents(of document: Document) -> TableOfContents? {
        tableOfContents ? TableOfContents(document, maxLevel: tableOfContentsMaxLevel) : nil
    }
    /// The folder of tag pages relative to the output folder of a format (`tags`), when the site
    /// writes them: HTML then renders a hashtag as a link to its page (`tags/NAME.html`, relative
    /// to each page: ``HTMLWriter/htmlOptions(_:format:sourcePath:)``). `nil` (the default, and
    /// always until the site writes tag pages): a hashtag is `<span class="tag">`. Other formats
    /// do not link tags.
    public var tagPagesFolder: String?

    public init(theme: ResolvedTheme = Theme.standard.resolved(), templates: TemplateStore = TemplateStore()) {
        self.theme = theme
        self.templates = templates
    }
}

/// Terminal colour depth, from `COLORTERM`/`TERM` or `--color`.
public enum ColorDepth: String, Sendable, Equatable, CaseIterable {
    case none, ansi16, ansi256, truecolor
}

/// An output format: renders a document to bytes.
public protocol DocumentWriter: Sendable {
    /// The name users pass to `-t` (`html`, `rtf`, `ansi`, `tei`, `man`, `json`).
    var name: String { get }
    /// File extension of outputs, without the dot.
    var fileExtension: String { get }
    /// Renders `document`. Warnings go to `diagnostics`.
    /// - Throws: ``ConversionError`` when the output cannot be produced (for example TEI that fails
    ///   validation).
    func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8]
    /// Whether the output depends on ``ConversionOptions/theme`` with these settings (`fragment`:
    /// `--fragment`). When no writer of a run needs it and none was asked for, the command line does
    /// not load a theme at all (a tenth of converting a small file). Default: `true`.
    func usesTheme(fragment: Bool) -> Bool
}

extension DocumentWriter {
    public func usesTheme(fragment: Bool) -> Bool { true }
}

/// A failure converting one input.
public struct ConversionError: Error, Sendable, CustomStringConvertible {
    public var file: String?
    public var position: SourcePosition?
    public var message: String

    public init(file: String? = nil, position: SourcePosition? = nil, _ message: String) {
        self.file = file
        self.position = position
        self.message = message
    }

    /// `file:line:column: error: message`.
    public var description: String {
        Diagnostic(.error, message, file: file, position: position).description
    }
}
