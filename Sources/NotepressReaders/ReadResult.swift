import NotepressAST

/// What a reader returns: the document and any warnings met while reading it.
package struct ReadResult: Sendable {
    package var document: Document
    package var diagnostics: [Diagnostic]
    /// What only `--verbose` lists (code blocks in a language the highlighter does not know):
    /// worded as warnings, but not warnings of the file.
    package var notes: [Diagnostic] = []
    /// The document crossed one of the reader's ``InputLimits`` and was not read (its blocks are
    /// empty): where (lines counted in the whole file) and why.
    package var refused: InputLimits.Violation?

    package init(document: Document, diagnostics: [Diagnostic] = []) {
        self.document = document
        self.diagnostics = diagnostics
    }
}
