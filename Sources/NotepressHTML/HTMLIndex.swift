import Foundation
import NotepressAST
import NotepressResources
import NotepressThemes

/// One note as the generated lists show it (the notes index, a tag page): every value comes from
/// the site table.
package struct NotesListEntry: Sendable, Equatable {
    /// The page's title.
    package var title: String
    /// The page's date, `nil` without one.
    package var created: Date?
    /// The page's output path from the HTML tree's root (`guide/a.html`), not yet escaped.
    package var href: String
    /// The folder of the input below the input folder (`guide/sub`; empty at the root).
    package var folder: String = ""
    /// The page's tags, each with its tag page's path from the HTML tree's root (`tags/work.html`)
    /// as ``PageLink/href``; empty when the site has no tag pages.
    package var tags: [PageLink] = []
    /// The first paragraph's text (``SiteRecord/excerpt``).
    package var excerpt: String?

    /// An entry (see the properties).
    package init(title: String, created: Date?, href: String, folder: String = "", tags: [PageLink] = [], excerpt: String? = nil) {
        self.title = title
        self.created = created
        self.href = href
        self.folder = folder
        self.tags = tags
        self.excerpt = excerpt
    }
}

/// The generated lists of a folder conversion: the notes index (`html/index.html`) and a tag page
/// (`html/tag.html`), both Mustache templates whose rows are the partial `html/note-entry.html`
/// (each overridable with `--data-dir`).
///
/// Entries are sorted newest first (notes without a date last), ties by title (natural order, ``NaturalOrder``: numbers as numbers, case ignored),
/// then by `href`. The built-in row is `<li class="index-entry">` with the title as a link in the
/// noteTitle role's style with letterpress (`<a class="index-title text-headline letterpress">`),
/// the date in the caption role's style (`<time class="index-date" datetime="…">29 Nov 2026</time>`),
/// the folder (`<span class="index-folder">`), the tags as links to their pages
/// (`<span class="index-tags"><a class="tag" href="…">#work</a></span>`) and the excerpt, shown on
/// one line (`<p class="index-excerpt">`, cut with an ellipsis by the stylesheet). A row is at
/// least two noteTitle line heights tall at the page's category (the stylesheet's `.index-entry`
/// rule), so row height follows the category.
package struct HTMLIndex: Sendable {
    package var theme: ResolvedTheme
    package var templates: TemplateStore
    /// The page title and heading.
    package var title: String
    /// The `lang` attribute.
    package var language: String
    /// The stylesheets generated so far (the run's, shared with its pages: ``StylesheetCache``).
    package var stylesheets: StylesheetCache

    /// Lists with `theme` and the templates of `templates`, titled `title`.
    package init(theme: ResolvedTheme, templates: TemplateStore, title: String = "Notes", language: String = "en",
                 stylesheets: StylesheetCache = StylesheetCache()) {
        self.theme = theme
        self.templates = templates
        self.title = title
        self.language = language
        self.stylesheets = stylesheets
    }

    /// The entries in index order.
    package static func sorted(_ entries: [(title: String, created: Date?, href: String)]) -> [(title: String, created: Date?, href: String)] {
        sorted(entries.map { NotesListEntry(title: $0.title, created: $0.created, href: $0.href) }).map { ($0.title, $0.created, $0.href) }
    }

    /// The entries in index order (see the type).
    package static func sorted(_ entries: [NotesListEntry]) -> [NotesListEntry] {
        order(entries).map { entries[$0] }
    }

    /// The indices of `entries` in index order (see the type): a total order, so any subset taken
    /// in this order is in index order too (a tag page's notes).
    package static func order(_ entries: [NotesListEntry]) -> [Int] {
        // Indices are sorted by a date array, so the common comparison (two dates) copies no
        // strings; UTF-8 byte order is code-point order.
        let dates = entries.map { $0.created?.timeIntervalSince1970 }
        // Title keys (``NaturalOrder``) made once, on the first tie that needs them.
        var keys = [NaturalOrder.Key?](repeating: nil, count: entries.count)
        func key(_ i: Int) -> NaturalOrder.Key {
            if let k = keys[i] { return k }
            let k = NaturalOrder.key(entries[i].title)
            keys[i] = k
            return k
        }
        let order = entries.indices.sorted { i, j in
            switch (dates[i], dates[j]) {
            case let (x?, y?) where x != y: return x > y
            case (_?, nil): return true
            case (nil, _?): return false
            default:
                let a = entries[i], b = entries[j]
                if a.title != b.title, case let (x, y) = (key(i), key(j)), x != y { return x < y }
                return a.href.utf8.lexicographicallyPrecedes(b.href.utf8)
            }
        }
        return order
    }

    /// The index page, UTF-8 text (title, date and link only: ``render(notes:home:)`` with those).
    package func render(entries: [(title: String, created: Date?, href: String)], home: String? = nil) throws -> String {
        try render(notes: entries.map { NotesListEntry(title: $0.title, created: $0.created, href: $0.href) }, home: home)
    }

    /// The notes index page, UTF-8 text. The Mustache template `html/index.html` gets
    /// ``PageData/themeValues(_:stylesheet:)``, `title`, `lang`, `notes` (``entryData(_:prefix:)``,
    /// one map per entry in index order, for `{{#notes}}{{> note-entry}}{{/notes}}`) and `siteNav`:
    /// when the list is not the site's own index page (`notes-index.html` beside the input
    /// folder's `index.html`), `home` is that page's relative URL and `siteNav` a link back to it
    /// (``SiteNavigation/markup(home:)``), else empty.
    /// - Throws: ``TemplateError`` when the template is missing, ``MustacheError`` when it does
    ///   not compile.
    package func render(notes: [NotesListEntry], home: String? = nil) throws -> String {
        try render(sortedNotes: Self.sorted(notes).map { entryData($0, prefix: "") }, home: home)
    }

    /// ``render(notes:home:)`` with the entries already in index order and made template data
    /// (``entryData(_:prefix:)`` with prefix `""`).
    /// `site`: a folder run's site chrome (``DocumentMetadata/site``); `listPages`: the links to
    /// the list's other pages (maps of `number`, `href`, `current`), empty for one page.
    package func render(sortedNotes: [MustacheValue], home: String? = nil, site: [String: MustacheValue] = [:],
                        listPages: [MustacheValue] = []) throws -> String {
        let template = try PageTemplate.builtIn("html/index.html", store: templates)
        var data = common()
        data["title"] = .string(title)
        data["notes"] = .list(sortedNotes)
        data["siteNav"] = .string(home.map { SiteNavigation.markup(home: $0) } ?? "")
        Self.addSite(site, listPages: listPages, to: &data)
        return try template.render(.map(data))
    }

    /// A tag page (`tags/PATH.html`), UTF-8 text. The Mustache template `html/tag.html` gets what
    /// ``render(notes:home:)`` gives the index, with `title` the tag names (`#a b, #a-b`), `tag`
    /// the first name, `names` all of them, and `siteNav` a link to the notes list. `prefix` is the
    /// way from the tag page to the HTML tree's root (`../`, `../../`), put before every `href`;
    /// `notesIndex` the notes list's path from the root. `template`: `html/tag.html` already
    /// loaded (``PageTemplate/builtIn(_:store:)``; a site with many tags compiles it once).
    /// - Throws: as ``render(notes:home:)``, for `html/tag.html`.
    package func renderTag(names: [String], notes: [NotesListEntry], prefix: String, notesIndex: String,
                           template: PageTemplate? = nil) throws -> String {
        try renderTag(names: names, sortedNotes: Self.sorted(notes).map { entryData($0, prefix: prefix) }, prefix: prefix,
                      notesIndex: notesIndex, template: template)
    }

    /// ``renderTag(names:notes:prefix:notesIndex:template:)`` with the entries already in index
    /// order and made template data (``entryData(_:prefix:)`` with the same `prefix`).
    package func renderTag(names: [String], sortedNotes: [MustacheValue], prefix: String, notesIndex: String,
                           template: PageTemplate? = nil, site: [String: MustacheValue] = [:],
                           listPages: [MustacheValue] = []) throws -> String {
        let template = try template ?? PageTemplate.builtIn("html/tag.html", store: templates)
        var data = common()
        data["title"] = .string(names.map { "#" + $0 }.joined(separator: ", "))
        data["tag"] = .string(names.first ?? "")
        data["names"] = .list(names.map(MustacheValue.string))
        data["notes"] = .list(sortedNotes)
        data["siteNav"] = .string(SiteNavigation.markup(notesIndex: prefix + notesIndex))
        Self.addSite(site, listPages: listPages, to: &data)
        return try template.render(.map(data))
    }

    /// The values both lists share: the theme's, `lang` and `titleStyle` (the noteTitle role's
    /// text style, `headline`).
    /// Adds a site's chrome and the list's page links (`listPages`, `hasListPages`).
    static func addSite(_ site: [String: MustacheValue], listPages: [MustacheValue], to data: inout [String: MustacheValue]) {
        for (k, v) in site { data[k] = v }
        if site["stylesheetHref"] != nil { data["stylesheet"] = "" }
        data["listPages"] = .list(listPages)
        data["hasListPages"] = .bool(!listPages.isEmpty)
    }

    /// The values every generated page gets (theme, stylesheet, language, title style).
    package func commonValues() -> [String: MustacheValue] { common() }

    func common() -> [String: MustacheValue] {
        var data = PageData.themeValues(theme, stylesheet: stylesheets.css(for: theme, code: false))
        data["lang"] = .string(language)
        data["titleStyle"] = .string(theme.textStyle(for: .noteTitle).rawValue)
        return data
    }

    /// One entry as template data: `title`, `href` (``HTMLEscape/url(_:)`` of `prefix` + the
    /// entry's path: for `{{{href}}}`), `date` (`29 Nov 2026`) and `datetime` (ISO 8601) when
    /// dated, `folder` (empty at the root), `tags` (maps of `name` and `href`, escaped as `href`),
    /// `hasTags`, `excerpt`, `titleStyle`.
    package func entryData(_ e: NotesListEntry, prefix: String) -> MustacheValue {
        var m: [String: MustacheValue] = ["title": .string(e.title), "href": .string(HTMLEscape.url(prefix + e.href))]
        m.reserveCapacity(10)
        if let d = e.created {
            let texts = DateBadge.texts(d)
            m["date"] = .string(texts.shown)
            m["datetime"] = .string(texts.machineReadable)
        }
        m["folder"] = .string(e.folder)
        m["tags"] = .list(e.tags.map { .map(["name": .string($0.text), "href": .string(HTMLEscape.url(prefix + $0.href))]) })
        m["hasTags"] = .bool(!e.tags.isEmpty)
        m["excerpt"] = e.excerpt.map(MustacheValue.string) ?? .null
        return .map(m)
    }

    /// ``entryData(_:prefix:)`` of `e` made from `data`, the same entry's data with another
    /// prefix: only the links (`href` and the tags' `href`) depend on the prefix, so the date is
    /// not formatted again for each folder depth of the lists showing the entry.
    package func entryData(_ e: NotesListEntry, prefix: String, reusing data: MustacheValue) -> MustacheValue {
        guard case .map(var m) = data else { return entryData(e, prefix: prefix) }
        m["href"] = .string(HTMLEscape.url(prefix + e.href))
        m["tags"] = .list(e.tags.map { .map(["name": .string($0.text), "href": .string(HTMLEscape.url(prefix + $0.href))]) })
        return .map(m)
    }
}
