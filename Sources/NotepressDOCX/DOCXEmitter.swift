import NotepressAST
import NotepressContainer
import NotepressThemes

/// Writes a document as DOCX (being built: issue 48).
package enum DOCXEmitter {
    /// The package's bytes.
    package static func render(_ document: Document, theme: ResolvedTheme, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        throw ContainerError.library("DOCX output is not written yet")
    }
}
