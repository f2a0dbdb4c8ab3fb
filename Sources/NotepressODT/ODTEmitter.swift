import NotepressAST
import NotepressContainer
import NotepressThemes

/// Writes a document as ODT (being built: issue 48).
package enum ODTEmitter {
    /// The package's bytes.
    package static func render(_ document: Document, theme: ResolvedTheme, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        throw ContainerError.library("ODT output is not written yet")
    }
}
