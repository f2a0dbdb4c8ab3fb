import Foundation
import NotepressAST
import NotepressMan
import NotepressRawHTML
import NotepressReaders

/// `-t man`: a man(7) page (see ``ManEmitter``).
package struct ManWriter: DocumentWriter {
    package init() {}
    package var format: OutputFormat { .man }
    package var fileExtension: String { "man" }
    /// The output has no typography to take from a theme.
    package func usesTheme(fragment: Bool) -> Bool { false }
    package func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        var emitter = ManEmitter(unsafe: options.unsafe)
        emitter.defaultSection = options.manSection
        let format = document.metadata.sourceFormat == .commonmark ? SourceFormat.commonmark : .gfm
        emitter.readMarkdown = { MarkdownReader(format: format).parse($0).document.blocks }
        // Raw inline HTML the policy keeps is read (`<b>`, `<sup>`, `<kbd>`: bold, superscript,
        // code); other tags stay for the man writer's own reading (ronn's placeholders).
        return Array(emitter.render(RawHTMLReading.reading(document, keepingUnread: true), diagnostics: &diagnostics).utf8)
    }
}
