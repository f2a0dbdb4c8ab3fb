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
public struct HTMLIndex: Sendable {
    public var theme: ResolvedTheme
    public var templates: TemplateStore
    /// The page title and heading.
    public var title: String
    /// The `lang` attribute.
    public var language: String

    public init(theme: ResolvedTheme, templates: TemplateStore, title: String = "Notes", language: String = "en") {
        self.theme = theme
        self.templates = templates
        self.title = title
        self.language = language
    }

    /// The entries in index order.
    public static func sorted(_ entries: [(title: String, created: Date?, href: String)]) -> [(title: String, created: Date?, href: String)] {
        entries.sorted { a, b in
            switch (a.created, b.created) {
            case let (x?, y?) where x != y: return x > y
            case (_?, nil): return true
            case (nil, _?): return false
            default:
                if a.title != b.title { return a.title.unicodeScalars.lexicographicallyPrecedes(b.title.unicodeScalars) }
                return a.href.unicodeScalars.lexicographicallyPrecedes(b.href.unicodeScalars)
            }
        }
    }

    /// The index page, UTF-8 text. `href`s are relative URLs, escaped with ``HTMLEscape/url(_:)``.
    /// - Throws: ``TemplateError`` when the template is missing, ``HTMLTemplateError`` for an
    ///   unknown placeholder.
    public func render(entries: [(title: String, created: Date?, href: String)]) throws -> String {
        let template = try templates.text("html/index.html")
        let titleStyle = theme.textStyle(for: .noteTitle).rawValue
        var rows = ""
        for e in Self.sorted(entries) {
            rows += "<li class=\"index-entry\"><a class=\"index-title text-\(titleStyle) letterpress\" dir=\"auto\" href=\"\(HTMLEscape.url(e.href))\">"
                + HTMLEscape.text(e.title) + "</a>"
            if let d = e.created {
                rows += " <time class=\"index-date\" datetime=\"\(HTMLEscape.attribute(DateBadge.machineReadable(d)))\">"
                    + HTMLEscape.text(DateBadge.format(d)) + "</time>"
            }
            rows += "</li>\n"
        }
        return try HTMLTemplate.fill(
            template,
            values: ["lang": language, "title": title, "category": theme.category.rawValue, "theme": theme.theme.name,
                     "generator": "Notepress"],
            raw: ["stylesheet": Stylesheet(theme: theme).css(), "sizeSwitcher": SizeSwitcher.markup(selected: theme.category),
                  "entries": rows],
            templateName: "html/index.html")
    }
}
