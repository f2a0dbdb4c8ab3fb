import Foundation
import NotepressResources
import NotepressThemes

/// The one stylesheet of a folder run's site (`_notepress/notepress.css`), linked from every page
/// instead of each page carrying it: the theme's stylesheet (``Stylesheet``), the colour-scheme
/// choice of the site's toggle (`html[data-theme="light"|"dark"]`, set by the site script, over
/// the automatic `prefers-color-scheme` default), highlighted code's rules and the site chrome's rules
/// (`Templates/html/site.css`, which a data folder may override).
package enum SiteStylesheet {
    /// The stylesheet's text for `theme`, with `templates`' `html/site.css` appended (the theme's
    /// part from `stylesheets`, the run's).
    /// - Throws: ``TemplateError`` when `html/site.css` is missing or not UTF-8.
    package static func css(theme: ResolvedTheme, templates: TemplateStore,
                            stylesheets: StylesheetCache = StylesheetCache()) throws -> String {
        let t = theme.theme
        // Highlighted code's rules always: one stylesheet serves every page of the site.
        var out = stylesheets.css(for: theme, code: true)
        out += ":root[data-theme=\"light\"] {\n  color-scheme: light;\n" + Stylesheet.colorProperties(t.light, dark: false, code: t.codeLight) + "\n}\n"
        out += ":root[data-theme=\"dark\"] {\n  color-scheme: dark;\n" + Stylesheet.colorProperties(t.dark, dark: true, code: t.codeDark) + "\n}\n"
        out += try templates.text("html/site.css")
        return out
    }
}
