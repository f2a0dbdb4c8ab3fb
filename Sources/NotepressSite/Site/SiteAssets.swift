import Foundation
import Notepress
import NotepressAST
import NotepressHTML
import NotepressResources

/// The shared files of a folder run's site, below the HTML root: the one stylesheet and script
/// every page links (relative paths), lunr.js (copied from the system's `libjs-lunr` at build
/// time, never shipped with Notepress), the search index (``SiteSearch``), the link previews'
/// data (``SitePreviews``), the search page, and
/// with `--base-url` the sitemap and Atom feed (``SiteFeeds``), and a `404.html` when the input
/// has none.
package enum SiteAssets {
    /// The folder of the generated files.
    package static let folder = "_notepress"
    /// The shared stylesheet (``SiteStylesheet``).
    package static let stylesheetPath = "_notepress/notepress.css"
    /// The shared script (`Templates/html/site.js`).
    package static let scriptPath = "_notepress/notepress.js"
    /// lunr.js, copied.
    package static let lunrPath = "_notepress/lunr.js"
    /// The search results page (`search.html?q=WORDS`).
    package static let searchPage = "search.html"
    /// Where lunr.js is read from (Debian's `libjs-lunr`); `NOTEPRESS_LUNR` names another file.
    package static var lunrSource: String {
        ProcessInfo.processInfo.environment["NOTEPRESS_LUNR"] ?? "/usr/share/javascript/lunr/lunr.min.js"
    }

    /// lunr's version as its file declares it (`lunr.version = "2.3.9"`), and the file; `nil`
    /// when the file cannot be read.
    static func lunr() -> (version: String, bytes: [UInt8])? {
        guard let data = FileManager.default.contents(atPath: lunrSource) else { return nil }
        let bytes = [UInt8](data)
        let text = String(decoding: bytes, as: UTF8.self)
        var version = "2.3.9"
        if let r = text.range(of: "version=\""), let end = text[r.upperBound...].firstIndex(of: "\"") {
            version = String(text[r.upperBound..<end])
        } else if let r = text.range(of: "version = \""), let end = text[r.upperBound...].firstIndex(of: "\"") {
            version = String(text[r.upperBound..<end])
        }
        return (version, bytes)
    }

    /// The optional assets of the site's features that cannot be read, one warning each (the run
    /// still succeeds): lunr.js (``lunrSource``; the site is written without its search index and
    /// the search page says search is unavailable) and, when a page has math, KaTeX
    /// (``HTMLMath/folder``; the formulas stay TeX source, as written).
    package static func missingAssetWarnings(_ table: SiteTable) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        if !FileManager.default.isReadableFile(atPath: lunrSource) {
            warnings.append(Diagnostic(.warning, "lunr.js not found (install libjs-lunr, or name the file with NOTEPRESS_LUNR); "
                                           + "the site is written without search", file: lunrSource))
        }
        if table.records.contains(where: \.math), HTMLMath.script == nil || HTMLMath.stylesheet == nil {
            warnings.append(Diagnostic(.warning, "KaTeX not found (install libjs-katex, or name its folder with NOTEPRESS_KATEX); "
                                           + "math is written as its TeX source", file: HTMLMath.folder))
        }
        return warnings
    }

    /// Every shared file of the site (paths below the HTML root), in a fixed order; `errors`
    /// names what could not be made. A missing lunr.js or KaTeX leaves its files out (and
    /// ``missingAssetWarnings(_:)`` says so): never an error.
    /// `listPages`: the notes list's and tag pages' files, every page of each (for the sitemap).
    static func files(_ table: SiteTable, nav: SiteNavigation, options: ConversionOptions, notesIndex: String,
                      listPages: [String], existing: (String) -> Bool) throws -> (pages: [SitePage], errors: [NotepressError]) {
        var pages: [SitePage] = []
        let errors: [NotepressError] = []
        do {
            let css = try SiteStylesheet.css(theme: options.theme, templates: options.templates, stylesheets: options.stylesheets)
            pages.append(SitePage(path: stylesheetPath, bytes: Array(css.utf8)))
            pages.append(SitePage(path: scriptPath, bytes: Array(try options.templates.text("html/site.js").utf8)))
        } catch {
            throw NotepressError.pageTemplate(file: nil, message: "\(error)")
        }
        // KaTeX for the pages with math (``HTMLMath``), copied from libjs-katex when installed.
        if table.records.contains(where: \.math), let script = HTMLMath.script, let css = HTMLMath.stylesheet {
            pages.append(SitePage(path: HTMLMath.siteFolder + "/katex.min.js", bytes: Array(script.utf8)))
            pages.append(SitePage(path: HTMLMath.siteFolder + "/katex.min.css", bytes: Array(css.utf8)))
            for f in HTMLMath.fonts() {
                pages.append(SitePage(path: HTMLMath.siteFolder + "/fonts/" + f.name, bytes: f.bytes))
            }
            pages.append(SitePage(path: HTMLMath.renderPath, bytes: Array(try options.templates.text("html/math.js").utf8)))
        }
        if let lunr = lunr() {
            pages.append(SitePage(path: lunrPath, bytes: lunr.bytes))
            for f in SiteSearch.files(table, lunrVersion: lunr.version) {
                pages.append(SitePage(path: f.path, bytes: f.bytes))
            }
        }
        // Link previews' data (``SitePreviews``): titles and first paragraphs, loaded on the first hover.
        for f in SitePreviews.files(table) { pages.append(SitePage(path: f.path, bytes: f.bytes)) }
        let lists = HTMLIndex(theme: options.theme, templates: options.templates, stylesheets: options.stylesheets)
        func render(_ template: String, title: String, site: [String: MustacheValue]) throws -> [UInt8] {
            do {
                let page = try PageTemplate.builtIn(template, store: options.templates)
                var data = lists.commonValues()
                data["title"] = .string(title)
                for (k, v) in site { data[k] = v }
                data["stylesheet"] = ""
                return try page.renderUTF8(.map(data))
            } catch {
                throw NotepressError.pageTemplate(file: nil, message: "\(error)")
            }
        }
        pages.append(SitePage(path: searchPage, bytes: try render("html/search.html", title: "Search",
                                                                  site: nav.values(record: nil, fromFolder: "", notesIndex: notesIndex))))
        if !existing("404.html") {
            var site = nav.values(record: nil, fromFolder: "", notesIndex: notesIndex, root: SitePaths.notFoundRoot(baseURL: options.baseURL))
            // No tree: the page answers for any missing address (a folder without an index page too).
            site["sidebar"] = .list([])
            pages.append(SitePage(path: "404.html", bytes: try render("html/not-found.html", title: "Page not found", site: site)))
        }
        if let base = options.baseURL {
            for f in SiteFeeds.sitemaps(table, baseURL: base, listPages: listPages) { pages.append(SitePage(path: f.path, bytes: f.bytes)) }
            pages.append(SitePage(path: "feed.xml", bytes: SiteFeeds.atom(table, baseURL: base, title: nav.siteTitle, size: options.feedSize)))
        }
        return (pages, errors)
    }
}
