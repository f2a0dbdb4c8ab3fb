import Foundation
import NotepressANSI
import NotepressAST

/// `-t ansi`: text for a terminal (``ANSIEmitter``). Maps ``ConversionOptions``:
/// `width` (columns; `nil` = the terminal's width from ``TerminalSize/columns(environment:fd:)``
/// on standard output), `colorDepth` → ``TerminalColorDepth``, `hyperlinks` (OSC 8), `ascii`
/// and `theme` (colours, Bold Text).
public struct ANSIWriter: DocumentWriter {
    public init() {}
    public var name: String { "ansi" }
    /// `.ans` (ANSI art's extension), not `.txt`, which Notepress reads as note markup.
    public var fileExtension: String { "ans" }

    public func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        let width = options.width ?? TerminalSize.columns(environment: ProcessInfo.processInfo.environment, fd: 1)
        var o = ANSIOptions(width: width, colorDepth: Self.terminalDepth(options.colorDepth),
                            hyperlinks: options.hyperlinks, ascii: options.ascii, theme: options.theme,
                            unsafe: options.unsafe)
        o.tableOfContents = options.tableOfContents(of: document)
        return Array(ANSIEmitter.render(document, options: o, diagnostics: &diagnostics).utf8)
    }

    /// ``ColorDepth`` → ``TerminalColorDepth`` (same cases).
    public static func terminalDepth(_ d: ColorDepth) -> TerminalColorDepth {
        switch d {
        case .none: .none
        case .ansi16: .ansi16
        case .ansi256: .ansi256
        case .truecolor: .truecolor
        }
    }

    /// ``TerminalColorDepth`` → ``ColorDepth`` (same cases).
    public static func colorDepth(_ d: TerminalColorDepth) -> ColorDepth {
        switch d {
        case .none: .none
        case .ansi16: .ansi16
        case .ansi256: .ansi256
        case .truecolor: .truecolor
        }
    }
}
