import NotepressAST
import NotepressMan

/// `-t man`: a man(7) page (see ``ManEmitter``).
package struct ManWriter: DocumentWriter {
    package init() {}
    package var name: String { "man" }
    package var fileExtension: String { "man" }
    /// The output has no typography to take from a theme.
    package func usesTheme(fragment: Bool) -> Bool { false }
    package func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        var emitter = ManEmitter(unsafe: options.unsafe)
        emitter.defaultSection = options.manSection
        return Array(emitter.render(document, diagnostics: &diagnostics).utf8)
    }
}
