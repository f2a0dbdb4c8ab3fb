import NotepressAST

/// Every part of a document a theme gives a text style to.
public enum ThemeRole: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    case noteTitle, heading1, heading2, heading3, heading4, heading5, heading6
    case body, blockQuote, code, listMarker, tableHeader, tableCell, footnote, caption, dateBadge

    /// The role of a heading of `level` 1…6 (levels outside are clamped).
    public static func heading(_ level: Int) -> ThemeRole {
        [.heading1, .heading2, .heading3, .heading4, .heading5, .heading6][min(max(level, 1), 6) - 1]
    }
}

/// An sRGB colour, 8 bits per channel.
public struct RGBColor: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var red: UInt8, green: UInt8, blue: UInt8

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

    public var description: String { hex }
}

/// The colours a theme names, for one appearance (light or dark).
public struct ThemeColors: Sendable, Equatable, Hashable {
    public var text: RGBColor
    public var background: RGBColor
    /// The alert colour of note markup's ALL-CAPS words (red by default).
    public var alert: RGBColor
    public var link: RGBColor
    public var codeBackground: RGBColor
    /// Letterpress: the highlight below the pressed-in glyphs.
    public var letterpressLight: RGBColor
    /// Letterpress: the shadow above the pressed-in glyphs.
    public var letterpressShadow: RGBColor
    /// Secondary text: dates, captions, block-quote bars.
    public var secondary: RGBColor

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
    /// What to fall back to when `family` is missing.
    public var generic: GenericFamily
    public var weight: FontWeight
    public var design: FontDesign
    /// Point size per category (12 entries, ``SizeCategory/allCases`` order).
    public var sizes: [Double]
    /// Line height in points per category (12 entries).
    public var lineHeights: [Double]

    public init(family: String, generic: GenericFamily, weight: FontWeight, design: FontDesign,
                sizes: [Double], lineHeights: [Double]) {
        self.family = family; self.generic = generic; self.weight = weight; self.design = design
        self.sizes = sizes; self.lineHeights = lineHeights
    }
}

/// A font family with its generic fallback (code and script fonts).
public struct FontFamily: Sendable, Equatable, Hashable {
    public var family: String
    public var generic: GenericFamily
    public init(family: String, generic: GenericFamily) { self.family = family; self.generic = generic }
}

/// A complete theme: a spec for each of the six text styles, a role map, fonts and colours.
/// Theme files (`Templates/themes/NAME.json`) are read by ``ThemeLoader``; what a file leaves out
/// comes from ``Theme/standard``.
public struct Theme: Sendable, Equatable {
    public var name: String
    public var styles: [TextStyle: StyleSpec]
    public var roles: [ThemeRole: TextStyle]
    /// Font for code spans and code blocks.
    public var codeFont: FontFamily
    /// Font for note markup's `~script~` spans.
    public var scriptFont: FontFamily
    public var light: ThemeColors
    public var dark: ThemeColors

    public init(name: String, styles: [TextStyle: StyleSpec], roles: [ThemeRole: TextStyle], codeFont: FontFamily,
                scriptFont: FontFamily, light: ThemeColors, dark: ThemeColors) {
        self.name = name; self.styles = styles; self.roles = roles; self.codeFont = codeFont
        self.scriptFont = scriptFont; self.light = light; self.dark = dark
    }

    /// The built-in base every theme inherits from: Apple's Dynamic Type table
    /// (``DynamicTypeTable``) in the system sans-serif font.
    public static let standard: Theme = {
        var styles: [TextStyle: StyleSpec] = [:]
        for s in TextStyle.allCases {
            styles[s] = StyleSpec(
                family: "-apple-system", generic: .sansSerif, weight: DynamicTypeTable.weights[s]!, design: .default,
                sizes: SizeCategory.allCases.map { DynamicTypeTable.size(s, $0) },
                lineHeights: SizeCategory.allCases.map { DynamicTypeTable.lineHeight(s, $0) })
        }
        let roles: [ThemeRole: TextStyle] = [
            .noteTitle: .headline, .heading1: .headline, .heading2: .headline, .heading3: .subheadline,
            .heading4: .subheadline, .heading5: .subheadline, .heading6: .subheadline, .body: .body,
            .blockQuote: .body, .code: .footnote, .listMarker: .body, .tableHeader: .subheadline,
            .tableCell: .subheadline, .footnote: .footnote, .caption: .caption1, .dateBadge: .caption2,
        ]
        let c = { (h: String) in RGBColor(hex: h)! }
        return Theme(
            name: "standard", styles: styles, roles: roles,
            codeFont: FontFamily(family: "Menlo", generic: .monospace),
            scriptFont: FontFamily(family: "Snell Roundhand", generic: .cursive),
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
    public var family: String
    public var generic: GenericFamily
    public var weight: FontWeight
    public var design: FontDesign
    /// Font size in points.
    public var size: Double
    /// Line height in points.
    public var lineHeight: Double
}

/// A theme fixed to one content size category and Bold Text setting.
public struct ResolvedTheme: Sendable, Equatable {
    public var theme: Theme
    public var category: SizeCategory
    /// The accessibility Bold Text setting: every weight steps up once.
    public var boldText: Bool

    public init(theme: Theme, category: SizeCategory, boldText: Bool) {
        self.theme = theme; self.category = category; self.boldText = boldText
    }

    /// The style `style` at this category.
    public func style(_ style: TextStyle) -> ResolvedStyle {
        let spec = theme.styles[style] ?? Theme.standard.styles[style]!
        return ResolvedStyle(
            family: spec.family, generic: spec.generic, weight: boldText ? spec.weight.steppedUp : spec.weight,
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
