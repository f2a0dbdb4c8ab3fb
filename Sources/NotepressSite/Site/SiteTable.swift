import Foundation
import Notepress
import NotepressAST

/// One link a page makes to somewhere inside the site, as the site table records it: where it
/// is written, how, and its destination as written. Links with a URL scheme (`https:`,
/// `mailto:`) or to `//host` are not recorded (``SitePaths/isExternal(_:)``); neither are links
/// in code, which are not links.
package struct SiteLinkRecord: Sendable, Equatable, Hashable {
    /// How the link is written.
    package enum Kind: String, Sendable, Equatable, Hashable, CaseIterable {
        /// `[text](dest)` and the other CommonMark links.
        case link
        /// `![alt](src)`.
        case image
        /// `[[Note]]`, `[[Note#Heading|label]]`, `![[note]]`.
        case wiki
        /// `![[image.png]]`: a wiki embed of an image file.
        case wikiImage = "wiki-image"
    }

    /// How the link is written.
    package var kind: Kind
    /// The destination as written (percent-encoding kept); for wiki links the target with its
    /// fragment, without the label (`Note#Heading`).
    package var target: String
    /// 1-based line and byte column of the link in the input (0 when unknown).
    package var line: Int
    /// See ``line``.
    package var column: Int

    /// A link record (see the properties).
    package init(kind: Kind, target: String, line: Int, column: Int) {
        self.kind = kind
        self.target = target
        self.line = line
        self.column = column
    }
}

/// One input of a site: a page (a document Notepress converts) or another file (an image, a
/// PDF: an asset, copied when a page refers to it). See ``SiteTable`` for the JSON form.
package struct SiteRecord: Sendable, Equatable {
    /// Page or other file.
    package enum Kind: String, Sendable, Equatable { case page, file }

    /// The path below the input folder, `/`-separated (``InputFile/relative``).
    package var path: String
    /// Page or other file.
    package var kind: Kind
    /// Pages: the syntax read.
    package var format: SourceFormat?
    /// Pages: the title (``DocumentMetadata/title``).
    package var title: String?
    /// Pages: where the title came from.
    package var titleSource: DocumentMetadata.TitleSource?
    /// Pages: the date (front matter `created`, else the file time clamped by SOURCE_DATE_EPOCH),
    /// ISO 8601 in UTC (``CivilDateTime/iso8601``).
    package var created: String?
    /// Pages: when the file last changed, ISO 8601 in UTC, when that is not ``created``: the last
    /// commit that touched it (``GitDates``), else (not in history, or edited since) the file's
    /// time clamped by SOURCE_DATE_EPOCH. Front matter's modified fields win over it
    /// (``SiteFeeds/lastModified(_:)``).
    package var updated: String?
    /// Pages: front-matter tags, in order.
    package var tags: [String] = []
    /// Pages: the other scalar front-matter fields.
    package var fields: [String: String] = [:]
    /// Pages: heading ids in document order (``HeadingIDAssigner``).
    package var ids: [String] = []
    /// Pages: block anchors (`^id` at the end of a paragraph or list item, Foam's and Obsidian's
    /// block references), without the `^`.
    package var anchors: [String] = []
    /// Pages: links into the site, in document order.
    package var links: [SiteLinkRecord] = []
    /// Pages: the first paragraph's plain text, at most ``SiteScanner/excerptLength`` characters.
    package var excerpt: String?
    /// Pages: the man page name and section (``ManTitleResolver/installedName(_:path:)``: the
    /// title block's, else the file name's `.SECTION` suffix, front matter `section`): the
    /// man output's file name (`NAME.SECTION`) and how a man page names a link to this page;
    /// `nil` when the page has no man title (no man output; links name it by its file).
    package var manName: String?
    /// See ``manName``.
    package var manSection: String?
    /// Pages: the text the site's search indexes, by section (``SiteSearchSection``): the part
    /// before the first heading, then one per heading.
    package var search: [SiteSearchSection] = []
    /// The site's `SUMMARY.md` (``SiteSummary``): its entries, in order.
    package var summary: [SiteSummaryEntry] = []
    /// Pages: front-matter `aliases` (a list or one string; Obsidian's and Foam's): other names
    /// wiki links resolve to (``SiteResolver``).
    package var aliases: [String] = []
    /// Pages: the targets of the note embeds (`![[note#Heading]]`, as written), in document order.
    package var embeds: [String] = []
    /// Pages: the document holds math (the site then copies KaTeX, ``HTMLMath``).
    package var math = false
    /// Pages that a note embed may resolve to (``SiteEmbeds/mayBeEmbedded(_:names:)``): SHA-256
    /// (hex) of the input's bytes. A page that embeds this one renders its text, so the embedding
    /// page's digest (``SiteRewriter/digest(of:resolutions:)``) reads it: an edit anywhere in an
    /// embedded note (a code block, its front matter) re-renders the embedding page. Other pages
    /// leave it out, so an edit of their text leaves the table as it was.
    package var sha256: String?

    /// A record of `path` with no facts yet (the scanner fills them).
    package init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }
}

