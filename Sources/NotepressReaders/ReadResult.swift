import NotepressAST

/// What a reader returns: the document and any warnings met while reading it.
public struct ReadResult: Sendable {
    public var document: Document
    public var diagnostics: [Diagnostic]

    public init(document: Document, diagnostics: [Diagnostic] = []) {
        self.document = document
        self.diagnostics = diagnostics
    }
}
