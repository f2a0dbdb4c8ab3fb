import Foundation
import Notepress
import NotepressAST
import NotepressHTML

/// The site's files for the web, with `--base-url URL`: `sitemap.xml` (sitemaps.org protocol 0.9:
/// every page, with `lastmod` from its date) and `feed.xml` (Atom, RFC 4287: the newest
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

    /// `sitemap.xml`: every page, then `listPages` (paths below the root: the notes list and the
    /// tag pages, each with its further pages `x.page2.html`, …, in that order).
    package static func sitemap(_ table: SiteTable, baseURL: String, listPages: [String]) -> [UInt8] {
        let b = base(baseURL)
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        var urls = pages(table).map { (b + $0.1, table.records[$0.0].created) }
        for p in listPages { urls.append((b + SitePaths.urlPath(p), nil)) }
        for (loc, date) in urls {
            out += "<url><loc>" + HTMLEscape.text(loc) + "</loc>"
            if let d = date { out += "<lastmod>" + HTMLEscape.text(d) + "</lastmod>" }
            out += "</url>\n"
        }
        out += "</urlset>\n"
        return Array(out.utf8)
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
        let updated = dated.first.flatMap { table.records[$0.0].created } ?? "1970-01-01T00:00:00Z"
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
            out += "<updated>" + HTMLEscape.text(r.created!) + "</updated>\n"
            if let e = r.excerpt { out += "<summary>" + HTMLEscape.text(e) + "</summary>\n" }
            for t in r.tags { out += "<category term=\"" + HTMLEscape.text(t) + "\"/>\n" }
            out += "</entry>\n"
        }
        out += "</feed>\n"
        return Array(out.utf8)
    }
}
