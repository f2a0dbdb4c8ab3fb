import Foundation
import NotepressAST
import NotepressResources
import NotepressThemes

/// A standalone HTML5 page around a body fragment: the Mustache page template
/// (`html/page.html`, or ``template`` from `--template FILE`) rendered with ``PageData``: every
/// front-matter field, the title, the generated stylesheet, the size-category switcher, the date
/// badge, the table of contents and the body.
///
/// `{{name}}` inserts a value escaped by ``HTMLEscape/text(_:)``; `{{{name}}}` inserts it raw (the
/// built-in template does so only for generated markup and CSS: `body`, `toc`, `stylesheet`,
/// `sizeSwitcher`, `dateBadge`); `lang` and `dir` come from ``DocumentMetadata/language`` and
/// ``DocumentMetadata/direction``. A name with no value renders as nothing (Mustache's rule, as
/// pandoc's templates do), so a template may name any front-matter field.
package struct HTMLPage: Sendable {
    package var theme: ResolvedTheme
    package var templates: TemplateStore
    /// The page template; `nil` reads `html/page.html` from ``templates`` on each render.
    package var template: PageTemplate?
    /// The stylesheets generated so far: the run's (``ConversionOptions``), so a folder of pages
    /// generates each one once.
    package var stylesheets: StylesheetCache
    /// A folder run's page: the values of the site's chrome for the template (``PageData``'s
    /// layer 4, built by the site engine's `SiteNavigation`: `root`, `stylesheetHref`, `sidebar`,
    /// …); `nil` for a page on its own, which is self-contained.
    package var site: [String: MustacheValue]?

    package init(theme: ResolvedTheme, templates: TemplateStore, template: PageTemplate? = nil,
                 stylesheets: StylesheetCache = StylesheetCache(), site: [String: MustacheValue]? = nil) {
        self.theme = theme
        self.templates = templates
        self.template = template
        self.stylesheets = stylesheets
        self.site = site
    }

    /// The page for `document` whose body content is `body` and table of contents `toc` (both
    /// HTML, inserted as they are; `toc` empty for none). UTF-8 text. Values: ``PageData``.
    /// - Throws: ``TemplateError`` when the built-in template is missing, ``MustacheError`` when
    ///   it does not compile or nests too deep.
    package func render(document: Document, body: String, toc: String = "") throws -> String {
        let bytes = Array(body.utf8)
        let (page, data, capacity) = try prepare(document, body: .string(body), bodySize: body.utf8.count, toc: toc,
                                                 code: Self.hasHighlightedCode(bytes), math: HTMLMath.hasMath(bytes))
        return try page.render(data, capacity: capacity)
    }

    /// ``render(document:body:toc:)`` with the body and the page as UTF-8 bytes (the body, valid
    /// UTF-8 as ``HTMLEmitter`` writes it, goes into the page without becoming a `String`).
    /// - Throws: as ``render(document:body:toc:)``.
    package func renderUTF8(document: Document, body: [UInt8], toc: String = "") throws -> [UInt8] {
        let (page, data, capacity) = try prepare(document, body: .utf8(body), bodySize: body.count, toc: toc,
                                                 code: Self.hasHighlightedCode(body), math: HTMLMath.hasMath(body))
        return try page.renderUTF8(data, capacity: capacity)
    }

    /// The template, the ``PageData`` and an estimate of the page's size in bytes (body, table of
    /// contents, stylesheet and some room; a hint for the output buffer).
    /// `code`: the body has highlighted code, so the stylesheet carries the code palette's rules
    /// (a page without code is the bytes it was before code highlighting).
    private func prepare(_ document: Document, body: MustacheValue, bodySize: Int,
                         toc: String, code: Bool, math: Bool) throws -> (PageTemplate, MustacheValue, Int) {
        let page = try template ?? PageTemplate.builtIn("html/page.html", store: templates)
        let stylesheet = stylesheets.css(for: theme, code: code)
        var generated = PageData.themeValues(theme, stylesheet: stylesheet)
        if math { generated["mathRender"] = .string((try? templates.text("html/math.js")) ?? "") }
        let data = PageData.page(document: document, body: body, toc: toc, generated: generated, site: site)
        return (page, data, bodySize + toc.utf8.count + stylesheet.utf8.count + 4096)
    }
}

extension HTMLPage {
    /// Whether `body` holds a highlighted code token (``HTMLEmitter`` writes `<span class="tok-`
    /// only inside code blocks). One pass over the bytes.
    static func hasHighlightedCode(_ body: [UInt8]) -> Bool {
        contains(Array("<span class=\"tok-".utf8), in: body)
    }

