import Foundation
import Notepress
import NotepressAST
import NotepressHTML
import NotepressPlatform
import NotepressResources

/// One generated site-wide page: its path below the HTML tree's root and its bytes.
package struct SitePage: Sendable, Equatable {
    /// Path below the HTML tree's root (`index.html`, `notes-index.html`, `tags/work.html`).
    package var path: String
    /// The page, UTF-8.
    package var bytes: [UInt8]
    /// SHA-256 of ``bytes`` (hex) for the manifest: `--prune` removes a site file no longer made
    /// only while it holds these bytes, also when its time changed (a tree copied by `cp -r`,
    /// `rsync` without `-t`, a git checkout).
    package var sha256: String

    /// A page of `bytes` at `path`, hashed here (on the thread that rendered it).
    package init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
        self.sha256 = SHA256.hex(bytes)
    }
}

/// What ``BatchConverter/writeSitePages(_:tableBytes:sourcePaths:previous:previousTableBytes:unchanged:prerendered:)`` did.
package struct SitePagesResult: Sendable {
    /// The notes list's path and manifest record (``Manifest/index``); `nil` without HTML pages or
    /// when it was refused.
    package var indexPath: String?
    /// See ``indexPath``.
    package var indexRecord: Manifest.Output?
    /// The tag pages' manifest records (``Manifest/sitePages``), sorted by path.
    package var tagPages: [Manifest.Output] = []
    /// Every site-wide page of this run (written or already in place), full paths, in the order
    /// rendered: the notes list, then the tag pages by path.
    package var paths: [String] = []
    /// The pages written this run (the others held their bytes already).
    package var written: [String] = []
    /// Pages not written: one would replace a converted input's output, or could not be written.
    package var errors: [NotepressError] = []
    /// Optional assets missing (``SiteAssets/missingAssetWarnings(_:)``): features left out.
    package var warnings: [Diagnostic] = []

    /// Nothing written (no HTML pages).
    package init() {}
}

/// The site-wide pages of a folder run (``BatchConverter/renderSitePages(_:sourcePaths:)``)
/// rendered on a thread of their own while the run's pages are rendered: they read the site
/// table alone, so with several jobs they need not wait for the pages (the notes list of 20 000
/// notes is one long render). ``result()`` waits for them; the bytes are those a render after the
/// pages would make.
package final class PendingSitePages: @unchecked Sendable {
    /// The table the pages are rendered from.
    let table: SiteTable
    private let condition = NSCondition()
    private var value: Result<(pages: [SitePage], refused: [NotepressError]), Error>?

    /// Starts rendering `table`'s site-wide pages with `batch` (`sourcePaths`: as for
    /// ``BatchConverter/renderSitePages(_:sourcePaths:)``).
    init(_ batch: BatchConverter, table: SiteTable, sourcePaths: [String: String]) {
        self.table = table
        let thread = Thread { [self] in
            let r = Result { try batch.renderSitePages(table, sourcePaths: sourcePaths) }
            condition.lock()
            value = r
            condition.broadcast()
            condition.unlock()
        }
        thread.stackSize = 64 << 20
        thread.start()
    }

    /// The rendered pages, once rendered.
    /// - Throws: what ``BatchConverter/renderSitePages(_:sourcePaths:)`` threw.
    func result() throws -> (pages: [SitePage], refused: [NotepressError]) {
        condition.lock()
        while value == nil { condition.wait() }
        let r = value!
        condition.unlock()
        return try r.get()
    }
}

