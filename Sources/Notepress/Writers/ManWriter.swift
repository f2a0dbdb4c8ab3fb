import NotepressAST
import NotepressMan

/// `-t man`: a man(7) page (see ``ManEmitter``).
public struct ManWriter: DocumentWriter {
    public init() {}
    public var name: String { "man" }
    public var fileExtension: String { "man" }
    /// The output has no typography to take from a theme.
    public func usesTheme(fragment: Bool) -> Bool { false }
    public func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        Array(ManEmitter(unsafe: options.unsafe).render(document, diagnostics: &diagnostics).utf8)
    }
}
