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
package struct Stylesheet: Sendable {
    /// The theme at the category that is the page's default, and the Bold Text setting.
    package var theme: ResolvedTheme
    /// Carry the rules of highlighted code (the theme's code palettes, `tok-` classes): on for a
    /// page that has highlighted code; a page without keeps the stylesheet it had before.
    package var code = true

    package init(theme: ResolvedTheme) { self.theme = theme }

    /// `points / 16` in `rem`, at most four decimals, trailing zeros dropped (`17` → `1.0625rem`).
    package static func rem(_ points: Double) -> String {
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

    /// The `font-family` list of a font: the family, a `ui-*` family for its design (the system's
    /// own serif, rounded or monospaced face on Apple systems), the theme's fallbacks, then
    /// `extra` (the theme's East Asian families, so that CJK text takes a face of the same kind
    /// rather than the browser's default CJK face), then the generic family (``FontFamily``: the
    /// list runs from the most wanted family to the most widely installed).
    static func fontFamily(_ font: FontFamily, design: FontDesign, extra: [String] = [], generic: GenericFamily? = nil) -> String {
        var list = [CSSEscape.familyName(font.family)]
        switch design {
        case .serif: list.append("ui-serif")
        case .rounded: list.append("ui-rounded")
        case .monospaced: list.append("ui-monospace")
        case .default: if font.generic == .sansSerif { list.append("system-ui") }
        }
        for f in font.fallbacks + extra {
            let name = CSSEscape.familyName(f)
            if !list.contains(name) { list.append(name) }
        }
        let g = (generic ?? font.generic).rawValue
        if !list.contains(g) { list.append(g) }
        return list.joined(separator: ", ")
    }

    /// `local(…)` sources for every family of `font` (CSS Fonts 4 §4.3.1: `local()` matches a
    /// face's full name or PostScript name, not its family): the family name itself (`Snell
    /// Roundhand`, `Apple Chancery`), and its regular, italic and medium italic faces
    /// (`Z003 Medium Italic`, `Z003-MediumItalic`), which script faces are often named by.
    static func localSources(_ font: FontFamily) -> String {
        var out: [String] = []
        for name in font.names where !FontFamily.isSystemKeyword(name) {
            let compact = name.replacingOccurrences(of: " ", with: "")
            for n in [name, name + " Regular", name + " Italic", name + " Medium Italic",
                      compact, compact + "-Regular", compact + "-Italic", compact + "-MediumItalic"] where !out.contains(n) {
                out.append(n)
            }
        }
        return out.map { "local(\(CSSEscape.string($0)))" }.joined(separator: ", ")
    }

    /// The `font-family` list of a text style (see ``fontFamily(_:design:extra:generic:)``).
    func styleFontFamily(_ style: TextStyle) -> String {
        let s = theme.style(style)
        return Self.fontFamily(s.font, design: s.design, extra: theme.theme.eastAsianFont.names)
    }

    /// The declarations giving an element the look of `style` at the current category (through the
    /// custom properties, so the category switch changes it).
    func styleDeclarations(_ style: TextStyle) -> String {
        let s = theme.style(style)
        let v = Self.varName(style)
        return "font-family: var(--np-\(v)-font); "
            + "font-weight: \(s.weight.cssValue); font-size: var(--np-\(v)-size); line-height: var(--np-\(v)-line);"
    }

    /// The custom properties of every style's font list (`--np-body-font`, …), which do not
    /// change with the category.
    func fontProperties() -> String {
        TextStyle.allCases.map { "  --np-\(Self.varName($0))-font: \(styleFontFamily($0));" }.joined(separator: "\n")
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

    static func colorProperties(_ c: ThemeColors, dark: Bool, code: CodePalette?) -> String {
        let theme = [("text", c.text), ("background", c.background), ("alert", c.alert), ("link", c.link),
                     ("code-background", c.codeBackground), ("letterpress-light", c.letterpressLight),
                     ("letterpress-shadow", c.letterpressShadow), ("secondary", c.secondary)]
        let alerts = Alert.Kind.allCases.map { ("alert-" + $0.rawValue, AlertPalette.color($0, dark: dark)) }
        // Highlighted code (``CodePalette``): a colour, weight and slant per role; a library
        // theme (`--highlight-style`) also gives code blocks its own background.
        var lines = (theme + alerts).map { "  --np-\($0.0): \($0.1.hex);" }
        guard let code else { return lines.joined(separator: "\n") }
        let block = [("code-block-background", code.background ?? c.codeBackground)]
        let roles = CodeRole.allCases.compactMap { r in code.styles[r].map { ("tok-" + r.kebabName, $0.color) } }
        lines += (block + roles).map { "  --np-\($0.0): \($0.1.hex);" }
        for r in CodeRole.allCases where r != .plain {
            guard let s = code.styles[r] else { continue }
            lines.append("  --np-tok-\(r.kebabName)-style: \(s.italic ? "italic" : "normal"); --np-tok-\(r.kebabName)-weight: \(s.bold ? "bold" : "normal");")
        }
        return lines.joined(separator: "\n")
    }

    /// The rules of highlighted code: the block's background (a library theme's, or the code
    /// background) and one class per role (``CodeRole/cssClass``), coloured, bold and italic
    /// through the appearance's properties (``colorProperties(_:dark:code:)``).
    var codeRules: String {
        "pre:has(> code > span[class^=\"tok-\"]) { background: var(--np-code-block-background); color: var(--np-tok-plain, inherit); }\n"
        + CodeRole.allCases.filter { $0 != .plain }.map { r in
            ".\(r.cssClass) { color: var(--np-\(r.cssClass), inherit); font-style: var(--np-\(r.cssClass)-style, normal); font-weight: var(--np-\(r.cssClass)-weight, inherit); }"
        }.joined(separator: "\n")
    }

    /// Whether code blocks need a border to be seen: their background is too close to the page's
    /// (contrast below 1.1:1, as in the high-contrast theme's white-on-white), in either appearance.
    var codeNeedsBorder: Bool {
        let t = theme.theme
        return Contrast.ratio(t.light.codeBackground, t.light.background) < 1.1
            || Contrast.ratio(t.dark.codeBackground, t.dark.background) < 1.1
    }

    /// The whole stylesheet, ending with a newline. Deterministic.
    ///
    /// Besides the theme's typography it lays out what every script and every screen needs:
    /// - direction: blocks carry `dir="auto"` (``HTMLOptions/directionAuto``); paragraphs and list
    ///   items are `unicode-bidi: plaintext`, so each line of a note (each `<br>`-separated line)
    ///   takes the direction and alignment of its own first strong character (CSS Writing Modes
    ///   Level 3 §2.2); an item whose direction is not its list's draws its marker inside (at its
    ///   own start), where there is room, and an ordered list's start padding grows with its
    ///   numbers' digits (``HTMLOptions/numberWidths``);
    /// - phone widths: tables scroll in their own box (`display: block; overflow-x: auto`), long
    ///   words and inline code wrap (`overflow-wrap: anywhere`), the date badge takes at most 40 %
    ///   of the column (container query units) and its text shrinks with it;
    /// - footnote references do not push lines apart (`sup { line-height: 0 }`), task items show a
    ///   checkbox, not a bullet, in the marker's place;
    /// - `~script~`: the theme's script faces, then an italic serif as a visible fallback (no
    ///   `cursive` generic, which browsers map to an upright face when no script face is
    ///   installed), `font-synthesis: none` (no slanted script face); the script faces' small
    ///   x-height (Z003 0.40 em against the body faces' 0.52) is made up by an `@font-face`
    ///   "Notepress Script" over the same faces with `size-adjust: 130%` for Latin text only
    ///   (`unicode-range`). `font-size-adjust` on the span would do it per face, but it also
    ///   scales the fallback faces of Hebrew or Arabic script text (Chromium: half again as
    ///   large as the body); a `size-adjust` face restricted to Latin leaves them alone;
    /// - letterpress: a highlight below and a shadow above of at least one CSS pixel, with the text
    ///   a little lighter, in both appearances;
    /// - GitHub alerts: a coloured bar and title per kind (``AlertPalette``).
    package func css() -> String {
        let t = theme.theme
        let boldMarker = theme.boldText ? FontWeight.bold.steppedUp.cssValue : FontWeight.bold.cssValue
        var out = rootRules()
        let code = theme.style(for: .code)
        let codeFamily = Self.fontFamily(t.codeFont, design: .monospaced)
        let scriptFamily = Self.fontFamily(t.scriptFont, design: .default, generic: .serif)
        let scriptSources = Self.localSources(t.scriptFont)
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
        let codeBorder = codeNeedsBorder ? " border: 1px solid var(--np-secondary);" : ""
        out += """
        .note, .index { max-width: calc(var(--np-body-size) * 40); margin: 0 auto; padding: 0.5rem 1.25rem 3rem; }
        .note { container-type: inline-size; overflow-wrap: break-word; }
        ol, ul { padding-inline-start: 2em; }
        ol { padding-inline-start: calc(var(--np-digits, 2) * 1ch + 1.25em); }
        :is(ol, ul):dir(ltr) > li:dir(rtl), :is(ol, ul):dir(rtl) > li:dir(ltr) { list-style-position: inside; }
        .footnotes li::marker { font-size: inherit; line-height: inherit; }
        .note::after { content: ""; display: block; clear: both; }
        h1 { \(roleDeclarations(.heading1)) }
        h2 { \(roleDeclarations(.heading2)) }
        h3 { \(roleDeclarations(.heading3)) }
        h4 { \(roleDeclarations(.heading4)) }
        h5 { \(roleDeclarations(.heading5)) }
        h6 { \(roleDeclarations(.heading6)) }
        h1, h2, h3, h4, h5, h6 { margin: 1.25em 0 0.5em; }
        p, ul, ol, dl, table, pre, blockquote, .markdown-alert { margin: 0 0 0.75em; }
        p { \(roleDeclarations(.body)) }
        p, li { unicode-bidi: plaintext; }
        a { color: var(--np-link); }
        blockquote { \(roleDeclarations(.blockQuote)) margin-inline: 0; padding-inline-start: 1em; border-inline-start: 0.25em solid var(--np-secondary); }
        pre { \(roleDeclarations(.code)) font-family: \(codeFamily); background: var(--np-code-background); padding: 0.75em 1em; border-radius: 0.5em; overflow-x: auto;\(codeBorder) }
        code, kbd, samp { font-family: \(codeFamily); font-weight: \(code.weight.cssValue); }
        :not(pre) > code { font-size: 0.875em; background: var(--np-code-background); padding: 0.1em 0.3em; border-radius: 0.3em; overflow-wrap: anywhere;\(codeBorder) }
        pre code { font-size: inherit; line-height: inherit; background: none; padding: 0; border: none; }\(self.code ? "\n" + codeRules : "")
        li::marker { \(roleDeclarations(.listMarker)) }
        ol > li::marker { font-weight: \(boldMarker); font-variant-numeric: tabular-nums; }
        li:has(> input[type="checkbox"]:first-child), li:has(> p:first-child > input[type="checkbox"]:first-child) { list-style-type: none; }
        li > input[type="checkbox"]:first-child, li > p:first-child > input[type="checkbox"]:first-child { margin-inline: -1.5em 0.5em; }
        table { display: block; width: max-content; max-width: 100%; overflow-x: auto; border-collapse: collapse; }
        th { \(roleDeclarations(.tableHeader)) font-weight: \(max(theme.style(for: .tableHeader).weight.cssValue, boldMarker)); }
        td { \(roleDeclarations(.tableCell)) }
        th, td { border: 1px solid var(--np-secondary); padding: 0.3em 0.6em; text-align: start; }
        sup, sub { font-size: 0.75em; line-height: 0; position: relative; vertical-align: baseline; }
        sup { top: -0.5em; }
        sub { bottom: -0.25em; }
        .footnotes { \(roleDeclarations(.footnote)) border-top: 1px solid var(--np-secondary); margin-top: 2em; }
        .footnotes p, .footnotes li { font-size: inherit; line-height: inherit; }
        hr { border: none; border-top: 1px solid var(--np-secondary); margin: 1.5em 0; }
        img { max-width: 100%; height: auto; }
        @font-face { font-family: "Notepress Script"; src: \(scriptSources); size-adjust: 130%; unicode-range: U+0000-024F, U+1E00-1EFF, U+2000-206F, U+20A0-20CF; }
        .script { font-family: "Notepress Script", \(scriptFamily); font-style: italic; font-synthesis: none; }
        .alert { color: var(--np-alert); }
        .marker { color: var(--np-secondary); }
        .tag { color: var(--np-link); text-decoration: none; white-space: nowrap; }
        .letterpress { color: color-mix(in srgb, var(--np-text) 80%, var(--np-letterpress-shadow));
          text-shadow: 0 max(1px, 0.05em) 0 var(--np-letterpress-light), 0 min(-1px, -0.05em) 0 var(--np-letterpress-shadow); }
        .note-title { \(roleDeclarations(.noteTitle)) margin: 0.75em 0 0.5em; }
        .date-badge { \(roleDeclarations(.dateBadge))
          float: right; box-sizing: border-box; width: min(calc(var(--np-\(badge)-line) * 6), 40cqi); aspect-ratio: 1;
          font-size: min(var(--np-\(badge)-size), calc(min(calc(var(--np-\(badge)-line) * 6), 40cqi) / 6 * 0.8));
          line-height: min(var(--np-\(badge)-line), calc(min(calc(var(--np-\(badge)-line) * 6), 40cqi) / 6));
          margin: 0 0 0.75em 0.75em; border: 0.15em solid var(--np-secondary); border-radius: 50%;
          shape-outside: circle(50% at 50% 50%) border-box; shape-margin: 0.75em;
          display: flex; flex-direction: column; align-items: center; justify-content: center; text-align: center;
          color: var(--np-secondary); }
        .date-badge .day { font-size: 1.6em; line-height: 1; font-weight: \(boldMarker); color: var(--np-text); }
        .date-badge .month, .date-badge .year { display: block; }
        .markdown-alert { padding: 0.5em 1em; border-inline-start: 0.25em solid var(--np-alert-color); }
        .markdown-alert > :last-child { margin-bottom: 0; }
        .markdown-alert-title { font-weight: \(boldMarker); color: var(--np-alert-color); margin-bottom: 0.25em; }

        """
        for kind in Alert.Kind.allCases {
            out += ".markdown-alert-\(kind.rawValue) { --np-alert-color: var(--np-alert-\(kind.rawValue)); }\n"
        }
        out += indexRules(boldMarker: boldMarker, headline: headline, caption: caption)
        return out
    }

    /// The end of ``css()``: the size switcher, the notes list of index pages, site navigation,
    /// tags and backlinks. `headline` and `caption`: the custom property names of those styles.
    func indexRules(boldMarker: Int, headline: String, caption: String) -> String {
        """
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
        .site-nav { max-width: calc(var(--np-body-size) * 40); margin: 0 auto; padding: 0.25rem 1.25rem 0; }
        .index-title { margin-right: auto; }
        .index-folder, .index-tags { \(roleDeclarations(.caption)) color: var(--np-secondary); }
        .index-excerpt { flex-basis: 100%; margin: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; color: var(--np-secondary); }
        .note-tags { display: flex; flex-wrap: wrap; gap: 0.5em; margin: 0 0 1em; padding: 0; list-style: none; }
        .backlinks { margin-top: 2em; padding-top: 0.5em; border-top: 1px solid var(--np-code-background); }
        .backlinks-title { \(roleDeclarations(.caption)) color: var(--np-secondary); margin: 0 0 0.5em; text-transform: uppercase; letter-spacing: 0.05em; }
        .backlinks ul { margin: 0; padding-left: 1.25em; }
        @media print { .size-switcher { display: none; } }

        """
    }

    /// The start of ``css()``: the comment naming theme and size category, the `:root` custom
    /// properties (colours of both appearances, fonts, sizes) and each size category's sizes.
    func rootRules() -> String {
        let t = theme.theme
        var out = """
        /* Notepress stylesheet: theme \(CSSEscape.comment(t.name)), size category \(theme.category.rawValue)\(theme.boldText ? ", Bold Text" : "").
           1 pt = 1 CSS px, written in rem of the browser's 16px default (17 pt = 1.0625rem). */
        :root {
          color-scheme: light dark;
        \(Self.colorProperties(t.light, dark: false, code: self.code ? t.codeLight : nil))
        \(fontProperties())
        \(sizeProperties(theme.category))
        }
        @media (prefers-color-scheme: dark) {
          :root {
          \(Self.colorProperties(t.dark, dark: true, code: self.code ? t.codeDark : nil).replacingOccurrences(of: "\n", with: "\n  "))
          }
        }

        """
        for c in SizeCategory.allCases {
            out += "html[data-size-category=\"\(c.rawValue)\"], :root:has(#size-\(c.alias):checked) {\n\(sizeProperties(c))\n}\n"
        }
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