extension BatchConverter {
    /// Every site-wide page of a folder run, rendered from `table` alone (with the options and
    /// templates): the notes list (``HTMLIndex/render(notes:home:)``: `index.html`, or
    /// `notes-index.html` when the input folder has an index page of its own) and, when any page
    /// has a tag, one page per tag (``SiteTags``, ``HTMLIndex/renderTag(names:notes:prefix:notesIndex:)``:
    /// `tags/PATH.html`). Entries hold each page's title, date, folder, tags (linked to their
    /// pages) and excerpt. Paths are below the HTML tree's root; empty without an HTML writer or
    /// with `--fragment`. The one function site-wide pages come from, so a run split into shards
    /// over the same table writes the same bytes. A page whose path is a converted input's
    /// output is left out and reported in `refused` (a generated file never replaces an input's
    /// page): `sourcePaths` names the input as found.
    /// - Throws: ``NotepressError/pageTemplate(file:message:)`` when a template is missing or broken.
    package func renderSitePages(_ table: SiteTable, sourcePaths: [String: String] = [:]) throws
        -> (pages: [SitePage], refused: [NotepressError]) {
        guard options.makesHTMLPages(writers) else { return ([], []) }
        var outputsOfInputs: [String: String] = [:]
        for r in table.records where r.kind == .page {
            outputsOfInputs[(table.outputStem(r.path) ?? PathText.deletingExtension(r.path)) + ".html"] = r.path
        }
        let indexName = table.rootHasIndexPage ? "notes-index.html" : "index.html"
        let tagPages = SiteTags.hasTags(table) ? SiteTags.pages(table) : []
        let (entries, entryOf) = listEntries(table, tagPages: !tagPages.isEmpty)
        let lists = HTMLIndex(theme: options.theme, templates: options.templates, stylesheets: options.stylesheets)
        var refused: [NotepressError] = []
        let root = writers.first(where: { $0.format == .html }).map { self.root(for: $0) } ?? outputRoot
        func refuse(_ path: String, _ what: String) -> Bool {
            guard let input = outputsOfInputs[path] else { return false }
            refused.append(.outputRefused(file: sourcePaths[input] ?? input, message:
                "the generated \(what) \(PathText.join(root, path)) would replace this page's output; \(what.split(separator: " ").last!) not written"))
            return true
        }
        // Entry hrefs become URL paths from the root (percent-encoded by the list's `href` rule);
        // one index order for every list (a tag page's notes are a subset in that order), and
        // each entry's template data made once per prefix (every tag page one folder down shares
        // the `../` data).
        let urlEntries = entries.map(Self.urlEntry)
        let order = HTMLIndex.order(urlEntries)
        var rank = Array(repeating: 0, count: urlEntries.count)
        for (r, e) in order.enumerated() { rank[e] = r }
        var values: [String: [MustacheValue?]] = [:]
        func value(_ e: Int, _ prefix: String) -> MustacheValue {
            if let v = values[prefix]?[e] { return v }
            if values[prefix] == nil { values[prefix] = Array(repeating: nil, count: urlEntries.count) }
            let v = values[""]?[e].map { lists.entryData(urlEntries[e], prefix: prefix, reusing: $0) }
                ?? lists.entryData(urlEntries[e], prefix: prefix)
            values[prefix]![e] = v
            return v
        }
        // The pages to render: the list, then the tag pages by path (each with its data ready),
        // each split into pages of ``ConversionOptions/listPageSize`` entries (`x.html`, then
        // `x.page2.html`, …).
        let nav = SiteNavigation(table, siteTitle: options.siteTitle, nav: book?.nav,
                                 extras: (book?.extraStylesheets ?? [], book?.extraScripts ?? []),
                                 printPage: SitePrint.wanted(table, options: options))
        var jobs: [ListPageJob] = []
        func paginate(_ path: String, names: [String]?, prefix: String, _ listed: [Int]) {
            let size = options.listPageSize > 0 ? options.listPageSize : max(1, listed.count)
            let count = max(1, (listed.count + size - 1) / size)
            let stem = PathText.deletingExtension(path)
            func pagePath(_ k: Int) -> String { k == 1 ? path : stem + ".page\(k).html" }
            for k in 1...count {
                let chunk = listed[min(listed.count, (k - 1) * size)..<min(listed.count, k * size)]
                let links: [MustacheValue] = count == 1 ? [] : (1...count).map { j in
                    .map(["number": .string(String(j)), "href": .string(HTMLEscape.url(PathText.lastComponent(pagePath(j)))),
                          "current": .bool(j == k)])
                }
                jobs.append((pagePath(k), names, prefix, chunk.map { value($0, prefix) }, links))
            }
        }
        if !refuse(indexName, "notes list") {
            paginate(indexName, names: nil, prefix: "", order)
        }
        for t in tagPages {
            let path = SiteTags.outputPath(t.path)
            if refuse(path, "tag page") { continue }
            let depth = path.utf8.reduce(0) { $0 + ($1 == 0x2F ? 1 : 0) }
            let prefix = String(repeating: "../", count: depth)
            let listed = t.pages.compactMap { entryOf[$0] }.sorted { rank[$0] < rank[$1] }
            paginate(path, names: t.names, prefix: prefix, listed)
        }
        values = [:]
        let home = table.rootHasIndexPage ? "index.html" : nil
        let tagTemplate: PageTemplate?
        do {
            tagTemplate = tagPages.isEmpty ? nil : try PageTemplate.builtIn("html/tag.html", store: options.templates)
        } catch {
            throw NotepressError.pageTemplate(file: nil, message: "\(error)")
        }
        var pages = try renderListPages(jobs, nav: nav, lists: lists, indexName: indexName, home: home, tagTemplate: tagTemplate)
        // The shared files: stylesheet, script, search, feeds, 404 (none replaces an input's page).
        let shared = try SiteAssets.files(table, nav: nav, options: options, notesIndex: indexName, listPages: jobs.map(\.path)) { outputsOfInputs[$0] != nil }
        for page in shared.pages where !refuse(page.path, "site file") { pages.append(page) }
        refused += shared.errors
        return (pages, refused)
    }