    /// Whether `body` holds the bytes of `marker` (at least 2 bytes). One pass over the bytes.
    static func contains(_ marker: [UInt8], in body: [UInt8]) -> Bool {
        body.withUnsafeBufferPointer { b in
            let n = b.count, m = marker.count, last = marker[m - 1]
            var i = 0
            while i + m <= n {
                if b[i] == marker[0], b[i + m - 1] == last {
                    var k = 1
                    while k < m && b[i + k] == marker[k] { k += 1 }
                    if k == m { return true }
                }
                i += 1
            }
            return false
        }
    }
}

/// Generated stylesheets by theme (and whether they carry the code palette), so a folder of
/// pages generates each one once. One per run, not per process: it lives in the run's options
/// (``HTMLPage/stylesheets``) and goes with them (a `--watch` rebuild makes a new one).
package final class StylesheetCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(ResolvedTheme, Bool, String)] = []

    /// An empty cache.
    package init() {}

    /// The stylesheet of `theme`, with the code palette's rules when `code`.
    func css(for theme: ResolvedTheme, code: Bool) -> String {
        lock.lock()
        if let hit = entries.first(where: { $0.0 == theme && $0.1 == code }) { lock.unlock(); return hit.2 }
        lock.unlock()
        var sheet = Stylesheet(theme: theme)
        sheet.code = code
        let css = sheet.css()
        lock.lock()
        if entries.count < 16 { entries.append((theme, code, css)) }
        lock.unlock()
        return css
    }
}

/// The created-date badge of a note page. Dates come from ``CivilDateTime`` (UTC, proleptic
/// Gregorian), the one date path of every writer.
package enum DateBadge {
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
    package static func format(_ date: Date) -> String {
        texts(date).shown
    }

    /// ``format(_:)`` and ``machineReadable(_:)`` from one calendar conversion (a list of
    /// 20 000 dated notes converts each date once).
    package static func texts(_ date: Date) -> (shown: String, machineReadable: String) {
        let c = CivilDateTime(date)
        return ("\(c.day) \(months[c.month - 1]) \(c.year)", c.iso8601)
    }

    /// The `datetime` attribute value: a valid global date and time string in UTC,
    /// `2026-11-29T14:17:10Z`, with milliseconds when there are any (HTML Living Standard §2.3.5.7;
    /// ``CivilDateTime/iso8601``).
    package static func machineReadable(_ date: Date) -> String { CivilDateTime(date).iso8601 }

    /// `<time class="date-badge" datetime="…"><span class="day">29</span> <span class="month">Nov</span>
    /// <span class="year">2026</span></time>`; its text content is ``format(_:)``.
    package static func markup(_ date: Date) -> String {
        let c = CivilDateTime(date)
        return markup(c, iso8601: c.iso8601)
    }

    /// ``markup(_:)`` of a date already converted, with its ``CivilDateTime/iso8601`` text.
    static func markup(_ c: CivilDateTime, iso8601: String) -> String {
        var s = "<time class=\"date-badge\" datetime=\""
        s.reserveCapacity(160)
        s += HTMLEscape.attribute(iso8601)
        s += "\"><span class=\"day\">"
        s += String(c.day)
        s += "</span> <span class=\"month\">"
        s += months[c.month - 1]
        s += "</span> <span class=\"year\">"
        s += String(c.year)
        s += "</span></time>"
        return s
    }
}

/// The navigation of a page in a folder run (the templates' `{{{siteNav}}}`): a link to the
/// generated notes list (`notes-index.html`, or the site's `index.html` when the input folder has
/// no index page of its own), and on that list a link back to the site's own index page.
package enum SiteNavigation {
    /// `<nav class="site-nav" aria-label="Site"><a href="HREF">All notes</a></nav>`; `href` is a
    /// relative URL (escaped here).
    package static func markup(notesIndex href: String) -> String {
        "<nav class=\"site-nav\" aria-label=\"Site\"><a href=\"" + HTMLEscape.url(href) + "\">All notes</a></nav>"
    }

    /// A link back to the site's own index page from the generated notes list (`Home`).
    package static func markup(home href: String) -> String {
        "<nav class=\"site-nav\" aria-label=\"Site\"><a href=\"" + HTMLEscape.url(href) + "\">Home</a></nav>"
    }
}

/// The no-JavaScript size-category switcher: one radio input per ``SizeCategory`` (id
/// `size-ALIAS`) with its label; the stylesheet's `:root:has(#size-ALIAS:checked)` rules apply the
/// checked category's sizes.
enum SizeSwitcher {
    /// The markup for each selected category, made once per process: it depends on nothing
    /// else, and every page of a folder run writes it.
    private static let made: [SizeCategory: String] =
        Dictionary(uniqueKeysWithValues: SizeCategory.allCases.map { ($0, make(selected: $0)) })

    static func markup(selected: SizeCategory) -> String { made[selected] ?? make(selected: selected) }

    private static func make(selected: SizeCategory) -> String {
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
