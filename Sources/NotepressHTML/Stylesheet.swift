import Foundation
import NotepressAST
import NotepressThemes

/// The CSS of a standalone page or index, generated from a theme.
///
/// Units: one point of the theme is one CSS pixel, written in `rem` against the browser's default
/// root size (`html { font-size: 100% }` = 16px), so 17 pt = `1.0625rem`. A reader who raises the
/// browser's text size scales the whole page, which is the web's Dynamic Type.
///
/// Size categories: every text style's size and line height is a custom property
/// (`--np-body-size`, `--np-body-line`, …). `:root` holds the chosen category; one rule per
/// category, selected by `html[data-size-category="NAME"]` or by the checked radio input
/// `#size-ALIAS` of the page's `.size-switcher` (`:root:has(#size-xs:checked)`, Selectors Level 4
/// §4.5), switches to another without JavaScript. Colours are custom properties too, with the dark
/// set under `@media (prefers-color-scheme: dark)` (Media Queries Level 5 §12.5).
public struct Stylesheet: Sendable {
    /// The theme at the category that is the page's default, and the Bold Text setting.
    public var theme: ResolvedTheme

    public init(theme: ResolvedTheme) { self.theme = theme }

    /// `points / 16` in `rem`, at most four decimals, trailing zeros dropped (`17` → `1.0625rem`).
    public static func rem(_ points: Double) -> String {
        number(points / 16) + "rem"
    }

    /// A CSS number: at most four decimals, no trailing zeros, no exponent.
    static func number(_ v: Double) -> String {
        let scaled = (v * 10000).rounded()
        let neg = scaled < 0
        let a = Int(abs(scaled))
        var s = String(a / 10000)
        var frac = String(a % 10000)
        if a % 10000 != 0 {
            while frac.count < 4 { frac = "0" + frac }
            while frac.hasSuffix("0") { frac.removeLast() }
            s += "." + frac
        }
        return neg && a != 0 ? "-" + s : s
    }

    /// The custom-property name stem of a style: `headline`, `caption1`, ….
    static func varName(_ style: TextStyle) -> String { style.rawValue }

    /// Installed-font fallbacks tried before a generic family that browsers map poorly: Chromium
    /// and Firefox on Linux and Windows often draw `cursive` in an upright face, so script spans
    /// name common chancery faces of macOS, Windows and Linux (URW base35's Z003) first.
    static let genericFallbacks: [GenericFamily: [String]] = [
        .cursive: ["Apple Chancery", "Segoe Script", "Z003", "URW Chancery L"],
    ]

    /// The `font-family` list of a family: the family, a `ui-*` family for its design, fallbacks
    /// for its generic (``genericFallbacks``), the generic.
    static func fontFamily(_ family: String, design: FontDesign, generic: GenericFamily) -> String {
        var list = [CSSEscape.familyName(family)]
        switch design {
        case .serif: list.append("ui-serif")
        case .rounded: list.append("ui-rounded")
        case .monospaced: list.append("ui-monospace")
        case .default: if generic == .sansSerif { list.append("system-ui") }
        }
        for f in genericFallbacks[generic] ?? [] where f != family { list.append(CSSEscape.familyName(f)) }
        let g = generic.rawValue
        if !list.contains(g) { list.append(g) }
        return list.joined(separator: ", ")
    }

    /// The declarations giving an element the look of `style` at the current category (through the
    /// custom properties, so the category switch changes it).
    func styleDeclarations(_ style: TextStyle) -> String {
        let s = theme.style(style)
        let v = Self.varName(style)
        return "font-family: \(Self.fontFamily(s.family, design: s.design, generic: s.generic)); "
            + "font-weight: \(s.weight.cssValue); font-size: var(--np-\(v)-size); line-height: var(--np-\(v)-line);"
    }

    func roleDeclarations(_ role: ThemeRole) -> String { styleDeclarations(theme.textStyle(for: role)) }

    /// The custom properties of every style at `category`.
    func sizeProperties(_ category: SizeCategory) -> String {
        let r = ResolvedTheme(theme: theme.theme, category: category, boldText: theme.boldText)
        return TextStyle.allCases.map { s in
            let st = r.style(s)
            return "  --np-\(Self.varName(s))-size: \(Self.rem(st.size)); --np-\(Self.varName(s))-line: \(Self.rem(st.lineHeight));"
        }.joined(separator: "\n")
    }

