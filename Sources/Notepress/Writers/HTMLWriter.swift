import NotepressAST
import NotepressHTML

/// `-t html`: a standalone HTML5 page from `Templates/html/page.html` with a stylesheet made from
/// the theme, or with `fragment` only the body (byte for byte cmark-gfm's HTML for Markdown).
public struct HTMLWriter: DocumentWriter {
    public init() {}
    public var name: String { "html" }
    public var fileExtension: String { "html" }
    /// The page template's stylesheet comes from the theme; a fragment has none.
    public func usesTheme(fragment: Bool) -> Bool { !fragment }
    /// - Throws: ``ConversionError`` when the page template is broken.
    public func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        try write(document, options: options, diagnostics: &diagnostics, stream: nil)
    }

    /// The HTML options for a document of `format` (tagfilter applies to GFM only).
    public static func htmlOptions(_ options: ConversionOptions, format: SourceFormat) -> HTMLOptions {
        HTMLOptions(unsafe: options.unsafe, tagfilter: options.tagfilter && format == .gfm,
                    tablePreferStyleAttributes: !options.fragment, directionAuto: !options.fragment,
                    alerts: !options.fragment, numberWidths: !options.fragment)
    }

    /// ``write(_:options:diagnostics:)`` with the body already rendered by `stream` (an
    /// ``HTMLFragmentStream`` fed while the document was read, made with ``htmlOptions(_:format:)``;
    /// the document may then have no blocks); `nil` renders the body here.
    public func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic],
                      stream: HTMLFragmentStream?) throws -> [UInt8] {
        let (body, unknown) = stream.map { ($0.finish(), $0.unknownBlocks) }
            ?? HTMLEmitter(options: Self.htmlOptions(options, format: document.metadata.sourceFormat)).render(document)
        for b in unknown {
            diagnostics.append(Diagnostic(.warning, "unknown node '\(b.typeName)' written as its content",
                                          file: document.metadata.sourcePath, position: b.position))
        }
        if options.fragment { return body }
        do {
            return Array(try HTMLPage(theme: options.theme, templates: options.templates)
                .render(document: document, body: String(decoding: body, as: UTF8.self)).utf8)
        } catch {
            throw ConversionError(file: document.metadata.sourcePath, "HTML page template: \(error)")
        }
    }
}
