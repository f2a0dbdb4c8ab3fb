import NotepressAST

/// The twelve content size categories a reader can choose, named as UIKit's
/// `UIContentSizeCategory` names them, smallest first. ``large`` is the system default.
public enum SizeCategory: String, Sendable, Equatable, Hashable, Codable, CaseIterable, Comparable {
    /// xSmall (`xs`).
    case extraSmall
    /// Small (`s`).
    case small
    /// Medium (`m`).
    case medium
    /// Large (`l`): the default.
    case large
    /// xLarge (`xl`).
    case extraLarge
    /// xxLarge (`xxl`).
    case extraExtraLarge
    /// xxxLarge (`xxxl`): the largest standard category.
    case extraExtraExtraLarge
    /// AX1 (`ax1`): the first of the larger accessibility sizes.
    case accessibilityMedium
    /// AX2 (`ax2`).
    case accessibilityLarge
    /// AX3 (`ax3`).
    case accessibilityExtraLarge
    /// AX4 (`ax4`).
    case accessibilityExtraExtraLarge
    /// AX5 (`ax5`): the largest.
    case accessibilityExtraExtraExtraLarge

    /// The short command-line alias: `xs s m l xl xxl xxxl ax1 … ax5`.
    public var alias: String {
        ["xs", "s", "m", "l", "xl", "xxl", "xxxl", "ax1", "ax2", "ax3", "ax4", "ax5"][index]
    }

    /// Position in `allCases` (0 = extraSmall … 11 = accessibilityExtraExtraExtraLarge).
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
    /// CSS 100.
    case ultraLight
    /// CSS 200.
    case thin
    /// CSS 300.
    case light
    /// CSS 400.
    case regular
    /// CSS 500.
    case medium
    /// CSS 600.
    case semibold
    /// CSS 700.
    case bold
    /// CSS 800.
    case heavy
    /// CSS 900.
    case black

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
    /// The system's standard design (SF Pro on Apple platforms).
    case `default`
    /// A serif design (New York).
    case serif
    /// Rounded terminals (SF Pro Rounded).
    case rounded
    /// Monospaced (SF Mono).
    case monospaced
}

/// The generic family a font falls back to when its family is not installed (CSS generic
/// family names).
public enum GenericFamily: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    /// CSS `sans-serif`; RTF `\fswiss`.
    case sansSerif = "sans-serif"
    /// CSS `serif`; RTF `\froman`.
    case serif
    /// CSS `monospace`; RTF `\fmodern`.
    case monospace
    /// CSS `cursive`; RTF `\fscript`.
    case cursive
    /// CSS `system-ui`: the platform's interface font.
    case systemUI = "system-ui"
}

/// Apple's published Dynamic Type sizes and leading for iOS and iPadOS.
///
/// Source: Apple Human Interface Guidelines, Typography, Specifications
/// (developer.apple.com/design/human-interface-guidelines/typography#Specifications): the tables
/// "iOS, iPadOS Dynamic Type sizes" (xSmall, Small, Medium, Large (Default), xLarge, xxLarge,
/// xxxLarge) and "iOS, iPadOS larger accessibility type sizes" (AX1 … AX5), one table per content
/// size category, each giving every style's weight, size and leading in points. Both columns are
/// typed in from those twelve tables: the leading is Apple's value for each category, not the
/// Large leading scaled (scaling gives 18 pt for Body at xSmall where Apple says 19, 69 at AX5
/// where Apple says 62). Columns follow `SizeCategory.allCases`. Headline is semibold, the
/// other styles regular (the tables' "Weight" column).
public enum DynamicTypeTable {
    /// Point size per style, one entry per ``SizeCategory`` (extraSmall first).
    public static let sizes: [TextStyle: [Double]] = [
        .largeTitle:  [31, 32, 33, 34, 36, 38, 40, 44, 48, 52, 56, 60],
        .title1:      [25, 26, 27, 28, 30, 32, 34, 38, 43, 48, 53, 58],
        .title2:      [19, 20, 21, 22, 24, 26, 28, 34, 39, 44, 50, 56],
        .title3:      [17, 18, 19, 20, 22, 24, 26, 31, 37, 43, 49, 55],
        .headline:    [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53],
        .body:        [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53],
        .subheadline: [12, 13, 14, 15, 17, 19, 21, 25, 30, 36, 42, 49],
        .footnote:    [12, 12, 12, 13, 15, 17, 19, 23, 27, 33, 38, 44],
        .caption1:    [11, 11, 11, 12, 14, 16, 18, 22, 26, 32, 37, 43],
        .caption2:    [11, 11, 11, 11, 13, 15, 17, 20, 24, 29, 34, 40],
    ]

    /// Leading (line height) in points per style, one entry per ``SizeCategory``, from the same
    /// twelve tables.
    public static let lineHeights: [TextStyle: [Double]] = [
        .largeTitle:  [38, 39, 40, 41, 43, 46, 48, 52, 57, 61, 66, 70],
        .title1:      [31, 32, 33, 34, 37, 39, 41, 46, 51, 57, 62, 68],
        .title2:      [24, 25, 26, 28, 30, 32, 34, 41, 47, 52, 59, 66],
        .title3:      [22, 23, 24, 25, 28, 30, 32, 38, 44, 51, 58, 65],
        .headline:    [19, 20, 21, 22, 24, 26, 29, 34, 40, 48, 56, 62],
        .body:        [19, 20, 21, 22, 24, 26, 29, 34, 40, 48, 56, 62],
        .subheadline: [16, 18, 19, 20, 22, 24, 28, 31, 37, 43, 50, 58],
        .footnote:    [16, 16, 16, 18, 20, 22, 24, 29, 33, 40, 46, 52],
        .caption1:    [13, 13, 13, 16, 19, 21, 23, 28, 32, 39, 44, 51],
        .caption2:    [13, 13, 13, 13, 18, 20, 22, 25, 30, 35, 41, 48],
    ]

    /// Weight per style (the tables' "Weight" column): headline semibold, the rest regular.
    public static let weights: [TextStyle: FontWeight] = [
        .largeTitle: .regular, .title1: .regular, .title2: .regular, .title3: .regular,
        .headline: .semibold, .body: .regular, .subheadline: .regular,
        .footnote: .regular, .caption1: .regular, .caption2: .regular,
    ]

    /// The "Emphasized weight" column of the same tables (the weight of a style's bold variant,
    /// UIKit's `traitBold`): Large Title, Title 1 and Title 2 bold, the others semibold. The
    /// shipped themes draw headings in it.
    public static let emphasizedWeights: [TextStyle: FontWeight] = [
        .largeTitle: .bold, .title1: .bold, .title2: .bold, .title3: .semibold,
        .headline: .semibold, .body: .semibold, .subheadline: .semibold,
        .footnote: .semibold, .caption1: .semibold, .caption2: .semibold,
    ]

    /// Point size of `style` at `category`.
    public static func size(_ style: TextStyle, _ category: SizeCategory) -> Double {
        sizes[style]![category.index]
    }

    /// Leading of `style` at `category` in points: Apple's published value for that category.
    public static func lineHeight(_ style: TextStyle, _ category: SizeCategory) -> Double {
        lineHeights[style]![category.index]
    }
}
