import NotepressAST
import NotepressRawHTML

/// `-t json`: the AST as JSON (see ``ASTDump``).
package struct JSONDumpWriter: DocumentWriter {
    package init() {}
    package var format: OutputFormat { .json }
    package var fileExtension: String { "json" }
    /// The output has no typography to take from a theme.
    package func usesTheme(fragment: Bool) -> Bool { false }
    package func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        ASTDump.jsonBytes(RawHTMLReading.reading(document))
    }
}
