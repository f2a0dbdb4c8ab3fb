import Foundation
import NotepressAST
import NotepressThemes

/// The book's stylesheet: the HTML page's rules (``NotepressHTML/Stylesheet``) as e-readers can use
/// them. Reading systems let the reader choose the face, size, margins and colours of the text,
/// and many (Adobe RMSDK, older Kobo and Kindle conversions) know no custom properties, `:has()`,
/// container units or `color-mix()`; so the theme's values are written out literally, sizes in
/// `em` of the body size (the reader's size setting scales them all), the text and page colours
/// and the text face are left to the reading system, and the page's chrome (size switcher, date
/// badge, site navigation, dark-mode media queries) is left out. What stays: the theme's relative
/// sizes and weights of headings, code, tables and footnotes; code blocks with the theme's
/// highlighting colours (``CodePalette``); callouts with their colour bars and titles
/// (``AlertPalette``); block quotes, tables, task lists, math shown as TeX.
struct EPUBStylesheet {
    let theme: ResolvedTheme

    /// `points` of a style in `em` of the body style (three decimals at most).
    func em(_ points: Double) -> String {
        let body = theme.style(for: .body).size
        let v = (points / (body > 0 ? body : 17) * 1000).rounded() / 1000
        var s = String(v)
        if s.hasSuffix(".0") { s.removeLast(2) }
        return s + "em"
    }

    /// Size, line height and weight of the theme role `role`.
    func role(_ role: ThemeRole) -> String {
        let s = theme.style(for: role)
        return "font-size: \(em(s.size)); line-height: \(em(s.lineHeight)); font-weight: \(s.weight.cssValue);"
    }

    /// The stylesheet, ending with a newline. Deterministic.
    func css() -> String {
        let t = theme.theme
        let c = t.light
        let codeBackground = (t.codeLight.background ?? c.codeBackground).hex
        var out = """
        @charset "UTF-8";
        /* Notepress EPUB stylesheet: theme \(Self.comment(t.name)), size category \(theme.category.rawValue). */
        body { margin: 0; padding: 0; }
        .note { overflow-wrap: break-word; }
        h1 { \(role(.heading1)) }
        h2 { \(role(.heading2)) }
        h3 { \(role(.heading3)) }
        h4 { \(role(.heading4)) }
        h5 { \(role(.heading5)) }
        h6 { \(role(.heading6)) }
        h1, h2, h3, h4, h5, h6 { margin: 1.25em 0 0.5em; page-break-after: avoid; break-after: avoid; }
        .note-title { \(role(.noteTitle)) font-size: \(em(theme.style(for: .heading1).size)); margin: 0.75em 0 0.5em; }
        p, ul, ol, dl, table, pre, blockquote, .markdown-alert { margin: 0 0 0.75em; }
        a { color: \(c.link.hex); }
        blockquote { margin-left: 0; margin-right: 0; padding-left: 1em; border-left: 0.25em solid \(c.secondary.hex); }
        pre { \(role(.code)) font-family: monospace; background-color: \(codeBackground); padding: 0.75em 1em; white-space: pre-wrap; page-break-inside: avoid; }
        code, kbd, samp { font-family: monospace; }
        pre code { font-size: 1em; background: none; padding: 0; }
        code.math { font-style: italic; }
        math[display="block"] { display: block; margin: 0.5em 0; }
        table { border-collapse: collapse; margin-bottom: 0.75em; }
        th { \(role(.tableHeader)) font-weight: bold; }
        td { \(role(.tableCell)) }
        th, td { border: 1px solid \(c.secondary.hex); padding: 0.3em 0.6em; }
        sup, sub { font-size: 0.75em; line-height: 0; }
        .footnotes { \(role(.footnote)) border-top: 1px solid \(c.secondary.hex); margin-top: 2em; }
        .footnotes p, .footnotes li { font-size: 1em; }
        hr { border: none; border-top: 1px solid \(c.secondary.hex); margin: 1.5em 0; }
        img { max-width: 100%; height: auto; }
        li > input[type="checkbox"] { margin: 0 0.5em 0 0; }
        .script { font-style: italic; }
        .alert { color: \(c.alert.hex); }
        .marker { color: \(c.secondary.hex); }
        .tag { color: \(c.link.hex); }
        .markdown-alert { padding: 0.5em 1em; border-left: 0.25em solid \(c.secondary.hex); page-break-inside: avoid; }
        .markdown-alert-title { font-weight: bold; margin-bottom: 0.25em; }

        """
        for kind in Alert.Kind.allCases {
            let color = AlertPalette.color(kind).hex
            out += ".markdown-alert-\(kind.rawValue) { border-left-color: \(color); }\n"
            out += ".markdown-alert-\(kind.rawValue) .markdown-alert-title { color: \(color); }\n"
        }
        for r in CodeRole.allCases where r != .plain {
            guard let s = t.codeLight.styles[r] else { continue }
            out += ".\(r.cssClass) { color: \(s.color.hex);\(s.italic ? " font-style: italic;" : "")\(s.bold ? " font-weight: bold;" : "") }\n"
        }
        return out
    }

    /// `s` safe inside a CSS comment.
    static func comment(_ s: String) -> String { s.replacingOccurrences(of: "*/", with: "* /") }
}
