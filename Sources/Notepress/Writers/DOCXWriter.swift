import NotepressAST
import NotepressDOCX

/// `-t docx`: see ``DOCXEmitter``.
package struct DOCXWriter: DocumentWriter {
    package init() {}
    package var format: OutputFormat { .docx }
    package var fileExtension: String { "docx" }
    package func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        try DOCXEmitter.render(document, theme: options.theme, diagnostics: &diagnostics)
    }
}
