import Foundation
import Notepress
import NotepressAST
import NotepressResources

/// One tag page of a site (`tags/PATH.html` in the HTML tree): the tags that map to it and the
/// pages that carry one of them.
package struct TagPage: Sendable, Equatable {
    /// The page's path below the tag pages folder, without extension (``Hashtags/pagePath(_:)``).
    package var path: String
    /// Every spelling of the tags that map to ``path`` (`Work`, `work`; `a b`, `a-b`), each once,
    /// in byte order.
    package var names: [String]
    /// The pages that carry one of ``names``, as record indices of the table, in table order.
    package var pages: [Int]
}

/// The site's tags, read from the site table alone: which tag pages a folder run writes and where
/// they are. Tag pages exist when any page has a tag (front matter `tags`, and hashtags with
/// `--hashtags`) and HTML pages are written; each is `tags/PATH.html` in the HTML tree, PATH being
/// ``Hashtags/pagePath(_:)`` of the tag (lower case, nested tags as folders, characters unsafe in
/// file names as `-`). Tags whose paths coincide share one page, which names them all.
package enum SiteTags {
    /// The folder of the tag pages below the HTML tree's root.
    package static let folder = "tags"

    /// Whether any page of `table` has a tag (the site then writes tag pages).
    package static func hasTags(_ table: SiteTable) -> Bool {
        table.records.contains { $0.kind == .page && !$0.tags.isEmpty }
    }

    /// The tag pages of `table`, sorted by path (byte order).
    package static func pages(_ table: SiteTable) -> [TagPage] {
        var byPath: [String: Int] = [:]
        var out: [TagPage] = []
        // Each spelling's path made once (a site has few tags and many pages carrying them).
        var pathOf: [ExactTag: String] = [:]
        for (i, r) in table.records.enumerated() where r.kind == .page && i != table.summary {
            var seen = Set<String>()
            for tag in r.tags {
                let path: String
                if let known = pathOf[ExactTag(tag)] {
                    path = known
                } else {
                    path = Hashtags.pagePath(tag)
                    pathOf[ExactTag(tag)] = path
                }
                let k: Int
                if let existing = byPath[path] {
                    k = existing
                } else {
                    k = out.count
                    byPath[path] = k
                    out.append(TagPage(path: path, names: [], pages: []))
                }
                if !out[k].names.contains(tag) { out[k].names.append(tag) }
                // A page with `Work` and `work` is listed once on their page.
                if seen.insert(path).inserted { out[k].pages.append(i) }
            }
        }
        for k in out.indices { out[k].names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        return out.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    /// The output path of tag page `path` below the HTML tree's root (`tags/work/projects.html`).
    package static func outputPath(_ path: String) -> String { folder + "/" + path + ".html" }

    /// The links of a page's `tags` to their pages, from a page whose output lies in folder
    /// `fromFolder` of the HTML tree (each tag once, in the page's order).
    package static func links(_ tags: [String], fromFolder: String) -> [PageLink] {
        var none: [ExactTag: PageLink]?
        return links(tags, fromFolder: fromFolder, made: &none)
    }

    /// ``links(_:fromFolder:)``, each tag's link taken from `made` when there, else made and
    /// kept there (`nil`: nothing kept): the pages of one folder share their tags' links. Tag
    /// page paths come from `paths` when given.
    static func links(_ tags: [String], fromFolder: String, made: inout [ExactTag: PageLink]?, paths: TagPaths? = nil) -> [PageLink] {
        var seen = Set<String>()
        var out: [PageLink] = []
        out.reserveCapacity(tags.count)
        for tag in tags {
            guard seen.insert(tag).inserted else { continue }
            if let link = made?[ExactTag(tag)] { out.append(link); continue }
            let path = paths?.path(tag) ?? Hashtags.pagePath(tag)
            let link = PageLink(text: tag, href: SitePaths.urlPath(SitePaths.relative(fromFolder: fromFolder, to: outputPath(path))))
            made?[ExactTag(tag)] = link
            out.append(link)
        }
        return out
    }
}

/// A tag as spelled, byte for byte: the key of the caches of tag page paths and links. Swift's
/// `String` equality takes canonically equivalent spellings (`café` composed and decomposed) as
/// one, but ``Hashtags/pagePath(_:)`` keeps each spelling's bytes, so a `String`-keyed cache gave
/// a page the path of whichever spelling was looked up first (new-user try-out, 2026-12-01).
struct ExactTag: Hashable {
    /// The tag's text.
    let text: String
    init(_ text: String) { self.text = text }
    static func == (a: ExactTag, b: ExactTag) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }
    func hash(into hasher: inout Hasher) {
        for byte in text.utf8 { hasher.combine(byte) }
    }
}

/// Tag page paths (``Hashtags/pagePath(_:)``) by tag, each made once and shared by the threads
/// that render a run's pages (a site has few tags and many pages carrying them).
final class TagPaths: @unchecked Sendable {
    private var paths: [ExactTag: String] = [:]
    private let lock = NSLock()

    /// ``Hashtags/pagePath(_:)`` of `tag`.
    func path(_ tag: String) -> String {
        lock.lock()
        let known = paths[ExactTag(tag)]
        lock.unlock()
        if let known { return known }
        let path = Hashtags.pagePath(tag)
        lock.lock()
        paths[ExactTag(tag)] = path
        lock.unlock()
        return path
    }
}

/// Backlinks (`--backlinks`): for each page, the pages that link to it, read from the site table's
/// links as resolved against it (standard links, wiki links and embeds whose target is the page;
/// a page's links to itself are not counted), each linking page once.
package enum SiteBacklinks {
    /// For every record index of `table`, the record indices of the pages that link to it, sorted
    /// by title (natural order, ``NaturalOrder``), then path: the order pages show them in.
    package static func compute(_ table: SiteTable, resolutions: [SiteRewriter.Resolutions]) -> [[Int]] {
        var incoming = Array(repeating: [Int](), count: table.records.count)
        for (from, resolved) in resolutions.enumerated() {
            var targets = Set<Int>()
            for r in resolved.values { if case .page(let to) = r.target, to != from { targets.insert(to) } }
            for to in targets { incoming[to].append(from) }
        }
        // Title keys (``NaturalOrder``) made once per page that needs one.
        var keys: [Int: NaturalOrder.Key] = [:]
        func key(_ i: Int) -> NaturalOrder.Key {
            if let k = keys[i] { return k }
            let k = NaturalOrder.key(table.records[i].title ?? PathText.deletingExtension(PathText.lastComponent(table.paths[i])))
            keys[i] = k
            return k
        }
        for k in incoming.indices where incoming[k].count > 1 {
            incoming[k].sort { a, b in
                let ka = key(a), kb = key(b)
                if ka != kb { return ka < kb }
                return table.paths[a].utf8.lexicographicallyPrecedes(table.paths[b].utf8)
            }
        }
        return incoming
    }

    /// The backlinks of one page as links from its output folder `fromFolder` in the HTML tree.
    package static func links(_ sources: [Int], table: SiteTable, fromFolder: String) -> [PageLink] {
        sources.map { i in
            let stem = table.stems[i] ?? PathText.deletingExtension(table.paths[i])
            let title = table.records[i].title ?? PathText.lastComponent(stem)
            return PageLink(text: title, href: SitePaths.urlPath(SitePaths.relative(fromFolder: fromFolder, to: stem + ".html")))
        }
    }
}

/// What a site's HTML pages show of the rest of the site besides their links: links to the tag
/// pages (when the site writes them) and, with `--backlinks`, the pages linking to each page. Both
/// come from the site table and are part of a page's table digest, so a changed tag set or link
/// graph renders again exactly the pages whose shown bytes change.
struct SitePageExtras: Sendable {
    /// The site writes tag pages (``SiteTags/hasTags(_:)`` and HTML pages).
    var tagPages = false
    /// Per record index, the pages linking to it (``SiteBacklinks/compute(_:resolutions:)``); empty
    /// without `--backlinks`.
    var backlinks: [[Int]] = []
    /// The tags' page paths, shared by the pages.
    let tagPaths = TagPaths()
    /// The site's navigation (HTML pages of a folder run): each page's chrome
    /// (``DocumentMetadata/site``) is part of its digest.
    var navigation: SiteNavigation? = nil
    /// Where the not-found page's links start (``SitePaths/notFoundRoot(baseURL:)``).
    var notFoundRoot = "/"
    /// The "Edit this page" URL template (``ConversionOptions/editURL``; ``SitePageFooter``).
    var editURL: String? = nil

    /// The chrome values of page `record`.
    func chrome(_ record: SiteRecord, table: SiteTable) -> [String: MustacheValue]? {
        guard let nav = navigation, let i = table.byPath[record.path] else { return nil }
        let fromFolder = SitePaths.folderOf(table.outputStem(forInput: record.path))
        var values = nav.values(record: i, fromFolder: fromFolder, notesIndex: table.rootHasIndexPage ? "notes-index.html" : "index.html",
                                root: SitePaths.isNotFoundPage(record.path) ? notFoundRoot : nil)
        footerValues(record, into: &values)
        return values
    }

    /// `digest` (``SiteRewriter/digest(of:resolutions:)`` of `record`) extended with what this
    /// page shows: whether its tags link to tag pages, and each backlink's path, output stem and title.
    func digest(_ digest: String, record: SiteRecord, table: SiteTable) -> String {
        let linkedTags = tagPages && !record.tags.isEmpty
        let sources = table.byPath[record.path].flatMap { $0 < backlinks.count ? backlinks[$0] : nil } ?? []
        guard linkedTags || !sources.isEmpty || navigation != nil else { return digest }
        var bytes = Array(digest.utf8)
        if let nav = navigation { bytes += Array(("\u{1E}site" + nav.digest + "\u{1E}" + footerDigest(record)).utf8) }
        if linkedTags { bytes += Array("\u{1E}tags".utf8) }
        for i in sources {
            bytes.append(0x1E)
            for s in [table.paths[i], table.stems[i] ?? "", table.records[i].title ?? ""] { bytes += Array(s.utf8); bytes.append(0x1F) }
        }
        return SHA256.hex(bytes)
    }

    /// Sets `page`'s ``DocumentMetadata/tagLinks`` and ``DocumentMetadata/backlinks`` (HTML), and
    /// `options`' ``ConversionOptions/tagPagesFolder`` so that its hashtags link to their pages,
    /// and its ``ConversionOptions/sitePage`` (the page's chrome).
    func apply(to page: inout Document, record: SiteRecord, table: SiteTable, options: inout ConversionOptions) {
        let fromFolder = SitePaths.folderOf(table.outputStem(forInput: record.path))
        if tagPages {
            options.tagPagesFolder = SiteTags.folder
            var none: [ExactTag: PageLink]?
            page.metadata.tagLinks = SiteTags.links(page.metadata.tags, fromFolder: fromFolder, made: &none, paths: tagPaths)
        }
        if let i = table.byPath[record.path], i < backlinks.count, !backlinks[i].isEmpty {
            page.metadata.backlinks = SiteBacklinks.links(backlinks[i], table: table, fromFolder: fromFolder)
        }
        if SitePaths.isNotFoundPage(record.path) {
            // Shown at any depth: links from the root.
            page.metadata.tagLinks = page.metadata.tagLinks.map { PageLink(text: $0.text, href: notFoundRoot + $0.href) }
            page.metadata.backlinks = page.metadata.backlinks.map { PageLink(text: $0.text, href: notFoundRoot + $0.href) }
        }
        if let site = chrome(record, table: table) { options.sitePage = site }
    }
}
