import Foundation
import NotepressAST
import NotepressContainer
import NotepressThemes

/// Writes a document as an Office Open XML word-processing package (ECMA-376 5th edition,
/// Transitional: what Word, LibreOffice and python-docx read), styled by a ``ResolvedTheme``
/// (issue 48).
///
/// The package: `[Content_Types].xml`, `_rels/.rels`, `docProps/core.xml` (title, author,
/// keywords from the tags, created and modified dates), `word/document.xml` (the body),
/// `word/styles.xml` (Word's built-in style names and ids: Normal, Title, Heading 1–6 with their
/// outline levels, Quote, Caption, Footnote Text and Footnote Reference, TOC Heading and toc 1–6,
/// Hyperlink, and pandoc's Source Code and Verbatim Char, each from the theme's text style of
/// its role at the size category), `word/numbering.xml` (bullet and ordered lists),
/// `word/footnotes.xml` (real footnotes), `word/settings.xml`, `word/_rels/document.xml.rels`
/// (styles, numbering, footnotes, settings, hyperlinks, images) and `word/media/` (images).
/// Every XML part goes through libxml2's writer and the package through libzip
/// (``NotepressContainer``): no XML or zip written by hand.
///
/// Deterministic: entries in a fixed order, every entry dated by the document's date (front
/// matter `created`, else the file's time clamped by `SOURCE_DATE_EPOCH`), numbered ids in
/// document order. Math is written as its TeX source in the Verbatim Char style between `$`
/// (`$$` for display math): clearly TeX, never lost. Page: US Letter, 1-inch margins, as RTF.
package enum DOCXEmitter {
    /// The text width in twips: 8.5-inch paper minus two 1-inch margins.
    package static let textWidth = 9360
    /// The text height in twips: 11-inch paper minus two 1-inch margins.
    package static let textHeight = 12960
    /// The deepest left indent in twips (half the text width): deeper containers stay there.
    package static let maxIndent = textWidth / 2
    /// Word's lists have nine levels (`w:ilvl` 0…8); deeper lists use the last.
    package static let maxListLevel = 8
    /// Word opens no table of more than 63 columns: cells past the 63rd join the last one.
    package static let maxColumns = 63

    /// The package's bytes. Warnings (images missing or not images, unknown blocks, tables too
    /// wide) are appended to `diagnostics`. `unsafe` (`--unsafe`) keeps dangerous link
    /// destinations live (``URLSafety``); `tableOfContents` (`--toc`) is written after the title
    /// as a TOC field whose result lists the headings, linked to bookmarks at them;
    /// `markerContents` (the same table, made whether or not `--toc` is on) where a `[TOC]`
    /// marker is (``ContentsMarker``).
    /// - Throws: ``ContainerError`` when libzip cannot be loaded or fails.
    package static func render(_ document: Document, theme: ResolvedTheme, unsafe: Bool = false,
                               tableOfContents: TableOfContents? = nil, markerContents: TableOfContents? = nil,
                               sourceFile: String? = nil,
                               missingImagesReported: Bool = false, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        let builder = DOCXBuilder(document: document, theme: theme)
        builder.sourceFile = sourceFile
        builder.missingImagesReported = missingImagesReported
        builder.unsafe = unsafe
        builder.tableOfContents = tableOfContents
        builder.markerContents = markerContents
        let body = builder.buildDocument()
        let notes = builder.finishFootnotes()
        diagnostics += builder.diagnostics
        let parts = DOCXParts(theme: theme, document: document)
        var zip = ZipArchive(modified: document.metadata.created.map(zipDate) ?? ZipArchive().modified)
        zip.add("[Content_Types].xml", bytes: parts.contentTypes(media: builder.mediaKinds))
        zip.add("_rels/.rels", bytes: parts.packageRelationships())
        zip.add("docProps/core.xml", bytes: parts.coreProperties())
        zip.add("word/document.xml", bytes: body)
        zip.add("word/_rels/document.xml.rels", bytes: parts.documentRelationships(builder.relationships))
        zip.add("word/styles.xml", bytes: parts.styles())
        zip.add("word/numbering.xml", bytes: parts.numbering(builder.abstractLists, builder.lists))
        zip.add("word/footnotes.xml", bytes: notes)
        zip.add("word/settings.xml", bytes: parts.settings())
        for m in builder.media { zip.add("word/" + m.target, bytes: m.bytes, stored: true) }
        return try zip.bytes()
    }

    /// A zip entry's date: zip holds 1980…2107 only, so earlier and later dates are clamped.
    static func zipDate(_ date: Date) -> Date {
        min(max(date, Date(timeIntervalSince1970: 315_532_800)), Date(timeIntervalSince1970: 4_354_819_200))
    }

    /// Half-points (`w:sz`) for a size in points, rounded.
    static func halfPoints(_ points: Double) -> Int { Int((points * 2).rounded()) }
    /// Twips for a length in points, rounded.
    static func twips(_ points: Double) -> Int { Int((points * 20).rounded()) }
    /// A colour as WordprocessingML writes it: six upper-case hex digits, no `#`.
    static func hex(_ c: RGBColor) -> String { String(c.hex.dropFirst()).uppercased() }
}

/// One relationship of `word/document.xml` (a hyperlink's or an image's).
struct DOCXRelationship {
    var id: String
    var type: String
    var target: String
    var external: Bool
}

/// One embedded image: its relationship id, path below `word/`, bytes and kind.
struct DOCXMedia {
    var id: String
    var target: String
    var bytes: [UInt8]
    var kind: ImageHeader.Kind
}

/// How a list level numbers its items: bullets, `1.` or `1)`.
enum DOCXListKind: Equatable {
    /// •, ◦, ▪ by level.
    case bullet
    /// `1.`
    case period
    /// `1)`
    case parenthesis
    /// ☐ or ☒ at every level: a task item of a bullet list (its box is its bullet, as pandoc).
    case task(checked: Bool)

    /// Whether the marker is a symbol, not a number.
    var isBullet: Bool {
        switch self {
        case .bullet, .task: return true
        case .period, .parenthesis: return false
        }
    }
}

/// One abstract numbering (`w:abstractNum`): a top-level list and the lists nested in it, one
/// level each (`nil`: no list there yet, written as bullets), with their kinds and first numbers.
struct DOCXAbstractList {
    var levels: [(kind: DOCXListKind, start: Int)?] = Array(repeating: nil, count: DOCXEmitter.maxListLevel + 1)
}

/// One list instance (`w:num`): its abstract numbering and, for a list whose kept numbers do not
/// continue, the level and number it restarts at.
struct DOCXList {
    var abstract: Int
    var restart: (level: Int, start: Int)?
}
