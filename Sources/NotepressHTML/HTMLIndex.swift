import Foundation
import NotepressAST
import NotepressResources
import NotepressThemes

/// `index.html` of a folder conversion: the template `html/index.html` filled with the notes list.
///
/// Entries are sorted newest first (notes without a date last), ties by title (code-point order),
/// then by `href`. Each row is `<li class="index-entry">` with the title as a link in the
/// noteTitle role's style with letterpress (`<a class="index-title text-headline letterpress">`)
/// and the date in the caption role's style (`<time class="index-date" datetime="…">29 Nov 2026</time>`).
/// A row is at least two noteTitle line heights tall at the page's category (the stylesheet's
/// `.index-entry` rule), so row height follows the category.
package struct HTMLIndex: Sendable {
    package var theme: ResolvedTheme
    package var templates: TemplateStore
    /// The page title and heading.
    package var title: String
    /// The `lang` attribute.
    package var language: String

    package init(theme: ResolvedTheme, templates: TemplateStore, title: String = "Notes", language: String = "en") {
        self.theme = theme
        self.templates = templates
        self.title = title
        self.language = language
    }

    /// The entries in index order.
    package static func sorted(_ entries: [(title: String, created: Date?, href: String)]) -> [(title: String, created: Date?, href: String)] {
        // Indices are sorted by a date array, so the common comparison (two dates) copies no
        // strings; UTF-8 byte order is code-point order.
        let dates = entries.map { $0.created?.timeIntervalSince1970 }
        let order = entries.indices.sorted { i, j in
            switch (dates[i], dates[j]) {
            case let (x?, y?) where x != y: return x > y
            case (_?, nil): return true
            case (nil, _?): return false
            default:
                let a = entries[i], b = entries[j]
                if a.title != b.title { return a.title.utf8.lexicographicallyPrecedes(b.title.utf8) }
                return a.href.utf8.lexicographicallyPrecedes(b.href.utf8)
            }
        }
        return order.map { entries[$0] }
    }

    /// The index page, UTF-8 text. `href`s are relative URLs, escaped with ``HTMLEscape/url(_:)``.
    /// The Mustache template `html/index.html` gets ``PageData/themeValues(_:stylesheet:)``,
    /// `title`, `lang`, `entries` (the rows, raw HTML: `{{{entries}}}`) and `siteNav`: when the
    /// list is not the site's own index page (`notes-index.html` beside the input folder's
    /// `index.html`), `home` is that page's relative URL and `siteNav` a link back to it
    /// (``SiteNavigation/markup(home:)``), else empty.
    /// - Throws: ``TemplateError`` when the template is missing, ``MustacheError`` when it does
    ///   not compile.
    package func render(entries: [(title: String, created: Date?, href: String)], home: String? = nil) throws -> String {
        let template = try PageTemplate.builtIn("html/index.html", store: templates)
        let titleStyle = theme.textStyle(for: .noteTitle).rawValue
        // One byte buffer for all rows (20 000 notes make 20 000 rows).
        var out: [UInt8] = []
        out.reserveCapacity(entries.count * 200)
        let rowStart = Array("<li class=\"index-entry\"><a class=\"index-title text-\(titleStyle) letterpress\" dir=\"auto\" href=\"".utf8)
        for e in Self.sorted(entries) {
            out.append(contentsOf: rowStart)
            out.append(contentsOf: HTMLEscape.url(e.href).utf8)
            out.append(contentsOf: "\">".utf8)
            HTMLEscape.appendText(e.title, to: &out)
            out.append(contentsOf: "</a>".utf8)
            if let d = e.created {
                out.append(contentsOf: " <time class=\"index-date\" datetime=\"".utf8)
                HTMLEscape.appendAttribute(DateBadge.machineReadable(d), to: &out)
                out.append(contentsOf: "\">".utf8)
                HTMLEscape.appendText(DateBadge.format(d), to: &out)
                out.append(contentsOf: "</time>".utf8)
            }
            out.append(contentsOf: "</li>\n".utf8)
        }
        let rows = String(decoding: out, as: UTF8.self)
        var data = PageData.themeValues(theme, stylesheet: Stylesheet(theme: theme).css())
        data["lang"] = .string(language)
        data["title"] = .string(title)
        data["entries"] = .string(rows)
        data["siteNav"] = .string(home.map { SiteNavigation.markup(home: $0) } ?? "")
        return try template.render(.map(data))
    }
}
