import NotepressAST
import NotepressHTML

/// `-t html`: a standalone HTML5 page from the Mustache template `Templates/html/page.html` (or
/// `--template FILE`) with a stylesheet made from the theme, or with `fragment` only the body
/// (byte for byte cmark-gfm's HTML for Markdown). With `--toc` a `nav` table of contents
/// (``HTMLTableOfContents``) comes before the body (the template's `{{{toc}}}`), also in a fragment.
package struct HTMLWriter: DocumentWriter {
    package init() {}
    package var format: OutputFormat { .html }
    package var fileExtension: String { "html" }
    /// The page template's stylesheet comes from the theme; a fragment has none.
    package func usesTheme(fragment: Bool) -> Bool { !fragment }
    /// - Throws: ``NotepressError/pageTemplate(file:message:)`` when the page template is broken.
    package func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        try write(document, options: options, diagnostics: &diagnostics, stream: nil)
    }

    /// The HTML options for a document of `format` (tagfilter applies to GFM only) whose output
    /// lies at `sourcePath` below the output folder (for links to tag pages, see
    /// ``ConversionOptions/tagPagesFolder``).
    package static func htmlOptions(_ options: ConversionOptions, format: SourceFormat, sourcePath: String? = nil) -> HTMLOptions {
        var o = HTMLOptions(unsafe: options.unsafe, tagfilter: options.tagfilter && format == .gfm,
                            tablePreferStyleAttributes: !options.fragment, blockIDs: !options.fragment || options.headingIDs,
                            directionAuto: !options.fragment, alerts: !options.fragment, numberWidths: !options.fragment,
                            tagPagePrefix: options.tagPagesFolder.map { tagPagePrefix(folder: $0, sourcePath: sourcePath) })
        o.highlight = options.highlightsCode(in: .html)
        o.permalink = options.headingPermalink
        return o
    }

    /// The relative URL from the page of `sourcePath` (a path below the input folder, mirrored
    /// below the output folder) to the tag pages `folder` (relative to the output folder): one
    /// `../` per folder of `sourcePath`, then `folder/`.
    static func tagPagePrefix(folder: String, sourcePath: String?) -> String {
        let path = sourcePath ?? ""
        let depth: Int
        if path.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII: each byte is a character, so the folders are the runs of non-slash bytes.
            var runs = 0, previous: UInt8 = 0x2F
            for b in path.utf8 {
                if b != 0x2F && previous == 0x2F { runs += 1 }
                previous = b
            }
            depth = runs - 1
        } else {
            depth = path.split(separator: "/", omittingEmptySubsequences: true).count - 1
        }
        return String(repeating: "../", count: max(0, depth)) + (folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// ``write(_:options:diagnostics:)`` with the body already rendered by `stream` (an
    /// ``HTMLFragmentStream`` fed while the document was read, made with ``htmlOptions(_:format:)``;
    /// the document may then have no blocks, unless ``ConversionOptions/tableOfContents`` is on:
    /// the table is made from them); `nil` renders the body here.
    package func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic],
                      stream: HTMLFragmentStream?) throws -> [UInt8] {
        let (body, unknown) = stream.map { ($0.finish(), $0.unknownBlocks) } ?? {
            var o = Self.htmlOptions(options, format: document.metadata.sourceFormat, sourcePath: document.metadata.sourcePath)
            o.markerContents = options.markerContents(of: document)
            // A `[TOC]` marker's links need the headings' ids, in a fragment too.
            if o.markerContents != nil { o.blockIDs = true }
            return HTMLEmitter(options: o).render(document)
        }()
        for b in unknown {
            let message = b.typeName == ContentsMarker.typeName
                ? ContentsMarker.warning(format: "a streamed HTML body") : "unknown node '\(b.typeName)' written as its content"
            diagnostics.append(Diagnostic(.warning, message, file: document.metadata.sourcePath, position: b.position))
        }
        let toc = options.tableOfContents(of: document).map(HTMLTableOfContents.markup) ?? ""
        if options.fragment { return toc.isEmpty ? body : Array((toc + "\n").utf8) + body }
        do {
            return try HTMLPage(theme: options.theme, templates: options.templates, template: options.pageTemplate,
                                stylesheets: options.stylesheets, site: options.sitePage)
                .renderUTF8(document: document, body: body, toc: toc)
        } catch {
            throw NotepressError.pageTemplate(file: document.metadata.sourcePath, message: "\(error)")
        }
    }
}
