import NotepressAST
import NotepressODT
import NotepressRawHTML

/// `-t odt`: OpenDocument text for LibreOffice (see ``ODTEmitter``).
package struct ODTWriter: DocumentWriter {
    package init() {}
    package var format: OutputFormat { .odt }
    package var fileExtension: String { "odt" }
    package func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        try ODTEmitter.render(RawHTMLReading.reading(document), theme: options.theme, unsafe: options.unsafe,
                              tableOfContents: options.tableOfContents(of: document),
                               markerContents: options.markerContents(of: document), sourceFile: options.sourceFile,
                               missingImagesReported: options.missingImagesReported,
                              diagnostics: &diagnostics)
    }
}
