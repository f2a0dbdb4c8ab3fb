import NotepressAST

/// Every part of a document a theme gives a text style to.
public enum ThemeRole: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    /// The note's title line (front matter `title`).
    case noteTitle
    /// Headings of level 1.
    case heading1
    /// Headings of level 2.
    case heading2
    /// Headings of level 3.
    case heading3
    /// Headings of level 4.
    case heading4
    /// Headings of level 5.
    case heading5
    /// Headings of level 6.
    case heading6
    /// Paragraphs and list items.
    case body
    /// Text inside block quotes.
    case blockQuote
    /// Code blocks.
    case code
    /// List numbers and bullets.
    case listMarker
    /// Table header cells.
    case tableHeader
    /// Table body cells.
    case tableCell
    /// Footnote definitions.
    case footnote
    /// Captions (image descriptions, the index's dates).
    case caption
    /// The round date badge.
    case dateBadge

    /// The role of a heading of `level` 1…6 (levels outside are clamped).
    public static func heading(_ level: Int) -> ThemeRole {
        [.heading1, .heading2, .heading3, .heading4, .heading5, .heading6][min(max(level, 1), 6) - 1]
    }
}

/// An sRGB colour, 8 bits per channel.
public struct RGBColor: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Red, 0–255.
    public var red: UInt8
    /// Green, 0–255.
    public var green: UInt8
    /// Blue, 0–255.
    public var blue: UInt8

    /// The colour of the three channels (sRGB, 0–255 each).
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red; self.green = green; self.blue = blue
    }

    /// Parses `#RRGGBB` or `#RGB` (case-insensitive); `nil` for anything else.
    public init?(hex: String) {
        var s = Substring(hex)
        guard s.first == "#" else { return nil }
        s = s.dropFirst()
        if s.count == 3 { s = Substring(s.map { "\($0)\($0)" }.joined()) }
        guard s.count == 6, s.allSatisfy(\.isHexDigit), let v = UInt32(s, radix: 16) else { return nil }
        red = UInt8(v >> 16); green = UInt8((v >> 8) & 0xFF); blue = UInt8(v & 0xFF)
    }

    /// `#rrggbb`, lower case.
    public var hex: String {
        let digits = Array("0123456789abcdef")
        return "#" + [red, green, blue].map { "\(digits[Int($0 >> 4)])\(digits[Int($0 & 15)])" }.joined()
    }

    /// ``hex``.
    public var description: String { hex }
}

/// The colours a theme names, for one appearance (light or dark).
public struct ThemeColors: Sendable, Equatable, Hashable {
    /// Body text.
    public var text: RGBColor
    /// The page.
    public var background: RGBColor
    /// The alert colour of note markup's ALL-CAPS words (red by default).
    public var alert: RGBColor
    /// Links and hashtags.
    public var link: RGBColor
    /// Behind code spans and blocks.
    public var codeBackground: RGBColor
    /// Letterpress: the highlight below the pressed-in glyphs.
    public var letterpressLight: RGBColor
    /// Letterpress: the shadow above the pressed-in glyphs.
    public var letterpressShadow: RGBColor
    /// Secondary text: dates, captions, block-quote bars.
    public var secondary: RGBColor

    /// A palette of the eight colours.
    public init(text: RGBColor, background: RGBColor, alert: RGBColor, link: RGBColor, codeBackground: RGBColor,
                letterpressLight: RGBColor, letterpressShadow: RGBColor, secondary: RGBColor) {
        self.text = text; self.background = background; self.alert = alert; self.link = link
        self.codeBackground = codeBackground; self.letterpressLight = letterpressLight
        self.letterpressShadow = letterpressShadow; self.secondary = secondary
    }
}

/// How one text style is drawn.
public struct StyleSpec: Sendable, Equatable, Hashable {
    /// Font family name, for example `"Helvetica Neue"`.
    public var family: String
    /// Families to try, in order, when `family` is missing (see ``FontFamily/fallbacks``).
    public var fallbacks: [String]
    /// What to fall back to when no named family is installed.
    public var generic: GenericFamily
    /// The weight (Bold Text steps it up once).
    public var weight: FontWeight
    /// The design (Apple's system font designs).
    public var design: FontDesign
    /// Point size per category (12 entries, `SizeCategory.allCases` order).
    public var sizes: [Double]
    /// Line height in points per category (12 entries).
    public var lineHeights: [Double]

