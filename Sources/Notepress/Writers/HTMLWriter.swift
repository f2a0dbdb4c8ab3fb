import NotepressAST
import NotepressHTML

/// `-t html`: a standalone HTML5 page from `Templates/html/page.html` with a stylesheet made from
/// the theme, or with `fragment` only the body (byte for byte cmark-gfm's HTML for Markdown).
public struct HTMLWriter: DocumentWriter {
    public init() {}
    public var name: String { "html" }
    public var fileExtension: String { "html" }
    /// - Throws: ``ConversionError`` when the page template is broken.
    public func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        let tagfilter = options.tagfilter && document.metadata.sourceFormat == .gfm
        let body = HTMLEmitter(options: HTMLOptions(unsafe: options.unsafe, tagfilter: tagfilter,
                                                  tablePreferStyleAttributes: !options.fragment)).fragmentBytes(document)
        for b in unknownBlocks(document) {
            diagnostics.append(Diagnostic(.warning, "unknown node '\(b.0)' written as its content",
                                          file: document.metadata.sourcePath, position: b.1))
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

/// Type names and positions of unknown blocks, for warnings.
func unknownBlocks(_ document: Document) -> [(String, SourcePosition?)] {
    var found: [(String, SourcePosition?)] = []
    document.forEachBlock { b, _ in
        if case .unknown(let name, _) = b.kind { found.append((name, b.position)) }
    }
    return found
}
