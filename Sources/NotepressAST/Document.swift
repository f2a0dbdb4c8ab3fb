import Foundation

/// A line and column in a source file, both 1-based. Columns count bytes of UTF-8, as cmark's
/// `sourcepos` does.
public struct SourcePosition: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// 1-based column, in UTF-8 bytes from the start of the line.
    public var column: Int

    /// The position at `line` and `column` (both 1-based; the column in UTF-8 bytes).
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`, as diagnostics write it.
    public var description: String { "\(line):\(column)" }
}

/// The input syntax a document was read from.
public enum SourceFormat: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    /// Note markup: `*bold*`, `_italic_`, `-struck-`, `~script~`, numbered lines, ALL-CAPS alerts.
    case note
    /// CommonMark 0.29 without extensions.
    case commonmark
    /// GitHub Flavored Markdown: CommonMark plus table, strikethrough, autolink, tagfilter,
    /// tasklist and footnotes.
    case gfm
}

/// Everything known about a document besides its blocks.
public struct DocumentMetadata: Sendable, Equatable, Hashable, Codable {
    /// The title: front matter `title`, else the file name's stem, else `nil` (stdin without one).
    public var title: String?
    /// The creation date: front matter `created`, else the file's modification time clamped by
    /// `SOURCE_DATE_EPOCH`.
    public var created: Date?
    /// Front-matter `tags`, in source order.
    public var tags: [String]
    /// The path the document was read from, as given by the user (relative paths stay relative),
    /// or `nil` for standard input.
    public var sourcePath: String?
    /// The syntax the document was parsed as.
    public var sourceFormat: SourceFormat
    /// Other scalar front-matter fields (for example `section`, `date`, `source`, `manual` used by
    /// the man emitter), keyed by field name.
    public var fields: [String: String]
    /// Front-matter fields whose value is a YAML sequence or mapping (other than `tags`), kept for
    /// page templates (``MetadataValue``), keyed by field name. A name is in ``fields`` or here,
    /// never in both.
    public var collections: [String: MetadataValue]
    /// Where ``title`` came from. With ``TitleSource/firstHeading`` the body still holds that
    /// heading, so page chrome (the HTML page's title heading, RTF and terminal title lines)
    /// does not show the title a second time.
    public var titleSource: TitleSource
    /// Site pages only: the relative URL of the generated notes list from this page
    /// (`../notes-index.html`), for the page's navigation; `nil` outside a folder run.
    package var notesIndexHref: String?
    /// Site pages only: the page's tags with the relative URLs of their tag pages
    /// (`../tags/work.html`), when the site writes tag pages; empty otherwise.
    package var tagLinks: [PageLink] = []
    /// Site pages only, with `--backlinks`: the pages that link to this one ("Linked from"), each
    /// with its title and relative URL, in the site's order (title, then path); empty otherwise.
    package var backlinks: [PageLink] = []

    /// The coded fields: the site links above are rendering state, not document data (left out,
    /// so metadata coded before them still decodes).
    private enum CodingKeys: String, CodingKey {
        case title, created, tags, sourcePath, sourceFormat, fields, collections, titleSource, notesIndexHref
    }

    /// Where a document's title came from.
    public enum TitleSource: String, Sendable, Equatable, Hashable, Codable {
        /// Front matter `title`.
        case frontMatter
        /// A Markdown document's first level-1 heading at the top level (no front-matter title).
        case firstHeading
        /// The file name's stem (note markup, or Markdown without a level-1 heading).
        case fileName
    }

    /// ``sourcePath`` as outputs write it (TEI `idno[@type="path"]`, the JSON dump), which hold no
    /// absolute path (README, "outputs hold no absolute paths"): a relative path as given
    /// (`notes/a.note`, `../x.md`), an absolute one (`/home/me/a.note`, a single input named by
    /// its full path) as its last component (`a.note`); `nil` for standard input.
    public var outputSourcePath: String? {
        guard let p = sourcePath else { return nil }
        guard p.hasPrefix("/") else { return p }
        let name = p.split(separator: "/").last.map(String.init) ?? ""
        return name.isEmpty ? nil : name
    }

    /// Metadata with the given fields (the readers fill them from front matter and the file).
    public init(title: String? = nil, created: Date? = nil, tags: [String] = [],
                sourcePath: String? = nil, sourceFormat: SourceFormat, fields: [String: String] = [:],
                collections: [String: MetadataValue] = [:], titleSource: TitleSource = .fileName,
                notesIndexHref: String? = nil) {
        self.title = title
        self.created = created
        self.tags = tags
        self.sourcePath = sourcePath
        self.sourceFormat = sourceFormat
        self.fields = fields
        self.collections = collections
        self.titleSource = titleSource
        self.notesIndexHref = notesIndexHref
    }
}

/// A labelled link from a site page to another page of the same site (a tag page, a page that
/// links here): the text shown and the relative URL (not yet escaped for any output).
package struct PageLink: Sendable, Equatable, Hashable, Codable {
    /// The text shown: a tag's name, a page's title.
    package var text: String
    /// The relative URL from the page that shows the link.
    package var href: String

    /// A link showing `text` to `href`.
    package init(text: String, href: String) {
        self.text = text
        self.href = href
    }
}

/// A parsed document: metadata and a tree of blocks. Immutable once built.
public struct Document: Sendable, Equatable {
    /// Title, date, tags, source, front-matter fields.
    public var metadata: DocumentMetadata
    /// Top-level blocks in source order. Footnote definitions appear where cmark places them
    /// (GFM: after all other blocks, in order of first reference).
    public var blocks: [Block]
    /// True when the reader saw that the blocks hold no raw HTML (an HTML block or raw inline
    /// HTML): the Markdown reader walks cmark's whole tree anyway, so that a document without
    /// raw HTML skips the scan for it (``RawHTMLReading``). False means "not known": whoever puts
    /// blocks from elsewhere into a document (embeds) sets it false again. Not part of `==`.
    public var knownFreeOfRawHTML = false

    /// A document of `blocks` described by `metadata`.
    public init(metadata: DocumentMetadata, blocks: [Block]) {
        self.metadata = metadata
        self.blocks = blocks
    }

    /// Equal metadata and blocks (``knownFreeOfRawHTML`` is a reader's note, not content).
    public static func == (a: Document, b: Document) -> Bool {
        a.metadata == b.metadata && a.blocks == b.blocks
    }
}

/// A diagnostic produced while reading or writing a document.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: String, Sendable, Equatable {
        /// The output was written, perhaps not as asked (a node written as its content, …).
        case warning
        /// Nothing was written for the file.
        case error
    }
    /// Warning or error.
    public var severity: Severity
    /// What happened, one line of English.
    public var message: String
    /// Path of the file concerned, if any.
    public var file: String?
    /// Where in the file, if known.
    public var position: SourcePosition?
    /// A construct the reader recognised and did not convert (an mdBook `{{#include}}` whose file
    /// is missing, kept as text): the message says what was done with it, and a folder run's
    /// summary counts these (`not converted: N`).
    public var notConverted = false

    /// A diagnostic of `severity` saying `message` about `file` at `position`.
    public init(_ severity: Severity, _ message: String, file: String? = nil, position: SourcePosition? = nil) {
        self.severity = severity
        self.message = message
        self.file = file
        self.position = position
    }

    /// `text` with line breaks escaped (`\n`, `\r`; a backslash as `\\` when there are any),
    /// so that a file name holding one does not split a one-line message.
    package static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\\": out += "\\\\"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// `file:line:column: severity: message`, the form compilers and editors understand; line
    /// breaks in the file name are escaped (``oneLine(_:)``).
    public var description: String {
        var s = ""
        if let file { s += Self.oneLine(file) + ":" }
        if let position { s += "\(position.line):\(position.column):" }
        if !s.isEmpty { s += " " }
        return s + "\(severity.rawValue): \(message)"
    }
}