    static func colorProperties(_ c: ThemeColors) -> String {
        [("text", c.text), ("background", c.background), ("alert", c.alert), ("link", c.link),
         ("code-background", c.codeBackground), ("letterpress-light", c.letterpressLight),
         ("letterpress-shadow", c.letterpressShadow), ("secondary", c.secondary)]
            .map { "  --np-\($0.0): \($0.1.hex);" }.joined(separator: "\n")
    }

    /// The whole stylesheet, ending with a newline. Deterministic.
    public func css() -> String {
        let t = theme.theme
        let boldMarker = theme.boldText ? FontWeight.bold.steppedUp.cssValue : FontWeight.bold.cssValue
        var out = """
        /* Notepress stylesheet: theme \(CSSEscape.comment(t.name)), size category \(theme.category.rawValue)\(theme.boldText ? ", Bold Text" : "").
           1 pt = 1 CSS px, written in rem of the browser's 16px default (17 pt = 1.0625rem). */
        :root {
          color-scheme: light dark;
        \(Self.colorProperties(t.light))
        \(sizeProperties(theme.category))
        }
        @media (prefers-color-scheme: dark) {
          :root {
          \(Self.colorProperties(t.dark).replacingOccurrences(of: "\n", with: "\n  "))
          }
        }

        """
        for c in SizeCategory.allCases {
            out += "html[data-size-category=\"\(c.rawValue)\"], :root:has(#size-\(c.alias):checked) {\n\(sizeProperties(c))\n}\n"
        }
        let code = theme.style(for: .code)
        let codeFamily = Self.fontFamily(t.codeFont.family, design: .monospaced, generic: t.codeFont.generic)
        let scriptFamily = Self.fontFamily(t.scriptFont.family, design: .default, generic: t.scriptFont.generic)
        let badge = Self.varName(theme.textStyle(for: .dateBadge))
        let headline = Self.varName(theme.textStyle(for: .noteTitle))
        let caption = Self.varName(theme.textStyle(for: .caption))
        out += """
        html { font-size: 100%; -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
        body { margin: 0; background: var(--np-background); color: var(--np-text); \(roleDeclarations(.body)) }

        """
        for s in TextStyle.allCases {
            out += ".text-\(s.rawValue) { \(styleDeclarations(s)) }\n"
        }
        out += """
        .note, .index { max-width: calc(var(--np-body-size) * 40); margin: 0 auto; padding: 0.5rem 1.25rem 3rem; }
        ol, ul { padding-left: 2em; }
        .note::after { content: ""; display: block; clear: both; }
        h1 { \(roleDeclarations(.heading1)) }
        h2 { \(roleDeclarations(.heading2)) }
        h3 { \(roleDeclarations(.heading3)) }
        h4 { \(roleDeclarations(.heading4)) }
        h5 { \(roleDeclarations(.heading5)) }
        h6 { \(roleDeclarations(.heading6)) }
        h1, h2, h3, h4, h5, h6 { margin: 1.25em 0 0.5em; }
        p, ul, ol, dl, table, pre, blockquote { margin: 0 0 0.75em; }
        p { \(roleDeclarations(.body)) }
        a { color: var(--np-link); }
        blockquote { \(roleDeclarations(.blockQuote)) margin-left: 0; padding-left: 1em; border-left: 0.25em solid var(--np-secondary); }
        pre { \(roleDeclarations(.code)) font-family: \(codeFamily); background: var(--np-code-background); padding: 0.75em 1em; border-radius: 0.5em; overflow-x: auto; }
        code, kbd, samp { font-family: \(codeFamily); font-weight: \(code.weight.cssValue); }
        :not(pre) > code { font-size: 0.875em; background: var(--np-code-background); padding: 0.1em 0.3em; border-radius: 0.3em; }
        pre code { font-size: inherit; line-height: inherit; background: none; padding: 0; }
        li::marker { \(roleDeclarations(.listMarker)) }
        ol > li::marker { font-weight: \(boldMarker); font-variant-numeric: tabular-nums; }
        table { border-collapse: collapse; }
        th { \(roleDeclarations(.tableHeader)) font-weight: \(max(theme.style(for: .tableHeader).weight.cssValue, boldMarker)); }
        td { \(roleDeclarations(.tableCell)) }
        th, td { border: 1px solid var(--np-secondary); padding: 0.3em 0.6em; text-align: left; }
        .footnotes { \(roleDeclarations(.footnote)) border-top: 1px solid var(--np-secondary); margin-top: 2em; }
        .footnotes p, .footnotes li { font-size: inherit; line-height: inherit; }
        hr { border: none; border-top: 1px solid var(--np-secondary); margin: 1.5em 0; }
        img { max-width: 100%; height: auto; }
        .script { font-family: \(scriptFamily); }
        .alert { color: var(--np-alert); }
        .marker { color: var(--np-secondary); }
        .tag { color: var(--np-link); text-decoration: none; white-space: nowrap; }
        .letterpress { text-shadow: 0 max(1px, 0.06em) 0 var(--np-letterpress-light), 0 min(-1px, -0.04em) 0 var(--np-letterpress-shadow); }
        .note-title { \(roleDeclarations(.noteTitle)) margin: 0.75em 0 0.5em; }
        .date-badge { \(roleDeclarations(.dateBadge))
          float: right; box-sizing: border-box; width: calc(var(--np-\(badge)-line) * 6); height: calc(var(--np-\(badge)-line) * 6);
          margin: 0 0 0.75em 0.75em; border: 0.15em solid var(--np-secondary); border-radius: 50%;
          shape-outside: circle(50% at 50% 50%) border-box; shape-margin: 0.75em;
          display: flex; flex-direction: column; align-items: center; justify-content: center; text-align: center;
          color: var(--np-secondary); }
        .date-badge .day { font-size: 1.6em; line-height: 1; font-weight: \(boldMarker); color: var(--np-text); }
        .date-badge .month, .date-badge .year { display: block; }
        .size-switcher { display: flex; flex-wrap: wrap; justify-content: flex-end; gap: 0.25rem; max-width: calc(var(--np-body-size) * 40); margin: 0 auto; padding: 0.5rem 1.25rem 0; font-size: 0.75rem; line-height: 1.5; }
        .size-switcher .size-legend { color: var(--np-secondary); margin-right: 0.25rem; }
        .size-switcher input { position: absolute; opacity: 0; width: 1px; height: 1px; margin: 0; }
        .size-switcher label { padding: 0 0.5em; border: 1px solid transparent; border-radius: 1em; color: var(--np-secondary); cursor: pointer; }
        .size-switcher input:checked + label { border-color: currentColor; color: var(--np-text); font-weight: \(boldMarker); }
        .size-switcher input:focus-visible + label { outline: 2px solid var(--np-link); }
        .index-list { list-style: none; margin: 0; padding: 0; }
        .index-entry { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between; column-gap: 1em;
          min-height: calc(var(--np-\(headline)-line) * 2); padding: calc(var(--np-\(caption)-line) * 0.5) 0; border-bottom: 1px solid var(--np-code-background); box-sizing: border-box; }
        .index-entry a { color: inherit; text-decoration: none; }
        .index-entry a:hover, .index-entry a:focus-visible { text-decoration: underline; }
        .index-date { \(roleDeclarations(.caption)) color: var(--np-secondary); white-space: nowrap; }
        @media print { .size-switcher { display: none; } }

        """
        return out
    }
}

/// Escaping for CSS output (CSS Syntax Level 3 §4.3.7 escapes). The only way theme text reaches
/// a stylesheet.
enum CSSEscape {
    /// A font family name: a vendor keyword such as `-apple-system` or `BlinkMacSystemFont` stays
    /// unquoted (Safari does not recognise it quoted); anything else becomes a quoted string.
    static func familyName(_ name: String) -> String {
        let bare = name.hasPrefix("-") && name.count > 1
            && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        return bare || name == "BlinkMacSystemFont" ? name : string(name)
    }

    /// A double-quoted CSS string. `"`, `\`, control characters and `<` (so that `</style>` never
    /// appears) become hexadecimal escapes followed by a space.
    static func string(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            if u == "\"" || u == "\\" || u == "<" || u == ">" || u.value < 0x20 || u.value == 0x7F {
                out += "\\" + String(u.value, radix: 16) + " "
            } else {
                out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    /// Text inside a `/* … */` comment: `*/` and `<` cannot appear.
    static func comment(_ s: String) -> String {
        s.replacingOccurrences(of: "*/", with: "* /").replacingOccurrences(of: "<", with: "‹")
    }
}
