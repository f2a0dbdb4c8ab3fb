import NotepressANSI
import NotepressAST
import NotepressRawHTML

/// `-t ansi`: text for a terminal (``ANSIEmitter``). Maps ``ConversionOptions``: `width`
/// (columns), `colorDepth`, `hyperlinks` (OSC 8), `ascii` and `theme` (colours, Bold Text). A
/// pure function of the document and the options: the terminal's width and colours are the
/// command line's to detect.
package struct ANSIWriter: DocumentWriter {
    package init() {}
    package var format: OutputFormat { .ansi }
    /// `.ans` (ANSI art's extension), not `.txt`, which Notepress reads as note markup.
    package var fileExtension: String { "ans" }

    package func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        var o = ANSIOptions(width: options.width, colorDepth: options.colorDepth,
                            hyperlinks: options.hyperlinks, ascii: options.ascii, theme: options.theme,
                            unsafe: options.unsafe)
        o.tableOfContents = options.tableOfContents(of: document)
        o.markerContents = options.markerContents(of: document)
        o.codePalette = options.darkTerminal ? options.theme.theme.codeDark : options.theme.theme.codeLight
        return ANSIEmitter.renderBytes(RawHTMLReading.reading(document), options: o, diagnostics: &diagnostics)
    }
}
