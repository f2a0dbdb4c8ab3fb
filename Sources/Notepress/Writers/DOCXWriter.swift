import NotepressAST
import NotepressDOCX
import NotepressRawHTML

/// `-t docx`: Office Open XML for Word, LibreOffice and python-docx (see ``DOCXEmitter``).
package struct DOCXWriter: DocumentWriter {
    package init() {}
    package var format: OutputFormat { .docx }
    package var fileExtension: String { "docx" }
    package func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        try DOCXEmitter.render(RawHTMLReading.reading(document), theme: options.theme, unsafe: options.unsafe,
                               tableOfContents: options.tableOfContents(of: document),
                               markerContents: options.markerContents(of: document), sourceFile: options.sourceFile,
                               missingImagesReported: options.missingImagesReported,
                               diagnostics: &diagnostics)
    }
}