    /// A style of the given font and the twelve sizes and line heights.
    public init(family: String, fallbacks: [String] = [], generic: GenericFamily, weight: FontWeight,
                design: FontDesign, sizes: [Double], lineHeights: [Double]) {
        self.family = family; self.fallbacks = fallbacks; self.generic = generic; self.weight = weight
        self.design = design; self.sizes = sizes; self.lineHeights = lineHeights
    }

    /// The font of this style: family, fallbacks and generic.
    public var font: FontFamily { FontFamily(family: family, fallbacks: fallbacks, generic: generic) }
}

/// A font: the family wanted, the families to try when it is missing, and the generic family
/// that ends the list.
///
/// The list runs from the most wanted family to the most widely installed one: the last named
/// family is one that Windows and macOS ship and that fontconfig maps to an installed face on
/// Linux (Arial, Times New Roman, Courier New: Liberation, URW base35 or DejaVu faces; Zapf
/// Chancery: URW's Z003). HTML writes the whole list (CSS `font-family`); a format that names one
/// family per font (RTF) writes ``portableFamily``.
public struct FontFamily: Sendable, Equatable, Hashable {
    /// The family wanted first.
    public var family: String
    /// Families to try, in order, when `family` is missing; the last is the most portable.
    public var fallbacks: [String]
    /// The CSS generic family the list ends with.
    public var generic: GenericFamily

    /// `family`, then `fallbacks` in order, then `generic`.
    public init(family: String, fallbacks: [String] = [], generic: GenericFamily) {
        self.family = family; self.fallbacks = fallbacks; self.generic = generic
    }

    /// `family` followed by `fallbacks`.
    public var names: [String] { [family] + fallbacks }

    /// Whether `name` is a CSS keyword for a platform's system font rather than a family a
    /// document can name (`-apple-system`, `BlinkMacSystemFont`, `system-ui`, `ui-serif`, …).
    public static func isSystemKeyword(_ name: String) -> Bool {
        name.hasPrefix("-") || name == "BlinkMacSystemFont" || name == "system-ui" || name.hasPrefix("ui-")
    }

    /// The one family a document format that names a single family per font writes: the last
    /// named family of the list that is not a system keyword (the most widely installed, see the
    /// type's documentation), else `family`.
    public var portableFamily: String {
        names.last { !Self.isSystemKeyword($0) } ?? family
    }

    /// An alternative to ``portableFamily`` for readers that honour one (RTF `\falt`): the
    /// named family before it in the list, if any.
    public var alternativeFamily: String? {
        let real = names.filter { !Self.isSystemKeyword($0) }
        return real.count >= 2 ? real[real.count - 2] : nil
    }
}

/// How a terminal draws one kind of text (SGR attributes and a colour), as a theme gives it.
/// ECMA-48 §8.3.117: 1 bold, 2 faint, 3 italic, 4 underline.
public struct TerminalTextStyle: Sendable, Equatable, Hashable {
    /// SGR 1.
    public var bold: Bool
    /// SGR 2 (faint).
    public var dim: Bool
    /// SGR 3.
    public var italic: Bool
    /// SGR 4.
    public var underline: Bool
    /// The colour at 256 colours and direct colour; `nil` keeps the terminal's.
    public var color: RGBColor?
    /// The colour at 16 colours: an SGR foreground code, 30–37 or 90–97.
    public var ansi16: Int?

    /// A style of the given attributes and colours.
    public init(bold: Bool = false, dim: Bool = false, italic: Bool = false, underline: Bool = false,
                color: RGBColor? = nil, ansi16: Int? = nil) {
        self.bold = bold; self.dim = dim; self.italic = italic; self.underline = underline
        self.color = color; self.ansi16 = ansi16
    }
}

