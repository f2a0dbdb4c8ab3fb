import NotepressAST
import NotepressODT

/// `-t odt`: see ``ODTEmitter``.
package struct ODTWriter: DocumentWriter {
    package init() {}
    package var format: OutputFormat { .odt }
    package var fileExtension: String { "odt" }
    package func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        try ODTEmitter.render(document, theme: options.theme, diagnostics: &diagnostics)
    }
}
