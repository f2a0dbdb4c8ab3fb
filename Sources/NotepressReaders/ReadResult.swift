import NotepressAST

/// What a reader returns: the document and any warnings met while reading it.
package struct ReadResult: Sendable {
    package var document: Document
    package var diagnostics: [Diagnostic]
    /// What only `--verbose` lists (code blocks in a language the highlighter does not know):
    /// worded as warnings, but not warnings of the file.
    package var notes: [Diagnostic] = []

    package init(document: Document, diagnostics: [Diagnostic] = []) {
        self.document = document
        self.diagnostics = diagnostics
    }
}