/// A complete theme: a spec for each text style, a role map, fonts and colours.
/// Theme files (`Templates/themes/NAME.json`, `Theme.named(_:)` in the Notepress module) hold
/// what differs from ``Theme/standard``.
public struct Theme: Sendable, Equatable {
    /// The theme's name (`default`, `reading`, `high-contrast`; `standard` for ``standard``).
    public var name: String
    /// Font, weight and the twelve sizes and line heights of each text style.
    public var styles: [TextStyle: StyleSpec]
    /// The text style of each part of a document.
    public var roles: [ThemeRole: TextStyle]
    /// Font for code spans and code blocks.
    public var codeFont: FontFamily
    /// Font for note markup's `~script~` spans.
    public var scriptFont: FontFamily
    /// Font for Chinese, Japanese and Korean text (RTF's `\dbch` font; HTML lists it after the
    /// Latin families so CJK text takes it instead of the browser's default CJK face).
    public var eastAsianFont: FontFamily
    /// How a terminal shows `~script~` (a terminal has one font, so not italic alone, which
    /// `_italic_` is).
    public var terminalScript: TerminalTextStyle
    /// Colours in light appearance.
    public var light: ThemeColors
    /// Colours in dark appearance (HTML pages use them under `prefers-color-scheme: dark`).
    public var dark: ThemeColors
    /// Highlighted code in light appearance (``CodePalette``, on ``ThemeColors/codeBackground``
    /// of ``light``).
    public var codeLight: CodePalette = .standardLight
    /// Highlighted code in dark appearance (on the ``dark`` code background).
    public var codeDark: CodePalette = .standardDark

    /// A theme of every part; ``standard`` is the model.
    public init(name: String, styles: [TextStyle: StyleSpec], roles: [ThemeRole: TextStyle], codeFont: FontFamily,
                scriptFont: FontFamily, eastAsianFont: FontFamily = Theme.standardEastAsianFont,
                terminalScript: TerminalTextStyle = Theme.standardTerminalScript, light: ThemeColors, dark: ThemeColors) {
        self.name = name; self.styles = styles; self.roles = roles; self.codeFont = codeFont
        self.scriptFont = scriptFont; self.eastAsianFont = eastAsianFont; self.terminalScript = terminalScript
        self.light = light; self.dark = dark
    }

    /// Sans-serif CJK faces of macOS (PingFang, Hiragino), Windows (Microsoft YaHei) and Linux
    /// (Noto Sans CJK, Debian `fonts-noto-cjk`).
    public static let standardEastAsianFont = FontFamily(
        family: "PingFang SC", fallbacks: ["Hiragino Sans", "Microsoft YaHei", "Noto Sans CJK SC"], generic: .sansSerif)

    /// `~script~` in a terminal: italic in purple (Apple's accessible systemPurple, #8944ab:
    /// 6.0:1 on white; magenta, SGR 35, at 16 colours).
    public static let standardTerminalScript = TerminalTextStyle(italic: true, color: RGBColor(red: 0x89, green: 0x44, blue: 0xab),
                                                                 ansi16: 35)

    /// The system sans-serif and its stand-ins on other systems, ending with Arial.
    static let sansFallbacks = ["Helvetica Neue", "Segoe UI", "Roboto", "Liberation Sans", "Arial"]

