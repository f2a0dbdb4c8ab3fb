import NotepressAST
import NotepressHighlight
import NotepressThemes

/// The facade's door to code highlighting (KDE's KSyntaxHighlighting through
/// ``SyntaxLibrary``): the library's identity for `--version` and the manifest, its themes for
/// `--highlight-style`, and the pass that highlights a document read without it.
extension Notepress {
    /// The highlighting library as `KSyntaxHighlighting 5.103.0`, loading it (the first call
    /// costs its start); `nil` when it cannot be loaded.
    public static var highlightingLibrary: String? {
        guard case .success(let l) = SyntaxLibrary.shared else { return nil }
        return "KSyntaxHighlighting \(l.version)"
    }

    /// Why the highlighting library cannot be loaded, or `nil` when it can.
    public static var highlightingUnavailableReason: String? {
        guard case .failure(let e) = SyntaxLibrary.shared else { return nil }
        return e.reason
    }

    /// The library's theme names (`--highlight-style` takes them, case ignored), sorted; empty
    /// when the library cannot be loaded.
    public static var highlightStyles: [String] {
        guard case .success(let l) = SyntaxLibrary.shared else { return [] }
        return l.themeNames
    }

    /// The code palette of the library theme `name` (case ignored): each role in the colour,
    /// bold and italic of its representative library style (``CodeRole/representativeLibraryStyle``),
    /// and the theme's background.
    /// - Throws: ``HighlightStyleError`` when the library is missing or has no such theme.
    public static func codePalette(libraryTheme name: String) throws -> CodePalette {
        let library: SyntaxLibrary
        switch SyntaxLibrary.shared {
        case .success(let l): library = l
        case .failure(let e): throw HighlightStyleError(message: "--highlight-style needs the highlighting library: \(e.reason)")
        }
        guard let background = library.themeBackground(name) else {
            throw HighlightStyleError(message: "unknown highlight style '\(name)'; the library has: "
                                      + library.themeNames.joined(separator: ", "))
        }
        let canonical = library.themeNames.first { $0.lowercased() == name.lowercased() } ?? name
        var styles: [CodeRole: CodeStyle] = [:]
        for role in CodeRole.allCases {
            guard let s = library.themeStyle(name, role: role) else { continue }
            styles[role] = CodeStyle(color: RGBColor(rgb: s.rgb), bold: s.bold, italic: s.italic)
        }
        return CodePalette(styles: styles, libraryTheme: canonical, background: RGBColor(rgb: background))
    }

    /// `document` with its code highlighted as `options` ask for output `format`, unless it
    /// already is (the command line highlights while reading).
    static func highlighted(_ document: Document, for format: OutputFormat, options: ConversionOptions) -> Document {
        guard options.highlightsCode(in: format) else { return document }
        var findings = CodeHighlighter.Findings()
        var d = document
        d.blocks = CodeHighlighter().highlight(document.blocks, findings: &findings)
        return d
    }
}

/// `--highlight-style` named a theme the library does not have, or the library is missing.
public struct HighlightStyleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One sentence naming the cause (and the library's theme names).
    public var message: String
    /// ``message``.
    public var description: String { message }
}

extension RGBColor {
    /// The colour of a `0xRRGGBB` number.
    init(rgb: UInt32) {
        self.init(red: UInt8((rgb >> 16) & 0xFF), green: UInt8((rgb >> 8) & 0xFF), blue: UInt8(rgb & 0xFF))
    }
}
