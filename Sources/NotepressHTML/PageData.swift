import Foundation
import NotepressAST
import NotepressResources
import NotepressThemes

/// The values a page template is rendered with (the data of ``HTMLPage``; the variables table of
/// `man/notepress.1.md` lists them). Three layers, later ones winning:
///
/// 1. Defaults: `lang` = `en`; `date` = the `created` date as `YYYY-MM-DD` (UTC); `keywords` =
///    the tags joined by `, `.
/// 2. Every front-matter field (``DocumentMetadata/fields`` as text, `true`/`false` as booleans
///    (``MetadataValue/boolean(_:)``); ``DocumentMetadata/collections`` as lists and maps), with
///    `-M key=value` already applied over them (``MetadataOverrides``): pandoc's precedence.
///    `keywords` and `description` given as lists become one text (joined by `, ` and ` `), as a
///    `<meta>` element holds one.
/// 3. Generated, not overridable: `lang` (front matter or `-M` `lang` when it is a well-formed
///    language tag, ``DocumentMetadata/language``, else `en`), `dir` (``DocumentMetadata/direction``:
///    `ltr`/`rtl`), `title` (the document title, `Untitled` without one), `tags`
///    (a list), `created` (ISO 8601, `2026-11-29T14:17:10Z`; absent without a date), `dateBadge`,
///    `body`, `toc`, `stylesheet`, `sizeSwitcher`, `category`, `theme`, `generator` (`Notepress`),
///    `titleInBody` (true when the title is the body's first heading,
///    ``DocumentMetadata/TitleSource/firstHeading``: the built-in page then shows no title heading
///    of its own), `siteNav` (a folder run's navigation, ``SiteNavigation``; empty otherwise),
///    `tagLinks` (a folder run with tag pages: maps of `name` and `href`, the tag page's relative
///    URL escaped for an attribute, for `{{{href}}}`) and `hasTagLinks`, `backlinks` (`--backlinks`:
///    maps of `title` and `href`, the pages linking here) and `hasBacklinks`.
///    The HTML ones (`dateBadge`, `body`, `toc`, `stylesheet`, `sizeSwitcher`, `siteNav`) are meant
///    for `{{{name}}}`; `toc` is empty without `--toc`.
/// 4. A folder run's site chrome (``HTMLPage/site``, made by the site engine's
///    `SiteChrome`): `root` (the relative path to the site root, `../` per level, empty at the
///    root), `stylesheetHref` and `scriptHref` (the shared files; with them `stylesheet` is empty),
///    `siteTitle`, `homeHref`, `searchHref`, `sidebar` (the navigation tree), `breadcrumbs`,
///    `previous` and `next` (maps of `title` and `href`), and `pageContents` (the page's sections
///    beside the text, ``HTMLTableOfContents/pageContents(_:)``; empty below two sections).
package enum PageData {
    /// The values of the theme every page and the index get: `stylesheet` (`stylesheet` given),
    /// `sizeSwitcher`, `category` (the size category's name), `theme` (its name), `generator`.
    package static func themeValues(_ theme: ResolvedTheme, stylesheet: String) -> [String: MustacheValue] {
        ["stylesheet": .string(stylesheet), "sizeSwitcher": .string(SizeSwitcher.markup(selected: theme.category)),
         "category": .string(theme.category.rawValue), "theme": .string(theme.theme.name), "generator": "Notepress"]
    }

    /// The data of a note page (see the type's layers); `generated` adds to layer 3
    /// (``themeValues(_:stylesheet:)``). `body` is text: ``MustacheValue/string(_:)``, or
    /// ``MustacheValue/utf8(_:)`` for a body kept as bytes. `site`: a folder run's chrome of the
    /// page (layer 4), `nil` for a page on its own.
    package static func page(document: Document, body: MustacheValue, toc: String,
                            generated: [String: MustacheValue], site: [String: MustacheValue]? = nil) -> MustacheValue {
        let meta = document.metadata
        var data: [String: MustacheValue] = [:]
        data.reserveCapacity(24 + generated.count + meta.fields.count + meta.collections.count)
        data["lang"] = "en"
        // One calendar conversion and one ISO 8601 text for `date`, `created` and `dateBadge`.
        let civil = meta.created.map { CivilDateTime($0) }
        let iso8601 = civil?.iso8601
        if let civil { data["date"] = .string(civil.isoDate) }
        if !meta.tags.isEmpty { data["keywords"] = .string(meta.tags.joined(separator: ", ")) }

        for (key, text) in meta.fields { data[key] = MetadataValue.boolean(text).map(MustacheValue.bool) ?? .string(text) }
        for (key, value) in meta.collections { data[key] = mustache(value) }
        for (key, separator) in [("keywords", ", "), ("description", " ")] {
            if let v = meta.collections[key], let text = v.joinedText(separator: separator) { data[key] = .string(text) }
        }

        // `lang` only as a well-formed language tag, `dir` from front matter or the language's script.
        data["lang"] = .string(meta.language ?? "en")
        data["dir"] = .string(meta.direction.rawValue)
        data["title"] = .string(meta.title ?? "Untitled")
        data["tags"] = .list(meta.tags.map(MustacheValue.string))
        data["created"] = iso8601.map { .string($0) } ?? .null
        data["dateBadge"] = .string(civil.map { DateBadge.markup($0, iso8601: iso8601 ?? $0.iso8601) } ?? "")
        data["body"] = body
        data["toc"] = .string(toc)
        // The title is the body's own first heading: the page does not show it a second time.
        data["titleInBody"] = .bool(meta.titleSource == .firstHeading)
        data["siteNav"] = .string(meta.notesIndexHref.map { SiteNavigation.markup(notesIndex: $0) } ?? "")
        data["tagLinks"] = .list(meta.tagLinks.map { .map(["name": .string($0.text), "href": .string(HTMLEscape.url($0.href))]) })
        data["hasTagLinks"] = .bool(!meta.tagLinks.isEmpty)
        data["backlinks"] = .list(meta.backlinks.map { .map(["title": .string($0.text), "href": .string(HTMLEscape.url($0.href))]) })
        data["hasBacklinks"] = .bool(!meta.backlinks.isEmpty)
        for (key, value) in generated { data[key] = value }
        // A folder run's page links the site's shared stylesheet instead of carrying it.
        var root: String?
        if let site {
            for (key, value) in site { data[key] = value }
            if site["stylesheetHref"] != nil { data["stylesheet"] = "" }
            if case .string(let r)? = site["root"] { root = r }
            data["pageContents"] = .string(HTMLTableOfContents.pageContents(document))
        }
        // Math (``HTMLMath``): a site page links the site's copy of KaTeX, a single page carries it.
        if generated["mathRender"] != nil, let script = HTMLMath.inlineScript, let css = HTMLMath.stylesheet {
            if let root {
                data["mathStylesheetHref"] = .string(root + HTMLMath.siteFolder + "/katex.min.css")
                data["mathScriptHref"] = .string(root + HTMLMath.siteFolder + "/katex.min.js")
                data["mathRenderHref"] = .string(root + HTMLMath.renderPath)
            } else {
                data["mathInline"] = .bool(true)
                data["mathStyle"] = .string(css)
                data["mathScript"] = .string(script)
            }
        }
        return .map(data)
    }

    /// A front-matter value as template data. Recursion is bounded by
    /// ``FrontMatter``'s collection depth (32).
    package static func mustache(_ v: MetadataValue) -> MustacheValue {
        switch v {
        case .string(let s): return .string(s)
        case .bool(let b): return .bool(b)
        case .list(let items): return .list(items.map(mustache))
        case .map(let m): return .map(m.mapValues(mustache))
        }
    }
}