    /// One page of the notes list or of a tag page: its path, the tag names (`nil`: the notes
    /// list), the prefix to the root, its entries' data and the links to its sibling pages.
    typealias ListPageJob = (path: String, names: [String]?, prefix: String, notes: [MustacheValue], pages: [MustacheValue])

    /// The list and tag pages of `jobs`, rendered in parallel (pages are independent; the result
    /// is in job order whatever the job count).
    private func renderListPages(_ jobs: [ListPageJob], nav: SiteNavigation, lists: HTMLIndex, indexName: String, home: String?,
                                 tagTemplate: PageTemplate?) throws -> [SitePage] {
        let rendered = Slots<Result<SitePage, NotepressError>>(count: jobs.count)
        let work = jobs
        let body: @Sendable (Int) -> Void = { i in
            let job = work[i]
            do {
                let site = nav.values(record: nil, fromFolder: SitePaths.folderOf(job.path), notesIndex: indexName)
                let text = try job.names.map {
                    try lists.renderTag(names: $0, sortedNotes: job.notes, prefix: job.prefix, notesIndex: indexName, template: tagTemplate,
                                        site: site, listPages: job.pages)
                } ?? lists.render(sortedNotes: job.notes, home: home, site: site, listPages: job.pages)
                rendered.set(i, .success(SitePage(path: job.path, bytes: Array(text.utf8))))
            } catch {
                rendered.set(i, .failure(NotepressError.pageTemplate(file: nil, message: "\(error)")))
            }
        }
        if self.jobs > 1 && work.count > 1 {
            DispatchQueue.concurrentPerform(iterations: work.count, execute: body)
        } else {
            for i in work.indices { body(i) }
        }
        var pages: [SitePage] = []
        pages.reserveCapacity(work.count + 8)
        for i in work.indices {
            switch rendered.get(i)! {
            case .success(let page): pages.append(page)
            case .failure(let e): throw e
            }
        }
        return pages
    }

    /// `e` with its page and tag paths as URL paths (``SitePaths/urlPath(_:)``).
    /// The notes list's entries of `table`'s listed pages, and each page's entry by record
    /// index; `tagPages`: the site has tag pages (entries link their tags). An entry's date is
    /// the page's date, or with `--list-order updated` (``ConversionOptions/listByUpdate``) its
    /// last update (the page's "Last updated", the sitemap's `lastmod`): the list sorts by it.
    func listEntries(_ table: SiteTable, tagPages: Bool) -> (entries: [NotesListEntry], entryOf: [Int: Int]) {
        var entries: [NotesListEntry] = []
        var entryOf: [Int: Int] = [:]
        var tagLinks: [ExactTag: PageLink]? = [:]
        for (i, r) in table.records.enumerated() where table.isListed(i) {
            let stem = table.stems[i] ?? PathText.deletingExtension(r.path)
            let tags = tagPages ? SiteTags.links(r.tags, fromFolder: "", made: &tagLinks) : []
            entryOf[i] = entries.count
            let date = (options.listByUpdate ? SiteFeeds.lastModified(r) : r.created).flatMap(CivilDateTime.parse)
            entries.append(NotesListEntry(title: r.title ?? PathText.lastComponent(stem), created: date,
                                          href: stem + ".html", folder: SitePaths.folderOf(r.path), tags: tags, excerpt: r.excerpt))
        }
        return (entries, entryOf)
    }

    static func urlEntry(_ e: NotesListEntry) -> NotesListEntry {
        var u = e
        u.href = SitePaths.urlPath(e.href)
        return u
    }

