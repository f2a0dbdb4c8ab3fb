import Foundation
import Notepress
import NotepressAST
import NotepressEPUB

/// What the folder-as-one-book writers share (``EPUBBook``, ``PDFBook``): the site engine's walk,
/// table and links, and the chapters in reading order, each a loaded document whose links into
/// the book name chapters.
///
/// - Chapters: the pages in the order the site's sidebar shows them (``SiteNavigation``:
///   `SUMMARY.md` for an mdBook book, MkDocs' `nav:`, else `nav_order`/`weight`, title, path),
///   then any page it leaves out, in table order; `SUMMARY.md` itself is not a chapter. Each is
///   named `ch001.xhtml`, `ch002.xhtml`, … (an EPUB's chapter files; a PDF's destinations).
/// - Links between notes: resolved by the site (``SiteRewriter``, wiki links included), then
///   mapped onto the chapters' names (`ch002.xhtml#heading`); a link to nothing in the book is
///   written as its text, with a warning (``BookPreparation``).
/// - The contents: the sidebar's tree (``contents(_:chapterOf:)``).
package enum SiteBook {
    /// What a book run did.
    package struct Report: Sendable {
        /// The chapters written.
        package var chapters = 0
        /// Images packaged (EPUB).
        package var images = 0
        /// Inputs that could not be read (`file: error: …`); the book is not written when there are some.
        package var failures: [String] = []
    }

    /// A chapter: its document (prepared), its name, its title, the file it came from.
    package struct Chapter {
        package var document: Document
        package var name: String
        package var title: String
        package var file: String
    }

    /// The chapters of a run, or the inputs that could not be read.
    package struct Chapters {
        /// Inputs that could not be read (`file: error: …`); nothing else is set when there are some.
        package var failures: [String] = []
        package var chapters: [Chapter] = []
        /// The book's title (`--site-title`, `book.toml`'s, the root index page's).
        package var title = ""
        /// The contents: the sidebar's tree over the chapters.
        package var contents: [EPUBNavEntry] = []
        /// The folder the pages' links (and images) are relative to after the site's rewriting.
        package var root = "."
    }

    /// The chapters of `request`'s inputs, each document's links rewritten by the site, then
    /// by `prepare` (given the document, the chapters by their site path, the root, the file
    /// and its diagnostics). Each chapter's diagnostics, the walk's notes and the link report
    /// go to `observer`. `writer`: the format the book is written in.
    /// - Throws: ``NotepressError`` when the inputs cannot be walked or a page read.
    package static func chapters(_ request: SiteBuildRequest, writer: any DocumentWriter, observer: (any SiteBuildObserver)?,
                                 prepare: (Document, [String: String], String, String, inout [Diagnostic]) -> Document) throws -> Chapters {
        let inputs = try SiteInputs.resolve(request.inputs, shard: nil, format: request.loader.format, selection: request.selection)
        let scan = inputs.scan
        for w in scan.warnings { observer?.tell(.note(w.description)) }
        for w in request.book?.warnings ?? [] { observer?.tell(.note(w)) }
        var loader = request.loader
        loader.wikilinks = request.wikilinks
        var batch = BatchConverter(loader: loader, writers: [writer], options: request.options, outputRoot: ".", jobs: request.jobs)
        batch.inputFolders = scan.folders
        batch.book = request.book
        let files = scan.files
        let pool = batch.jobs > 1 && files.count > 1 ? WorkerPool(threads: min(batch.jobs, files.count)) : nil
        let (scanned, records, lines) = batch.scanPhase(files, otherFiles: scan.others, previous: Manifest(), previousTable: nil, pool: pool)
        pool?.finish()
        var out = Chapters()
        out.failures = scan.errors.map { "\($0)" } + files.indices.compactMap { scanned.get($0)?.error.map { "\($0)" } }
        guard out.failures.isEmpty else { return out }
        let table = SiteTable(records: records, lines: lines)
        let navigation = SiteNavigation(table, siteTitle: request.options.siteTitle ?? request.book?.title, nav: request.book?.nav)
        let rewriter = SiteRewriter(resolver: SiteResolver(table: table))
        var fileOf: [String: Int] = [:]
        for (i, f) in files.enumerated() { fileOf[f.relative] = i }
        var sources: [String: String] = [:]
        for f in files + scan.others { sources[f.relative] = f.path }
        let embeds = SiteEmbeds.forRun(batch, rewriter: rewriter, sources: sources, sharded: false)
        let order = readingOrder(table, navigation, isFile: { fileOf[table.paths[$0]] != nil })
        var chapterOf: [Int: String] = [:]
        var chapterFiles: [String: String] = [:]
        for (n, r) in order.enumerated() {
            let name = EPUBChapter.fileName(n)
            chapterOf[r] = name
            chapterFiles[outputKey(table, r)] = name
        }
        out.root = inputs.root ?? request.inputs.first ?? "."
        let format = writer.format
        var resolutions = [SiteRewriter.Resolutions](repeating: [:], count: table.records.count)
        for r in order {
            let index = fileOf[table.paths[r]]!
            let f = files[index]
            let record = table.records[r]
            resolutions[r] = rewriter.resolutions(of: record)
            var diagnostics = scanned.get(index)?.diagnostics ?? []
            var document: Document
            if let d = scanned.get(index)?.document {
                document = d
            } else {
                let loaded = try batch.load(f, bytes: try DocumentLoader.read(f.path), modified: scanned.get(index)?.modified)
                document = loaded.0
                diagnostics = loaded.1
            }
            if !record.embeds.isEmpty {
                document = embeds.expand(document, path: f.relative, format: format, fileExtension: "xhtml", diagnostics: &diagnostics)
            }
            document = rewriter.rewrite(document, path: f.relative, resolutions: resolutions[r], format: format, fileExtension: "xhtml",
                                        notesIndex: false, root: "")
            document = prepare(document, chapterFiles, out.root, f.path, &diagnostics)
            let title = record.title ?? PathText.deletingExtension(PathText.lastComponent(f.relative))
            out.chapters.append(Chapter(document: document, name: chapterOf[r]!, title: title, file: f.path))
            if !diagnostics.isEmpty {
                observer?.tell(.diagnostics(file: f.path, diagnostics: diagnostics, origins: diagnostics.map { _ in "input" }))
            }
        }
        for p in LinkReport.problems(table, resolutions: resolutions) { observer?.tell(.note(p.description(file: sources[p.path] ?? p.path))) }
        out.title = navigation.siteTitle
        out.contents = contents(navigation, chapterOf: chapterOf)
        return out
    }

    /// The chapters' pages: the sidebar's reading order, then any page it leaves out, in table
    /// order (pages only, `SUMMARY.md` left out, `isFile`: a page of this run's files).
    static func readingOrder(_ table: SiteTable, _ navigation: SiteNavigation, isFile: (Int) -> Bool) -> [Int] {
        var order = navigation.order.filter { table.kinds[$0] == .page && $0 != table.summary && isFile($0) }
        let listed = Set(order)
        order += table.records.indices.filter { table.kinds[$0] == .page && $0 != table.summary && !listed.contains($0) && isFile($0) }
        return order
    }

    /// The path a link to page `r` has after ``SiteRewriter/rewrite(_:path:resolutions:format:fileExtension:notesIndex:root:outputFrom:)``
    /// with root `""` (from the root, extension `xhtml`, URL-encoded), without fragment.
    static func outputKey(_ table: SiteTable, _ r: Int) -> String {
        let stem = table.stems[r] ?? PathText.deletingExtension(table.paths[r])
        return SitePaths.urlPath(SitePaths.relative(fromFolder: "", to: stem + ".xhtml"))
    }

    /// The sidebar's tree as the book's contents: pages that are chapters, folders with chapters
    /// below them; parts, separators and external links left out.
    static func contents(_ nav: SiteNavigation, chapterOf: [Int: String]) -> [EPUBNavEntry] {
        func entry(_ n: Int, depth: Int) -> EPUBNavEntry? {
            let node = nav.nodes[n]
            guard node.role == .entry, node.url == nil, depth < ASTLimits.maxNestingDepth else { return nil }
            let children = node.children.compactMap { entry($0, depth: depth + 1) }
            let href = node.page.flatMap { chapterOf[$0] }
            if href == nil && children.isEmpty { return nil }
            return EPUBNavEntry(title: node.title, href: href, children: children)
        }
        return nav.top.compactMap { entry($0, depth: 0) }
    }
}
