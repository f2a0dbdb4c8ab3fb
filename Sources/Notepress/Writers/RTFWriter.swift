import NotepressAST
import NotepressRTF

/// `-t rtf`: RTF 1.9 for word processors (see ``RTFEmitter``).
public struct RTFWriter: DocumentWriter {
    public init() {}
    public var name: String { "rtf" }
    public var fileExtension: String { "rtf" }
    public func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        Array(RTFEmitter.render(document, theme: options.theme, unsafe: options.unsafe,
                                tableOfContents: options.tableOfContents(of: document), diagnostics: &diagnostics).utf8)
    }
}
