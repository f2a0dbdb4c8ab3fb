import Foundation
import Notepress
import NotepressAST
import NotepressEPUB

/// A folder as one EPUB book (`notepress convert book/ -o book.epub`): the site engine's walk,
/// table and links, written as chapters of one package instead of pages of a site.
///
/// - Chapters: the pages in the order the site's sidebar shows them (``SiteNavigation``:
///   `SUMMARY.md` for an mdBook book, MkDocs' `nav:`, else `nav_order`/`weight`, title, path);
///   `SUMMARY.md` itself is not a chapter. The table of contents is the sidebar's tree.
/// - Links between notes: resolved by the site (``SiteRewriter``, wiki links included) and turned
///   into links to the chapter files (`ch002.xhtml#heading`); a link to nothing in the book is
///   written as its text, with a warning (``EPUBPreparation``).
/// - Images: each file packaged once, whichever chapters use it (``EPUBResources``).
/// - Metadata: the site's title (`--site-title`, `book.toml`'s, the root index page's), the first
///   chapter's language and author, the newest chapter date or `SOURCE_DATE_EPOCH`.
package enum EPUBBook {
    /// What a book run did.
    package struct Report: Sendable {
        /// The chapters written.
        package var chapters = 0
        /// Images packaged.
        package var images = 0
        /// Inputs that could not be read (`file: error: …`); the book is not written when there are some.
        package var failures: [String] = []
    }

    /// Writes the book of `request`'s inputs to `request.output` (a file), atomically.
    /// Diagnostics and the link report go to `observer`.
    /// - Throws: ``NotepressError`` when the inputs cannot be walked or the package written.
    package static func run(_ request: SiteBuildRequest, observer: (any SiteBuildObserver)? = nil) throws -> Report {
        let inputs = try SiteInputs.resolve(request.inputs, shard: nil, format: request.loader.format, selection: request.selection)
        let scan = inputs.scan
        for w in scan.warnings { observer?.tell(.note(w.description)) }
        for w in request.book?.warnings ?? [] { observer?.tell(.note(w)) }
        var loader = request.loader
        loader.wikilinks = request.wikilinks
        var batch = BatchConverter(loader: loader, writers: [EPUBWriter()], options: request.options, outputRoot: ".",
                                   jobs: request.jobs)
        batch.inputFolders = scan.folders
        batch.book = request.book
        let files = scan.files
        let pool = batch.jobs > 1 && files.count > 1 ? WorkerPool(threads: min(batch.jobs, files.count)) : nil
        let (scanned, records, lines, others) = batch.scanPhase(files, otherFiles: scan.others, previous: Manifest(), previousTable: nil,
                                                                pool: pool)
        pool?.finish()
        var report = Report()
        report.failures = scan.errors.map { "\($0)" } + files.indices.compactMap { scanned.get($0)?.error.map { "\($0)" } }
        guard report.failures.isEmpty else { return report }
        let table = SiteTable(records: records, lines: lines)
        let navigation = SiteNavigation(table, siteTitle: request.options.siteTitle ?? request.book?.title, nav: request.book?.nav)
        let rewriter = SiteRewriter(resolver: SiteResolver(table: table))
        var fileOf: [String: Int] = [:]
        for (i, f) in files.enumerated() { fileOf[f.relative] = i }
        var sources: [String: String] = [:]
        for f in files + others { sources[f.relative] = f.path }
        let embeds = SiteEmbeds.forRun(batch, rewriter: rewriter, sources: sources, sharded: false)
        let order = chapterOrder(table, navigation: navigation, files: files, fileOf: fileOf, folders: scan.folders)
        var chapterOf: [Int: String] = [:]
        var chapterFiles: [String: String] = [:]
        for (n, r) in order.enumerated() {
            let name = EPUBChapter.fileName(n)
            chapterOf[r] = name
            chapterFiles[outputKey(table, r)] = name
        }
        let resources = EPUBResources()
        var chapters: [EPUBChapter] = []
        var problems: [LinkProblem] = []
        var resolutions = [SiteRewriter.Resolutions](repeating: [:], count: table.records.count)
        for r in order {
            let f = files[fileOf[table.paths[r]]!]
            let record = table.records[r]
            resolutions[r] = rewriter.resolutions(of: record)
            var diagnostics = scanned.get(fileOf[table.paths[r]]!)?.diagnostics ?? []
            var document: Document
            if let d = scanned.get(fileOf[table.paths[r]]!)?.document {
                document = d
            } else {
                let loaded = try batch.load(f, bytes: try DocumentLoader.read(f.path), modified: scanned.get(fileOf[f.relative]!)?.modified)
                document = loaded.0
                diagnostics = loaded.1
            }
            if !record.embeds.isEmpty {
                document = embeds.expand(document, path: f.relative, format: .epub, fileExtension: "xhtml", diagnostics: &diagnostics)
            }
            document = rewriter.rewrite(document, path: f.relative, resolutions: resolutions[r], format: .epub, fileExtension: "xhtml",
                                        notesIndex: false, root: "")
            document = EPUBPreparation.prepare(document, baseFolder: inputs.root ?? imageBase(f), chapterFiles: chapterFiles, resources: resources,
                                               file: f.path, reportsMissing: false, diagnostics: &diagnostics)
            // Raw HTML is not rewritten by the site: its images are read from the note's own folder.
            let raw = EPUBPreparation.rawHTMLImages(document, folder: PathText.deletingLastComponent(f.path).isEmpty ? "."
                                                        : PathText.deletingLastComponent(f.path),
                                                    resources: resources, file: f.path, reportsMissing: false, diagnostics: &diagnostics)
            let title = record.title ?? PathText.deletingExtension(PathText.lastComponent(f.relative))
            chapters.append(EPUBChapter(document: document, fileName: chapterOf[r]!, title: title, rawHTMLImages: raw))
            if !diagnostics.isEmpty {
                observer?.tell(.diagnostics(file: f.path, diagnostics: diagnostics, origins: diagnostics.map { _ in "input" }))
            }
        }
        problems = LinkReport.problems(table, resolutions: resolutions)
        for p in problems { observer?.tell(.note(p.description(file: sources[p.path] ?? p.path))) }
        let first = chapters.first?.document
        let dates = chapters.compactMap(\.document.metadata.created)
        // Several files: `--site-title`, else the first chapter's title (pandoc's metadata of the first file).
        let title = scan.folders.isEmpty && request.options.siteTitle == nil ? chapters.first?.title ?? navigation.siteTitle
            : navigation.siteTitle
        var book = EPUBBookContent(title: title, language: first.map(EPUBPreparation.language(of:)) ?? "en",
                                   creators: first.map(EPUBPreparation.creators(of:)) ?? [], date: dates.max(),
                                   chapters: chapters, resources: resources,
                                   toc: scan.folders.isEmpty ? nil : tocEntries(navigation, chapterOf: chapterOf))
        book.direction = first.map(EPUBPreparation.direction(of:)) ?? .leftToRight
        var diagnostics: [Diagnostic] = []
        let bytes: [UInt8]
        do {
            bytes = try EPUBEmitter.render(book, options: EPUBWriter.epubOptions(request.options), diagnostics: &diagnostics)
        } catch {
            throw NotepressError.failed(file: request.output, position: nil, message: "epub: \(error)")
        }
        for d in diagnostics { observer?.tell(.note(d.description)) }
        try AtomicFile.write(bytes, to: request.output)
        report.chapters = chapters.count
        report.images = resources.images.count
        return report
    }

    /// The chapters' records in reading order. Several files: as the command line gives them
    /// (pandoc's order). A folder: the sidebar's reading order, then any page it leaves out, in
    /// table order.
    static func chapterOrder(_ table: SiteTable, navigation: SiteNavigation, files: [InputFile], fileOf: [String: Int],
                             folders: [String]) -> [Int] {
        if folders.isEmpty {
            return files.compactMap { f in table.byPath[f.relative].flatMap { table.kinds[$0] == .page ? $0 : nil } }
        }
        var order = navigation.order.filter { table.kinds[$0] == .page && $0 != table.summary && fileOf[table.paths[$0]] != nil }
        let listed = Set(order)
        order += table.records.indices.filter { table.kinds[$0] == .page && $0 != table.summary && !listed.contains($0)
            && fileOf[table.paths[$0]] != nil }
        return order
    }

    /// The folder an input's images are read from: the one its path below the input is relative
    /// to (the input folder of a folder's file, whose links the site made relative to it; a
    /// file's own folder when it was given itself).
    static func imageBase(_ f: InputFile) -> String {
        guard f.path.hasSuffix(f.relative), f.path.utf8.count > f.relative.utf8.count else { return "." }
        var base = String(f.path.dropLast(f.relative.count))
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        return base
    }

    /// The path a link to page `r` has after ``SiteRewriter/rewrite(_:path:resolutions:format:fileExtension:notesIndex:root:outputFrom:)``
    /// with root `""` (from the root, extension `xhtml`, URL-encoded), without fragment.
    static func outputKey(_ table: SiteTable, _ r: Int) -> String {
        let stem = table.stems[r] ?? PathText.deletingExtension(table.paths[r])
        return SitePaths.urlPath(SitePaths.relative(fromFolder: "", to: stem + ".xhtml"))
    }

    /// The sidebar's tree as the book's table of contents: pages that are chapters, folders with
    /// chapters below them. A part title of `SUMMARY.md` (`# Part`) heads the entries after it, up
    /// to the next part or separator, as mdBook's sidebar groups them (a `span` with their list in
    /// the navigation document, a navPoint at its first chapter in the NCX); a part without
    /// chapters, separators and external links are left out.
    static func tocEntries(_ nav: SiteNavigation, chapterOf: [Int: String]) -> [EPUBNavEntry] {
        func entry(_ n: Int, depth: Int) -> EPUBNavEntry? {
            let node = nav.nodes[n]
            guard node.role == .entry, node.url == nil, depth < ASTLimits.maxNestingDepth else { return nil }
            let children = node.children.compactMap { entry($0, depth: depth + 1) }
            let href = node.page.flatMap { chapterOf[$0] }
            if href == nil && children.isEmpty { return nil }
            return EPUBNavEntry(title: node.title, href: href, children: children)
        }
        var out: [EPUBNavEntry] = []
        var part: EPUBNavEntry?
        func closePart() {
            if let p = part, !p.children.isEmpty { out.append(p) }
            part = nil
        }
        for n in nav.top {
            switch nav.nodes[n].role {
            case .part:
                closePart()
                part = EPUBNavEntry(title: nav.nodes[n].title, href: nil)
            case .separator:
                closePart()
            case .entry:
                guard let e = entry(n, depth: 1) else { continue }
                if part != nil { part!.children.append(e) } else { out.append(e) }
            }
        }
        closePart()
        return out
    }
}
