import NotepressAST
import NotepressContainer
import NotepressThemes

/// Writes a document as EPUB (being built: issue 48).
package enum EPUBEmitter {
    /// The package's bytes.
    package static func render(_ document: Document, theme: ResolvedTheme, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        throw ContainerError.library("EPUB output is not written yet")
    }
}