    /// The built-in base every theme inherits from: Apple's Dynamic Type table
    /// (``DynamicTypeTable``) in the system sans-serif font.
    ///
    /// Headings take Apple's larger styles, so that h1 > h2 > h3 > body: heading 1 `title1`,
    /// heading 2 `title2`, heading 3 `title3`, headings 4–6 `headline` (body size, semibold).
    /// The six note styles keep their roles (title headline, badge caption2, …).
    public static let standard: Theme = {
        var styles: [TextStyle: StyleSpec] = [:]
        for s in TextStyle.allCases {
            styles[s] = StyleSpec(
                family: "-apple-system", fallbacks: sansFallbacks, generic: .sansSerif,
                weight: DynamicTypeTable.weights[s]!, design: .default,
                sizes: SizeCategory.allCases.map { DynamicTypeTable.size(s, $0) },
                lineHeights: SizeCategory.allCases.map { DynamicTypeTable.lineHeight(s, $0) })
        }
        let roles: [ThemeRole: TextStyle] = [
            .noteTitle: .headline, .heading1: .title1, .heading2: .title2, .heading3: .title3,
            .heading4: .headline, .heading5: .headline, .heading6: .headline, .body: .body,
            .blockQuote: .body, .code: .footnote, .listMarker: .body, .tableHeader: .subheadline,
            .tableCell: .subheadline, .footnote: .footnote, .caption: .caption1, .dateBadge: .caption2,
        ]
        let c = { (h: String) in RGBColor(hex: h)! }
        return Theme(
            name: "standard", styles: styles, roles: roles,
            codeFont: FontFamily(family: "Menlo", fallbacks: ["Consolas", "Liberation Mono", "DejaVu Sans Mono", "Courier New"],
                                 generic: .monospace),
            scriptFont: FontFamily(family: "Snell Roundhand",
                                   fallbacks: ["Apple Chancery", "URW Chancery L", "Z003", "Segoe Script", "Zapf Chancery"],
                                   generic: .cursive),
            light: ThemeColors(text: c("#1c1c1e"), background: c("#ffffff"), alert: c("#d70015"), link: c("#0066cc"),
                               codeBackground: c("#f2f2f7"), letterpressLight: c("#ffffff"),
                               letterpressShadow: c("#8e8e93"), secondary: c("#6c6c70")),
            dark: ThemeColors(text: c("#f2f2f7"), background: c("#1c1c1e"), alert: c("#ff6961"), link: c("#409cff"),
                              codeBackground: c("#2c2c2e"), letterpressLight: c("#3a3a3c"),
                              letterpressShadow: c("#000000"), secondary: c("#aeaeb2")))
    }()

    /// Resolves sizes and weights for one category and Bold Text setting.
    public func resolved(category: SizeCategory = .large, boldText: Bool = false) -> ResolvedTheme {
        ResolvedTheme(theme: self, category: category, boldText: boldText)
    }
}

/// A style at one category: what an emitter writes.
public struct ResolvedStyle: Sendable, Equatable, Hashable {
    /// Font family name.
    public var family: String
    /// Families to try when `family` is missing (``FontFamily``).
    public var fallbacks: [String]
    /// The generic family that ends the list.
    public var generic: GenericFamily
    /// The weight, stepped up when Bold Text is on.
    public var weight: FontWeight
    /// The design.
    public var design: FontDesign
    /// Font size in points.
    public var size: Double
    /// Line height in points.
    public var lineHeight: Double

    /// The font of this style: family, fallbacks and generic.
    public var font: FontFamily { FontFamily(family: family, fallbacks: fallbacks, generic: generic) }
}

/// A theme fixed to one content size category and Bold Text setting.
public struct ResolvedTheme: Sendable, Equatable {
    /// The theme.
    public var theme: Theme
    /// The content size category its sizes are taken at.
    public var category: SizeCategory
    /// The accessibility Bold Text setting: every weight steps up once.
    public var boldText: Bool

    /// `theme` at `category`, with or without Bold Text (``Theme/resolved(category:boldText:)``).
    public init(theme: Theme, category: SizeCategory, boldText: Bool) {
        self.theme = theme; self.category = category; self.boldText = boldText
    }

    /// The style `style` at this category.
    public func style(_ style: TextStyle) -> ResolvedStyle {
        let spec = theme.styles[style] ?? Theme.standard.styles[style]!
        return ResolvedStyle(
            family: spec.family, fallbacks: spec.fallbacks, generic: spec.generic, weight: boldText ? spec.weight.steppedUp : spec.weight,
            design: spec.design, size: spec.sizes[category.index], lineHeight: spec.lineHeights[category.index])
    }

    /// The text style a role maps to.
    public func textStyle(for role: ThemeRole) -> TextStyle {
        theme.roles[role] ?? Theme.standard.roles[role]!
    }

    /// The resolved style of a role.
    public func style(for role: ThemeRole) -> ResolvedStyle { style(textStyle(for: role)) }

    /// Light-appearance colours.
    public var colors: ThemeColors { theme.light }
}