    /// Writes the site-wide pages (``renderSitePages(_:sourcePaths:)``) into the HTML tree, each
    /// only when its bytes differ from the file there (an unchanged page keeps its time, for
    /// make). When `unchanged` (every page was skipped with its old record) and the table's bytes
    /// are `previousTableBytes` and every page `previous` records is in place, nothing is rendered.
    /// `prerendered` (``SiteRun/sitePages``): the pages already being rendered from `table`.
    package func writeSitePages(_ table: SiteTable, tableBytes: [UInt8], sourcePaths: [String: String] = [:],
                                previous: Manifest = Manifest(), previousTableBytes: [UInt8]? = nil,
                                unchanged: Bool = false, prerendered: PendingSitePages? = nil) -> SitePagesResult {
        var result = SitePagesResult()
        guard let html = writers.first(where: { $0.format.makesHTMLPages(with: options) }) else { return result }
        let root = root(for: html)
        let indexName = table.rootHasIndexPage ? "notes-index.html" : "index.html"
        result.warnings = SiteAssets.missingAssetWarnings(table)
        if let w = SitePrint.warning(table, options: options) { result.warnings.append(w) }
        // A print page wanted and not recorded (an earlier version's run) is made now.
        let printRecorded = !SitePrint.wanted(table, options: options)
            || previous.sitePages.contains { $0.path == relativeToRoot(PathText.join(root, SitePrint.path)) }
        if unchanged, previousTableBytes == tableBytes, let old = previous.index, old.size != nil, printRecorded {
            // The site files of this table, as the last run that rendered them recorded them; the
            // manifest may also hold files of tags or search terms gone since, kept for --prune:
            // a tag page (or a page of one) of no tag of the table, a search file the index's
            // own list (`meta.js`) does not name.
            let current = Set((SiteTags.hasTags(table) ? SiteTags.pages(table) : []).map {
                relativeToRoot(PathText.join(root, PathText.deletingExtension(SiteTags.outputPath($0.path))))
            })
            let search = relativeToRoot(PathText.join(root, SiteSearch.folder)) + "/"
            let listed = SiteSearch.listedFiles(PathText.join(root, SiteSearch.folder + "/meta.js"))
            let tagsFolder = relativeToRoot(PathText.join(root, SiteTags.folder)) + "/"
            let tagPages: [Manifest.Output?] = previous.sitePages.filter { o in
                if o.path.hasPrefix(tagsFolder) {
                    var stem = PathText.deletingExtension(o.path)
                    if let dot = stem.range(of: ".page", options: .backwards), Int(stem[dot.upperBound...]) != nil {
                        stem = String(stem[..<dot.lowerBound])
                    }
                    return current.contains(stem)
                }
                if o.path.hasPrefix(search) { return listed?.contains(String(o.path.dropFirst(search.count))) ?? false }
                return true
            }.map { Optional($0) }
            if tagPages.allSatisfy({ $0 != nil }), outputsMatch([old] + tagPages.map { $0! }) {
                result.indexPath = PathText.join(outputRoot, old.path)
                result.indexRecord = old
                result.tagPages = tagPages.map { $0! }
                result.paths = ([old] + result.tagPages).map { PathText.join(outputRoot, $0.path) }
                return result
            }
        }
        let rendered: (pages: [SitePage], refused: [NotepressError])
        do {
            if let prerendered, prerendered.table === table {
                rendered = try prerendered.result()
            } else {
                rendered = try renderSitePages(table, sourcePaths: sourcePaths)
            }
        } catch {
            result.errors.append(NotepressError.wrapping(error, file: PathText.join(root, "index.html")))
            return result
        }
        result.errors = rendered.refused
        let check = OutputGuard(root: InputScanner.realPath(outputRoot), inputFolders: inputFolders, inputFiles: LazyIdentities([]))
        for page in rendered.pages {
            let path = PathText.join(root, page.path)
            do {
                let folder = PathText.deletingLastComponent(path)
                if Platform.status(folder) == nil { _ = Platform.makeDirectories(folder) }
                try check.check(path, input: path)
                if !Self.fileHolds(path, page.bytes) {
                    try AtomicFile.write(page.bytes, to: path)
                    result.written.append(path)
                }
                let st = Platform.status(path, followLinks: false)
                let record = Manifest.Output(path: relativeToRoot(path), sha256: page.sha256, size: st?.size,
                                             mtimeNanoseconds: st?.modifiedNanoseconds)
                result.paths.append(path)
                // Bytes: a tag page whose name starts with a combining mark makes `/` + mark one
                // `Character`, and `hasPrefix` took it for the notes list (new-user try-out).
                if page.path != indexName {
                    result.tagPages.append(record)
                } else {
                    result.indexPath = path
                    result.indexRecord = record
                }
            } catch {
                result.errors.append(NotepressError.wrapping(error, file: path))
            }
        }
        // The print page reads the pages' outputs: this runs after they are written.
        writePrintPage(table, root: root, notesIndex: indexName, into: &result)
        return result
    }
}
