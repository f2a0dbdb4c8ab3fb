import NotepressAST

/// The colours of the five GitHub alert kinds (``Alert/Kind``), the one table every writer takes
/// them from: GitHub's own (Primer design system, `fgColor` accent / success / done / attention /
/// danger, light and dark), and the nearest SGR colour for 16-colour terminals.
package enum AlertPalette {
    /// The kind's colour on a light (`dark` false) or dark background.
    package static func color(_ kind: Alert.Kind, dark: Bool = false) -> RGBColor {
        let hex: (String, String)
        switch kind {
        case .note: hex = ("#0969da", "#4493f8")
        case .tip: hex = ("#1a7f37", "#3fb950")
        case .important: hex = ("#8250df", "#ab7df8")
        case .warning: hex = ("#9a6700", "#d29922")
        case .caution: hex = ("#d1242f", "#f85149")
        // Obsidian's other callout types, in the nearest Primer colour of Obsidian's own.
        case .abstract, .todo, .info: hex = ("#0969da", "#4493f8")
        case .success: hex = ("#1a7f37", "#3fb950")
        case .question: hex = ("#9a6700", "#d29922")
        case .failure, .danger, .bug: hex = ("#d1242f", "#f85149")
        case .example: hex = ("#8250df", "#ab7df8")
        case .quote: hex = ("#59636e", "#9198a1")
        }
        return RGBColor(hex: dark ? hex.1 : hex.0)!
    }

    /// The SGR foreground code at 16 colours: blue, green, magenta, yellow, red.
    package static func ansi16(_ kind: Alert.Kind) -> Int {
        switch kind {
        case .note: 34
        case .tip: 32
        case .important: 35
        case .warning: 33
        case .caution: 31
        case .abstract, .todo, .info: 36
        case .success: 32
        case .question: 33
        case .failure, .danger, .bug: 31
        case .example: 35
        case .quote: 90
        }
    }
}