/// The site table: one record per input of a folder run, sorted, and the lookups that
/// rendering, link checking, the notes index and (later) tag pages and backlinks read.
///
/// A page's rendering depends only on its input, the options and this table (never on which
/// other files are converted in the same process), and site-wide outputs only on the table, so a
/// run split into shards over the same table writes the same bytes.
///
/// JSON Lines form (``SiteTableCodec``): one JSON object per line, UTF-8, `\n` after each, the
/// lines in byte order (so tables of disjoint input sets merge by concatenation and
/// `LC_ALL=C sort`). Keys in this order, optional ones left out when empty:
///
/// | key | type | meaning |
/// |---|---|---|
/// | `path` | string | path below the input folder, `/`-separated (first key: lines sort by it) |
/// | `kind` | `"page"` or `"file"` | a document Notepress converts, or another file (asset) |
/// | `format` | `"note"`, `"gfm"`, `"commonmark"` | pages: the syntax read |
/// | `title` | string | pages: front matter `title`, else the first level-1 heading (Markdown), else the file stem |
/// | `titleSource` | `"frontMatter"`, `"firstHeading"`, `"fileName"` | pages |
/// | `created` | string | pages: ISO 8601 UTC date (`2024-05-01T00:00:00Z`) |
/// | `updated` | string | pages: ISO 8601 UTC date of the last change (git history, else the file's time), when not `created` |
/// | `tags` | [string] | pages: front-matter tags |
/// | `fields` | {string: string} | pages: other scalar front-matter fields, keys sorted |
/// | `ids` | [string] | pages: heading ids (GitHub's algorithm), document order |
/// | `anchors` | [string] | pages: block anchors (`^id`), without `^` |
/// | `links` | [{`kind`, `target`, `line`, `column`}] | pages: links into the site; `kind` `link`, `image`, `wiki`, `wiki-image` |
/// | `excerpt` | string | pages: first paragraph, plain text, ≤ 200 characters |
/// | `man` | {`name`, `section`} | pages: man page name and section |
/// | `search` | [{`id`, `heading`, `words`, `text`}] | pages: per section (the top, then each heading: its id and text), the search terms (``SearchTerms``) joined by spaces, the start of its text (≤ 400 characters, omitted when empty) |
/// | `summary` | [{`kind`, `title`, `target`, `depth`, `line`, `column`}] | the root `SUMMARY.md` only (``SiteSummary``): `kind` `part`, `chapter`, `draft`, `separator` |
/// | `sha256` | string | pages a note embed may resolve to: SHA-256 (hex) of the input bytes (what the embedding page depends on) |
///
/// Example: `{"path":"a/b.md","kind":"page","format":"gfm","title":"B","titleSource":"firstHeading","created":"2024-05-01T00:00:00Z","ids":["b","usage"],"links":[{"kind":"link","target":"../c.md#x","line":3,"column":5}],"excerpt":"Text.","man":{"name":"b","section":"1"}}`
///
/// A class: immutable once made, shared by every page's rendering without copying its look-ups.
package final class SiteTable: Sendable, Equatable {
    /// The records, sorted by their JSON line (byte order), which is path order for paths
    /// without characters below `"` (a space or `!` sorts by the line).
    package let records: [SiteRecord]
    /// Each record's JSON line (``SiteTableCodec/line(_:)``), in the same order.
    let lines: [[UInt8]]
    /// Each record's path and kind, in the same order (look-ups read them without copying records).
    package let paths: [String]
    /// See ``paths``.
    package let kinds: [SiteRecord.Kind]
    /// Each page's ``SiteLinkTarget`` (what a link to it carries); `nil` for other files.
    package let linkTargets: [SiteLinkTarget?]

    /// Record index by path.
    package let byPath: [String: Int]
    /// Folders (`a`, `a/b`; the root is `""`) that hold an `index.*` page.
    let foldersWithIndex: Set<String>
    /// Every folder that holds an input, at any depth.
    let folders: Set<String>
    /// Output stem (``SitePaths/outputStem(_:folderHasIndex:)``) by record index (pages).
    let stems: [String?]
    /// Each folder's index page (record index): its `index.*`, else its `README.*`.
    let folderIndex: [String: Int]
    /// The root's `SUMMARY.md` (record index) when it is a Markdown page: the navigation's order,
    /// not itself a page of the site (``isListed(_:)``).
    package let summary: Int?
    /// Page and file records by lower-cased file name without extension (pages) or with it
    /// (files), for wiki links.
    let byName: [String: [Int]]
    /// Folders by lower-cased last component, for wiki links to folders.
    let foldersByName: [String: [String]]
    /// Each record's path as wiki links match it, lower-cased: without extension for pages.
    let wikiKeys: [String]
    /// The same, in its own case (an exact-case match wins a tie).
    let wikiPaths: [String]

    /// Byte order of two lines (`memcmp`, then the shorter first).
    static func bytesPrecede(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        let n = min(a.count, b.count)
        let c = a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in n == 0 ? 0 : memcmp(pa.baseAddress!, pb.baseAddress!, n) } }
        return c != 0 ? c < 0 : a.count < b.count
    }

    /// Same records, same table (the look-ups follow from them).
    package static func == (a: SiteTable, b: SiteTable) -> Bool { a === b || a.records == b.records }

    /// A table of `records` (sorted here). When two records have the same path the first is kept.
    /// `lines`, when given, holds each record's JSON line (``SiteTableCodec/line(_:)``) already
    /// made (by the threads that scanned the inputs), or `nil` for one to make here; same count
    /// as `records`.
    package init(records: [SiteRecord], lines given: [[UInt8]?]? = nil) {
        var seen = Set<String>(minimumCapacity: records.count)
        var unique: [Int] = []
        var lines: [[UInt8]] = []
        unique.reserveCapacity(records.count)
        lines.reserveCapacity(records.count)
        for i in records.indices where seen.insert(records[i].path).inserted {
            unique.append(i)
            lines.append(given?[i] ?? SiteTableCodec.line(records[i]))
        }
        let order = unique.indices.sorted { Self.bytesPrecede(lines[$0], lines[$1]) }
        let sorted = order.map { records[unique[$0]] }
        self.records = sorted
        self.lines = order.map { lines[$0] }
        let paths = sorted.map(\.path)
        let kinds = sorted.map(\.kind)
        self.paths = paths
        self.kinds = kinds
        self.linkTargets = sorted.map { r in
            r.kind == .file ? nil : SiteLinkTarget(path: r.path, manName: r.manName ?? PathText.deletingExtension(PathText.lastComponent(r.path)),
                                                   manSection: r.manSection ?? "1")
        }
        var byPath: [String: Int] = [:]
        var withIndex = Set<String>()
        var folders = Set<String>()
        var byName: [String: [Int]] = [:]
        var wikiKeys: [String] = []
        var wikiPaths: [String] = []
        wikiKeys.reserveCapacity(sorted.count)
        wikiPaths.reserveCapacity(sorted.count)
        byPath.reserveCapacity(sorted.count)
        // Each record's folder, made once for both loops (records are not copied: paths and kinds
        // are read from their own arrays).
        var folderOf: [String] = []
        folderOf.reserveCapacity(sorted.count)
        for i in paths.indices {
            let path = paths[i], isPage = kinds[i] == .page
            let key = isPage ? PathText.deletingExtension(path) : path
            wikiPaths.append(key)
            wikiKeys.append(key.lowercased())
            byPath[path] = i
            let folder = SitePaths.folderOf(path)
            folderOf.append(folder)
            if isPage && SitePaths.isIndex(path) { withIndex.insert(folder) }
            var f = folder
            while !f.isEmpty, folders.insert(f).inserted { f = SitePaths.folderOf(f) }
            let name = PathText.lastComponent(path)
            let nameKey = (isPage ? PathText.deletingExtension(name) : name).lowercased()
            byName[nameKey, default: []].append(i)
        }
        folders.insert("")
        var stems: [String?] = []
        stems.reserveCapacity(sorted.count)
        var folderIndex: [String: Int] = [:]
        for i in paths.indices {
            guard kinds[i] == .page else { stems.append(nil); continue }
            let path = paths[i], folder = folderOf[i]
            stems.append(SitePaths.outputStem(path, folderHasIndex: withIndex.contains(folder)))
            if SitePaths.isIndex(path) || (SitePaths.isReadme(path) && !withIndex.contains(folder)) {
                if folderIndex[folder] == nil { folderIndex[folder] = i }
            }
        }
        let summary = byPath[SiteSummary.path].flatMap { SiteSummary.isSummary(sorted[$0].path, format: sorted[$0].format) ? $0 : nil }
        // A book without an index page opens on its first chapter, written as index.html (mdBook).
        if folderIndex[""] == nil, let s = summary, let first = BookLanding.firstChapter(sorted[s].summary, byPath: byPath, kinds: kinds) {
            folderIndex[""] = first
            stems[first] = "index"
        }
        var foldersByName: [String: [String]] = [:]
        for f in folders where !f.isEmpty { foldersByName[PathText.lastComponent(f).lowercased(), default: []].append(f) }
        self.byPath = byPath
        self.foldersWithIndex = withIndex
        self.folders = folders
        self.stems = stems
        self.folderIndex = folderIndex
        self.byName = byName
        self.foldersByName = foldersByName.mapValues { $0.sorted() }
        self.wikiKeys = wikiKeys
        self.wikiPaths = wikiPaths
        self.summary = summary
    }

    /// Whether record `i` is a page the site lists (navigation, notes list, tag pages, search,
    /// sitemap, feed): a page that was read, not the site's `SUMMARY.md`.
    package func isListed(_ i: Int) -> Bool {
        kinds[i] == .page && records[i].format != nil && i != summary
    }

    /// The record at `path`, if any.
    package func record(_ path: String) -> SiteRecord? { byPath[path].map { records[$0] } }

    /// The output path of page `path` without extension (``SitePaths/outputStem(_:folderHasIndex:)``),
    /// or `nil` when it is not a page of the table.
    package func outputStem(_ path: String) -> String? {
        byPath[path].flatMap { stems[$0] }
    }

    /// The output stem of `relative` from the site's rule even when it is not in the table.
    package func outputStem(forInput relative: String) -> String {
        outputStem(relative) ?? SitePaths.outputStem(relative, folderHasIndex: foldersWithIndex.contains(SitePaths.folderOf(relative)))
    }

    /// The record of the index page of `folder` (`""`: the root), if it has one.
    package func indexPage(ofFolder folder: String) -> SiteRecord? {
        folderIndex[folder].map { records[$0] }
    }

    /// Whether the root folder has an index page of its own (`index.*` or `README.*`): the
    /// generated notes list is then `notes-index.html`, else `index.html`.
    package var rootHasIndexPage: Bool { folderIndex[""] != nil }

    /// The page records, in table order.
    package var pages: [SiteRecord] { records.filter { $0.kind == .page } }
}
