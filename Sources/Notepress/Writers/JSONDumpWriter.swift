import NotepressAST

/// `-t json`: the AST as JSON (see ``ASTDump``).
public struct JSONDumpWriter: DocumentWriter {
    public init() {}
    public var name: String { "json" }
    public var fileExtension: String { "json" }
    /// The output has no typography to take from a theme.
    public func usesTheme(fragment: Bool) -> Bool { false }
    public func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        Array(ASTDump.json(document).utf8)
    }
}
