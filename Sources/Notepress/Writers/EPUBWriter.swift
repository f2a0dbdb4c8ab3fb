import NotepressAST
import NotepressEPUB

/// `-t epub`: see ``EPUBEmitter``.
package struct EPUBWriter: DocumentWriter {
    package init() {}
    package var format: OutputFormat { .epub }
    package var fileExtension: String { "epub" }
    package func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        try EPUBEmitter.render(document, theme: options.theme, diagnostics: &diagnostics)
    }
}
