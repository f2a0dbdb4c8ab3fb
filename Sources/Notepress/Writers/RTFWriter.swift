import NotepressAST
import NotepressRawHTML
import NotepressRTF

/// `-t rtf`: RTF 1.9 for word processors (see ``RTFEmitter``).
package struct RTFWriter: DocumentWriter {
    package init() {}
    package var format: OutputFormat { .rtf }
    package var fileExtension: String { "rtf" }
    package func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        RTFEmitter.renderBytes(RawHTMLReading.reading(document), theme: options.theme, unsafe: options.unsafe,
                               tableOfContents: options.tableOfContents(of: document), diagnostics: &diagnostics)
    }
}
