import Foundation
import NotepressAST
import NotepressResources
import NotepressThemes

/// A standalone HTML5 page around a body fragment: the template `html/page.html` filled with the
/// title, the generated ``Stylesheet``, the size-category switcher, the letterpressed note title
/// and the date badge.
///
/// Template placeholders: `{{name}}` inserts the value HTML-escaped (``HTMLEscape/text(_:)``);
/// `{{{name}}}` inserts it raw (used only for generated markup and CSS: `body`, `stylesheet`,
/// `sizeSwitcher`, `dateBadge`). Values: `lang`, `dir`, `title`, `category`, `theme`, `generator`.
public struct HTMLPage: Sendable {
    public var theme: ResolvedTheme
    public var templates: TemplateStore

    public init(theme: ResolvedTheme, templates: TemplateStore) {
        self.theme = theme
        self.templates = templates
    }

    /// The page for `document` whose body content is `body` (HTML, inserted as is). UTF-8 text.
    /// The title is the document's title, else `Untitled`; the language (`lang`) the front-matter
    /// field `lang` when it is a well-formed tag (``DocumentMetadata/language``), else `en`; the
    /// page direction (`dir`) ``DocumentMetadata/direction`` (front matter `dir`, else the
    /// language's script, else `ltr`; every block also has `dir="auto"`); the badge shows
    /// `metadata.created` (no badge without one).
    /// - Throws: ``TemplateError`` when the template is missing, ``HTMLTemplateError`` when it
    ///   names an unknown placeholder.
    public func render(document: Document, body: String) throws -> String {
        let template = try templates.text("html/page.html")
        let meta = document.metadata
        let title = meta.title ?? "Untitled"
        let badge = meta.created.map { DateBadge.markup($0) } ?? ""
        return try HTMLTemplate.fill(
            template,
            values: ["lang": meta.language ?? "en", "dir": meta.direction.rawValue, "title": title,
                     "category": theme.category.rawValue,
                     "theme": theme.theme.name, "generator": "Notepress"],
            raw: ["stylesheet": StylesheetCache.shared.css(for: theme), "sizeSwitcher": SizeSwitcher.markup(selected: theme.category),
                  "dateBadge": badge, "body": body],
            templateName: "html/page.html")
    }
}

/// Generated stylesheets by theme, so a folder of pages generates each one once.
final class StylesheetCache: @unchecked Sendable {
    static let shared = StylesheetCache()
    private let lock = NSLock()
    private var entries: [(ResolvedTheme, String)] = []

    func css(for theme: ResolvedTheme) -> String {
        lock.lock()
        if let hit = entries.first(where: { $0.0 == theme }) { lock.unlock(); return hit.1 }
        lock.unlock()
        let css = Stylesheet(theme: theme).css()
        lock.lock()
        if entries.count < 16 { entries.append((theme, css)) }
        lock.unlock()
        return css
    }
}

/// An unknown placeholder in a page template.
public struct HTMLTemplateError: Error, Sendable, Equatable, CustomStringConvertible {
    public var template: String
    public var placeholder: String
    public var description: String {
        "\(template): unknown placeholder '\(placeholder)'; expected one of lang, dir, title, category, theme, generator, "
            + "stylesheet, sizeSwitcher, dateBadge, body (index.html: entries)"
    }
}

/// The tiny `{{name}}` / `{{{name}}}` substitution of the page templates.
enum HTMLTemplate {
    /// Replaces `{{{name}}}` with `raw[name]` and `{{name}}` (spaces inside the braces allowed)
    /// with `HTMLEscape.text(values[name])`. Inserted text is not scanned again.
    static func fill(_ template: String, values: [String: String], raw: [String: String], templateName: String) throws -> String {
        var out = ""
        var rest = Substring(template)
        while let open = rest.range(of: "{{") {
            out += rest[..<open.lowerBound]
            let isRaw = rest[open.upperBound...].hasPrefix("{")
            let nameStart = isRaw ? rest.index(after: open.upperBound) : open.upperBound
            let closer = isRaw ? "}}}" : "}}"
            guard let close = rest[nameStart...].range(of: closer) else {
                out += rest[open.lowerBound...]
                return out
            }
            let name = rest[nameStart..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            if isRaw, let v = raw[name] {
                out += v
            } else if !isRaw, let v = values[name] {
                out += HTMLEscape.text(v)
            } else {
                throw HTMLTemplateError(template: templateName, placeholder: name)
            }
            rest = rest[close.upperBound...]
        }
        out += rest
        return out
    }
}

/// The created-date badge of a note page. Dates come from ``CivilDateTime`` (UTC, proleptic
/// Gregorian), the one date path of every writer.
public enum DateBadge {
    static let months = CivilDateTime.monthAbbreviations

    /// The date's day, month (1–12) and year, and `HH:MM:SS`, in UTC (instant rounded to the
    /// millisecond, see ``CivilDateTime/init(_:)``).
    static func parts(_ date: Date) -> (day: Int, month: Int, year: Int, time: String) {
        let c = CivilDateTime(date)
        var whole = c
        whole.millisecond = 0
        return (c.day, c.month, c.year, String(whole.isoTime))
    }

    /// `29 Nov 2026`: deterministic, UTC, English month abbreviations.
    public static func format(_ date: Date) -> String {
        let c = CivilDateTime(date)
        return "\(c.day) \(months[c.month - 1]) \(c.year)"
    }

    /// The `datetime` attribute value: a valid global date and time string in UTC,
    /// `2026-11-29T14:17:10Z`, with milliseconds when there are any (HTML Living Standard §2.3.5.7;
    /// ``CivilDateTime/iso8601``).
    public static func machineReadable(_ date: Date) -> String { CivilDateTime(date).iso8601 }

    /// `<time class="date-badge" datetime="…"><span class="day">29</span> <span class="month">Nov</span>
    /// <span class="year">2026</span></time>`; its text content is ``format(_:)``.
    public static func markup(_ date: Date) -> String {
        let c = CivilDateTime(date)
        return "<time class=\"date-badge\" datetime=\"\(HTMLEscape.attribute(c.iso8601))\">"
            + "<span class=\"day\">\(c.day)</span> <span class=\"month\">\(months[c.month - 1])</span> "
            + "<span class=\"year\">\(c.year)</span></time>"
    }
}

/// The no-JavaScript size-category switcher: one radio input per ``SizeCategory`` (id
/// `size-ALIAS`) with its label; the stylesheet's `:root:has(#size-ALIAS:checked)` rules apply the
/// checked category's sizes.
enum SizeSwitcher {
    static func markup(selected: SizeCategory) -> String {
        var out = "<nav class=\"size-switcher\" aria-label=\"Text size\"><span class=\"size-legend\" aria-hidden=\"true\">Text size</span>\n"
        for c in SizeCategory.allCases {
            let id = "size-" + c.alias
            out += "<input type=\"radio\" name=\"size-category\" id=\"\(id)\" value=\"\(c.rawValue)\""
                + (c == selected ? " checked" : "") + ">"
                + "<label for=\"\(id)\" title=\"\(c.rawValue)\">\(c.alias.uppercased())</label>\n"
        }
        return out + "</nav>"
    }
}
