import NotepressAST

/// What a reader returns: the document and any warnings met while reading it.
package struct ReadResult: Sendable {
    package var document: Document
    package var diagnostics: [Diagnostic]

    package init(document: Document, diagnostics: [Diagnostic] = []) {
        self.document = document
        self.diagnostics = diagnostics
    }
}
