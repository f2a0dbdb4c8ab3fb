import NotepressAST

/// The twelve content size categories a reader can choose, named as UIKit's
/// `UIContentSizeCategory` names them, smallest first. ``large`` is the system default.
public enum SizeCategory: String, Sendable, Equatable, Hashable, Codable, CaseIterable, Comparable {
    case extraSmall, small, medium, large, extraLarge, extraExtraLarge, extraExtraExtraLarge
    case accessibilityMedium, accessibilityLarge, accessibilityExtraLarge
    case accessibilityExtraExtraLarge, accessibilityExtraExtraExtraLarge

    /// The short command-line alias: `xs s m l xl xxl xxxl ax1 … ax5`.
    public var alias: String {
        ["xs", "s", "m", "l", "xl", "xxl", "xxxl", "ax1", "ax2", "ax3", "ax4", "ax5"][index]
    }

    /// Position in ``allCases`` (0 = extraSmall … 11 = accessibilityExtraExtraExtraLarge).
    public var index: Int { Self.allCases.firstIndex(of: self)! }

    /// Whether this is one of the five accessibility sizes.
    public var isAccessibilityCategory: Bool { index >= 7 }

    /// Accepts the full name (`accessibilityMedium`) or the alias (`ax1`), case-insensitively.
    public init?(name: String) {
        let n = name.lowercased()
        guard let c = Self.allCases.first(where: { $0.rawValue.lowercased() == n || $0.alias == n }) else { return nil }
        self = c
    }

    public static func < (a: Self, b: Self) -> Bool { a.index < b.index }
}

/// Font weights, as `UIFont.Weight` names them. The Bold Text accessibility setting steps each
/// weight up one place (see ``steppedUp``).
public enum FontWeight: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    case ultraLight, thin, light, regular, medium, semibold, bold, heavy, black

    /// CSS `font-weight` (100…900).
    public var cssValue: Int {
        switch self {
        case .ultraLight: 100
        case .thin: 200
        case .light: 300
        case .regular: 400
        case .medium: 500
        case .semibold: 600
        case .bold: 700
        case .heavy: 800
        case .black: 900
        }
    }

    /// The weight under the Bold Text setting: regular → semibold, semibold → bold, and so on
    /// one step for the others (light → regular, bold → heavy, black stays black).
    public var steppedUp: FontWeight {
        switch self {
        case .regular: .semibold
        case .semibold: .bold
        case .black: .black
        default: Self.allCases[Self.allCases.firstIndex(of: self)! + 1]
        }
    }

    /// Whether renderers with only "bold or not" (RTF `\b`, SGR 1, roff `\fB`) show it bold.
    public var isBold: Bool { cssValue >= 600 }
}

/// A font design, as `UIFontDescriptor.SystemDesign` names them.
public enum FontDesign: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    case `default`, serif, rounded, monospaced
}

/// The generic family a font falls back to when its family is not installed (CSS generic
/// family names).
public enum GenericFamily: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    case sansSerif = "sans-serif", serif, monospace, cursive, systemUI = "system-ui"
}

/// Apple's published Dynamic Type sizes for iOS.
///
/// Source: Apple Human Interface Guidelines, Typography, "Dynamic Type sizes" (iOS, iPadOS),
/// the tables for each content size category xSmall…AX5. Sizes are in points; columns follow
/// ``SizeCategory/allCases``. Headline is semibold, the other five regular.
public enum DynamicTypeTable {
    /// Point size per style, one entry per ``SizeCategory`` (extraSmall first).
    public static let sizes: [TextStyle: [Double]] = [
        .headline:    [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53],
        .body:        [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53],
        .subheadline: [12, 13, 14, 15, 17, 19, 21, 25, 30, 36, 42, 49],
        .footnote:    [12, 12, 12, 13, 15, 17, 19, 23, 27, 33, 38, 44],
        .caption1:    [11, 11, 11, 12, 14, 16, 18, 22, 26, 32, 37, 43],
        .caption2:    [11, 11, 11, 11, 13, 15, 17, 20, 24, 29, 34, 40],
    ]

    /// Line height (leading) in points at ``SizeCategory/large``, from the same HIG table.
    public static let lineHeightsAtLarge: [TextStyle: Double] = [
        .headline: 22, .body: 22, .subheadline: 20, .footnote: 18, .caption1: 16, .caption2: 13,
    ]

    /// Default weight per style: headline semibold, the rest regular.
    public static let weights: [TextStyle: FontWeight] = [
        .headline: .semibold, .body: .regular, .subheadline: .regular,
        .footnote: .regular, .caption1: .regular, .caption2: .regular,
    ]

    /// Point size of `style` at `category`.
    public static func size(_ style: TextStyle, _ category: SizeCategory) -> Double {
        sizes[style]![category.index]
    }

    /// Line height of `style` at `category` in points: the Large line height scaled by
    /// size(category) / size(large), rounded to the nearest whole point (HIG gives leading only
    /// for Large in the form we use; scaling keeps the ratio).
    public static func lineHeight(_ style: TextStyle, _ category: SizeCategory) -> Double {
        let base = lineHeightsAtLarge[style]!
        return (base * size(style, category) / size(style, .large)).rounded()
    }
}
