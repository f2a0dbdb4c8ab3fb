import NotepressAST

/// How one highlighting role (``CodeRole``) is drawn: a colour, bold, italic.
public struct CodeStyle: Sendable, Equatable, Hashable {
    /// The text colour.
    public var color: RGBColor
    /// Bold.
    public var bold: Bool
    /// Italic.
    public var italic: Bool

    /// A style of `color`, optionally bold and italic.
    public init(color: RGBColor, bold: Bool = false, italic: Bool = false) {
        self.color = color; self.bold = bold; self.italic = italic
    }
}

/// A theme's colours for highlighted code in one appearance (light or dark): a style per role.
/// The code background is the theme's ``ThemeColors/codeBackground``; every role's colour meets
/// WCAG AA contrast (4.5:1) against it (the tests check the shipped themes).
public struct CodePalette: Sendable, Equatable, Hashable {
    /// The style of each role; a role not listed is drawn as ``CodeRole/plain``, and plain, when
    /// not listed, in the theme's text colour (the shipped palettes list no plain).
    public var styles: [CodeRole: CodeStyle]
    /// The library theme the palette was taken from (`--highlight-style`), or `nil` for a
    /// palette of a Notepress theme.
    public var libraryTheme: String?
    /// The background the library theme draws code on (`--highlight-style`); `nil`: the
    /// Notepress theme's code background.
    public var background: RGBColor?

    /// A palette of `styles`.
    public init(styles: [CodeRole: CodeStyle], libraryTheme: String? = nil, background: RGBColor? = nil) {
        self.styles = styles; self.libraryTheme = libraryTheme; self.background = background
    }

    /// The style of `role` (plain's for a role not listed; `fallback` when plain is not either).
    public func style(_ role: CodeRole, fallback: RGBColor) -> CodeStyle {
        styles[role] ?? styles[.plain] ?? CodeStyle(color: fallback)
    }

    /// The 16-colour terminal's SGR foreground for a role (a terminal's own palette decides the
    /// shade, so these are the classic assignments of editors' 16-colour schemes); `nil`: the
    /// terminal's default colour.
    public static func ansi16(_ role: CodeRole) -> Int? {
        switch role {
        case .keyword, .controlFlow: 35
        case .type, .attribute: 36
        case .function: 34
        case .variable: 36
        case .string, .character: 32
        case .number, .constant: 33
        case .comment, .documentation: 90
        case .preprocessor: 33
        case .error: 31
        case .operator, .plain: nil
        }
    }

    /// Notepress's light code palette (Xcode's "Default (Light)" hues, deepened for contrast on
    /// #f2f2f7: at least 4.8:1).
    public static let standardLight = palette([
        .keyword: ("#9b2393", true, false), .controlFlow: ("#9b2393", true, false),
        .type: ("#3900a0", false, false), .function: ("#326d74", false, false), .variable: ("#0f68a0", false, false),
        .string: ("#c41a16", false, false), .character: ("#1c00cf", false, false), .number: ("#1c00cf", false, false),
        .constant: ("#6c36a9", false, false), .comment: ("#5d6c79", false, true), .documentation: ("#4b5560", false, true),
        .preprocessor: ("#643820", false, false), .operator: ("#3a3a3c", false, false), .attribute: ("#815f03", false, false),
        .error: ("#d70015", true, false),
    ])

    /// Notepress's dark code palette (Xcode's "Default (Dark)" hues, on #2c2c2e: at least 4.9:1).
    public static let standardDark = palette([
        .keyword: ("#ff7ab2", true, false), .controlFlow: ("#ff7ab2", true, false),
        .type: ("#dabaff", false, false), .function: ("#67b7a4", false, false), .variable: ("#4eb0cc", false, false),
        .string: ("#ff8170", false, false), .character: ("#d9c97c", false, false), .number: ("#d9c97c", false, false),
        .constant: ("#bca8ff", false, false), .comment: ("#9aa5b1", false, true), .documentation: ("#a6b1bc", false, true),
        .preprocessor: ("#ffa14f", false, false), .operator: ("#e5e5ea", false, false), .attribute: ("#cc9768", false, false),
        .error: ("#ff6961", true, false),
    ])

    private static func palette(_ table: [CodeRole: (String, Bool, Bool)]) -> CodePalette {
        CodePalette(styles: table.mapValues { CodeStyle(color: RGBColor(hex: $0.0)!, bold: $0.1, italic: $0.2) })
    }
}
