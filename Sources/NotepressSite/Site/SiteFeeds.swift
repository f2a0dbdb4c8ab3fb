import Foundation
import Notepress
import NotepressAST
import NotepressHTML

/// The site's files for the web, with `--base-url URL`: `sitemap.xml` (sitemaps.org protocol 0.9:
/// every page, with `lastmod` from its `updated`/`modified` front matter, else its last change
/// (git history, else its file's time: ``SiteRecord/updated``), else its date; past
/// 50 000 URLs or 50 MiB a sitemap index of `sitemap-N.xml` files) and `feed.xml` (Atom, RFC 4287: the newest
/// ``ConversionOptions/feedSize`` pages by date, title and path breaking ties). Made from the
/// site table alone, so shards make the same bytes.
package enum SiteFeeds {
    /// `base` with a `/` at the end.
    static func base(_ url: String) -> String { url.hasSuffix("/") ? url : url + "/" }

    /// The pages (record index, URL path from the root), in table order.
    static func pages(_ table: SiteTable) -> [(Int, String)] {
        table.records.indices.compactMap { i in
            guard table.isListed(i), !SitePaths.isNotFoundPage(table.paths[i]) else { return nil }
            return (i, SitePaths.urlPath((table.stems[i] ?? PathText.deletingExtension(table.paths[i])) + ".html"))
        }
    }

    /// Most URLs in one sitemap file (sitemaps.org protocol 0.9).
    package static let sitemapURLLimit = 50_000
    /// Most bytes of one sitemap file, uncompressed (sitemaps.org: 50 MiB).
    package static let sitemapByteLimit = 52_428_800

    /// The front matter fields that say when a note was last changed, in the order they are
    /// asked (Jekyll's and pages' `updated`/`modified`/`last_modified_at`, Hugo's `lastmod`,
    /// Obsidian's `date modified`, schema.org's `dateModified`).
    static let modifiedFields = ["updated", "modified", "lastmod", "last_modified_at", "date modified", "dateModified"]

    /// When record `r` last changed, as ISO 8601: its front matter's ``modifiedFields`` (read by
    /// ``CivilDateTime/parse(_:)``; a tiddler's `modified` is there in that form), else its last
    /// change (``SiteRecord/updated``: the last commit that touched it, else the file's time), else
    /// its date (``SiteRecord/created``: `created`, else the first commit, else the file's time).
    package static func lastModified(_ r: SiteRecord) -> String? {
        for key in modifiedFields {
            guard let v = r.fields[key] else { continue }
            if let d = CivilDateTime.parse(v) { return CivilDateTime(d).iso8601 }
        }
        return r.updated ?? r.created
    }

    /// The later of two ISO 8601 times (``CivilDateTime/parse(_:)``; the text of the later).
    static func later(_ a: String?, _ b: String?) -> String? {
        guard let a else { return b }
        guard let b, let x = CivilDateTime.parse(a), let y = CivilDateTime.parse(b) else { return a }
        return y > x ? b : a
    }

    /// The sitemap: every page (`lastmod` from ``lastModified(_:)``), then `listPages` (paths
    /// below the root: the notes list and the tag pages, each with its further pages
    /// `x.page2.html`, …, in that order). One `sitemap.xml` while the URLs fit in one file
    /// (`urlLimit` URLs, `byteLimit` bytes); else `sitemap.xml` is a sitemap index of
    /// `sitemap-1.xml`, `sitemap-2.xml`, … (each with the latest `lastmod` of its URLs).
    package static func sitemaps(_ table: SiteTable, baseURL: String, listPages: [String], urlLimit: Int = sitemapURLLimit,
                                 byteLimit: Int = sitemapByteLimit) -> [(path: String, bytes: [UInt8])] {
        let b = base(baseURL)
        var urls = pages(table).map { (b + $0.1, lastModified(table.records[$0.0])) }
        for p in listPages { urls.append((b + SitePaths.urlPath(p), nil)) }
        return sitemaps(urls, baseURL: b, urlLimit: urlLimit, byteLimit: byteLimit)
    }

    /// The sitemap files of `urls` (absolute, with their `lastmod`), in order; `baseURL` ends in
    /// `/` (see ``sitemaps(_:baseURL:listPages:urlLimit:byteLimit:)``).
    package static func sitemaps(_ urls: [(loc: String, lastmod: String?)], baseURL b: String, urlLimit: Int,
                                 byteLimit: Int) -> [(path: String, bytes: [UInt8])] {
        let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        let tail = "</urlset>\n"
        var files: [(text: String, lastmod: String?)] = []
        var out = head, count = 0, bytes = head.utf8.count, latest: String?
        for (loc, date) in urls {
            var entry = "<url><loc>" + HTMLEscape.text(loc) + "</loc>"
            if let d = date { entry += "<lastmod>" + HTMLEscape.text(d) + "</lastmod>" }
            entry += "</url>\n"
            if count > 0, count >= urlLimit || bytes + entry.utf8.count + tail.utf8.count > byteLimit {
                files.append((out + tail, latest))
                out = head; count = 0; bytes = head.utf8.count; latest = nil
            }
            out += entry; count += 1; bytes += entry.utf8.count
            latest = later(latest, date)
        }
        files.append((out + tail, latest))
        if files.count == 1 { return [("sitemap.xml", Array(files[0].text.utf8))] }
        var index = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        var result: [(path: String, bytes: [UInt8])] = []
        for (k, f) in files.enumerated() {
            let name = "sitemap-\(k + 1).xml"
            index += "<sitemap><loc>" + HTMLEscape.text(b + name) + "</loc>"
            if let d = f.lastmod { index += "<lastmod>" + HTMLEscape.text(d) + "</lastmod>" }
            index += "</sitemap>\n"
            result.append((name, Array(f.text.utf8)))
        }
        index += "</sitemapindex>\n"
        return [("sitemap.xml", Array(index.utf8))] + result
    }

    /// `feed.xml`: the newest `size` dated pages.
    package static func atom(_ table: SiteTable, baseURL: String, title: String, size: Int) -> [UInt8] {
        let b = base(baseURL)
        let dated = pages(table).filter { table.records[$0.0].created != nil }.sorted { x, y in
            let a = table.records[x.0], c = table.records[y.0]
            if a.created! != c.created! { return a.created! > c.created! }
            if (a.title ?? "") != (c.title ?? "") { return (a.title ?? "").utf8.lexicographicallyPrecedes((c.title ?? "").utf8) }
            return x.1.utf8.lexicographicallyPrecedes(y.1.utf8)
        }.prefix(max(0, size))
        // The feed changed when its latest entry did (an entry's `updated`: ``lastModified(_:)``).
        let updated = dated.reduce(nil as String?) { later($0, lastModified(table.records[$1.0])) } ?? "1970-01-01T00:00:00Z"
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n"
        out += "<title>" + HTMLEscape.text(title) + "</title>\n"
        out += "<id>" + HTMLEscape.text(b) + "</id>\n"
        out += "<link rel=\"self\" href=\"" + HTMLEscape.text(b + "feed.xml") + "\"/>\n"
        out += "<link rel=\"alternate\" type=\"text/html\" href=\"" + HTMLEscape.text(b) + "\"/>\n"
        out += "<updated>" + updated + "</updated>\n"
        out += "<author><name>" + HTMLEscape.text(title) + "</name></author>\n"
        out += "<generator>Notepress</generator>\n"
        for (i, path) in dated {
            let r = table.records[i]
            let url = HTMLEscape.text(b + path)
            out += "<entry>\n<title>" + HTMLEscape.text(r.title ?? path) + "</title>\n"
            out += "<id>" + url + "</id>\n<link rel=\"alternate\" type=\"text/html\" href=\"" + url + "\"/>\n"
            out += "<updated>" + HTMLEscape.text(lastModified(r) ?? r.created!) + "</updated>\n"
            if let e = r.excerpt { out += "<summary>" + HTMLEscape.text(e) + "</summary>\n" }
            for t in r.tags { out += "<category term=\"" + HTMLEscape.text(t) + "\"/>\n" }
            out += "</entry>\n"
        }
        out += "</feed>\n"
        return Array(out.utf8)
    }
}
