import NotepressAST

/// What a reader returns: the document and any warnings met while reading it.
package struct ReadResult: Sendable {
    package var document: Document
    package var diagnostics: [Diagnostic]
    /// The document crossed one of the reader's ``InputLimits`` and was not read (its blocks are
    /// empty): where (lines counted in the whole file) and why.
    package var refused: InputLimits.Violation?

    package init(document: Document, diagnostics: [Diagnostic] = []) {
        self.document = document
        self.diagnostics = diagnostics
    }
}
