import Foundation
import NotepressAST
import NotepressContainer
import NotepressThemes

/// Writes a document as an OpenDocument text package (ODF 1.3, `.odt`; issue 48): a zip
/// (``ZipArchive``) of XML parts written through libxml2's writer (``XMLStreamWriter``).
///
/// Parts, in archive order: `mimetype` (stored, first: `application/vnd.oasis.opendocument.text`),
/// `content.xml` (the body and its automatic styles), `styles.xml` (the named styles, with
/// LibreOffice's names so that its style list, navigator and table of contents know them: Title,
/// Heading 1–6 with outline levels, Text body, Quotations, Preformatted Text, Source Text,
/// Footnote, Caption, Internet link; the page: US Letter, 1-inch margins as in RTF), `meta.xml`
/// (title, author, keywords, dates from the document), the images under `Pictures/`, and
/// `META-INF/manifest.xml`.
///
/// The theme's text styles at the size category become the named styles' fonts, sizes, weights and
/// leading (``ODTStyleSheet``); every named style states its East Asian (`style:font-name-asian`)
/// and complex-script (`style:font-name-complex`) font and size too. A paragraph whose first strong
/// character is right-to-left gets `style:writing-mode="rl-tb"`.
///
/// Bounded output: lists nest at most ``maxListDepth`` deep (ODF list styles have ten levels;
/// deeper items are written as indented paragraphs with their marker), indents stop at half the
/// text width, and every construct is written once (linear in the document).
///
/// Math is written as its TeX source in the "TeX math" character style (the code font on the
/// code background): ODF's formula objects are not made.
package enum ODTEmitter {
    /// The text width in points: 8.5-inch paper minus two 1-inch margins.
    package static let textWidth = 468.0
    /// Indent per block-quote, callout or definition depth, in points (a quarter inch).
    package static let indentStep = 18.0
    /// The deepest left indent in points (half the text width).
    package static let maxIndent = textWidth / 2
    /// ODF list styles have ten levels: lists nested deeper are written as indented paragraphs.
    package static let maxListDepth = 10
    /// The package's media type (`mimetype`, the manifest's root entry).
    package static let mediaType = "application/vnd.oasis.opendocument.text"

    /// The package's bytes. `unsafe` (`--unsafe`) keeps dangerous link destinations live
    /// (``URLSafety``); `tableOfContents` (`--toc`) is written after the title as a
    /// `text:table-of-content`. Images are read relative to the folder of `sourceFile` (the input
    /// as read, when the document's `sourcePath` is a folder run's path below its input folder),
    /// else of the document's `sourcePath`. Warnings
    /// (missing images, files that are not PNG, JPEG or GIF, unknown blocks) are appended to
    /// `diagnostics` with their file:line:column.
    /// - Throws: ``ContainerError`` when libzip cannot be loaded or fails.
    package static func render(_ document: Document, theme: ResolvedTheme, unsafe: Bool = false,
                               tableOfContents: TableOfContents? = nil, markerContents: TableOfContents? = nil, sourceFile: String? = nil,
                               missingImagesReported: Bool = false,
                               diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        var builder = ODTBuilder(document: document.assigningMissingHeadingIDs(), theme: theme, sourceFile: sourceFile)
        builder.missingImagesReported = missingImagesReported
        builder.unsafe = unsafe
        builder.tableOfContents = tableOfContents
        builder.markerContents = markerContents
        let body = builder.buildBody()
        diagnostics += builder.diagnostics
        let sheet = ODTStyleSheet(theme: theme)
        var zip = ZipArchive(modified: document.metadata.created ?? Date(timeIntervalSince1970: 315_532_800))
        zip.add("mimetype", text: mediaType, stored: true)
        zip.add("content.xml", bytes: builder.contentXML(body: body, sheet: sheet))
        zip.add("styles.xml", bytes: sheet.stylesXML())
        zip.add("meta.xml", bytes: ODTPackage.metaXML(document.metadata))
        for image in builder.images.embedded {
            // Already compressed: stored.
            zip.add(image.name, bytes: image.bytes, stored: true)
        }
        zip.add("META-INF/manifest.xml", bytes: ODTPackage.manifestXML(images: builder.images.embedded))
        return try zip.bytes()
    }

    /// A length in points as ODF writes it (`12pt`, `13.5pt`): at most three decimals, no
    /// trailing zeros, never the locale's decimal separator.
    static func pt(_ v: Double) -> String { number(v) + "pt" }

    /// A length in inches (`6.5in`), as ``pt(_:)``.
    static func inch(_ v: Double) -> String { number(v) + "in" }

    /// `v` with at most three decimals and no trailing zeros.
    static func number(_ v: Double) -> String {
        let milli = Int((v * 1000).rounded())
        let sign = milli < 0 ? "-" : ""
        let a = abs(milli)
        var s = sign + String(a / 1000)
        var frac = a % 1000
        if frac != 0 {
            var digits = String(frac)
            digits = String(repeating: "0", count: 3 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast(); frac /= 10 }
            s += "." + digits
        }
        return s
    }

    /// `#rrggbb`.
    static func color(_ c: RGBColor) -> String { c.hex.lowercased() }
}

/// The XML namespaces of the package's parts (ODF 1.3 part 3, §1.5).
enum ODFNamespace {
    static let office = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
    static let style = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
    static let text = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
    static let table = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
    static let draw = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
    static let fo = "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
    static let xlink = "http://www.w3.org/1999/xlink"
    static let dc = "http://purl.org/dc/elements/1.1/"
    static let meta = "urn:oasis:names:tc:opendocument:xmlns:meta:1.0"
    static let svg = "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
    static let manifest = "urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"

    /// The declarations of content.xml and styles.xml.
    static let documentDeclarations: [(String, String)] = [
        ("xmlns:office", office), ("xmlns:style", style), ("xmlns:text", text), ("xmlns:table", table),
        ("xmlns:draw", draw), ("xmlns:fo", fo), ("xmlns:xlink", xlink), ("xmlns:dc", dc), ("xmlns:meta", meta),
        ("xmlns:svg", svg), ("office:version", "1.3"),
    ]
}
