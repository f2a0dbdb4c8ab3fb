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
        /// The folder its images' paths start from (after the site's rewriting).
        package var imageFolder: String
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
        /// The inputs are a folder (else several files, in the command line's order: the
        /// contents then follow the chapters, not the sidebar).
        package var fromFolder = true
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
        let (scanned, records, lines, others) = batch.scanPhase(files, otherFiles: scan.others, previous: Manifest(), previousTable: nil,
                                                                pool: pool)
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
            document = prepare(document, chapterFiles, inputs.root ?? imageBase(f), f.path, &diagnostics)
            let title = record.title ?? PathText.deletingExtension(PathText.lastComponent(f.relative))
            out.chapters.append(Chapter(document: document, name: chapterOf[r]!, title: title, file: f.path,
                                        imageFolder: inputs.root ?? imageBase(f)))
            if !diagnostics.isEmpty {
                observer?.tell(.diagnostics(file: f.path, diagnostics: diagnostics, origins: diagnostics.map { _ in "input" }))
            }
        }
        for p in LinkReport.problems(table, resolutions: resolutions) { observer?.tell(.note(p.description(file: sources[p.path] ?? p.path))) }
        // Several files: `--site-title`, else the first chapter's title (pandoc's metadata of the first file).
        out.fromFolder = !scan.folders.isEmpty
        out.title = !out.fromFolder && request.options.siteTitle == nil ? out.chapters.first?.title ?? navigation.siteTitle
            : navigation.siteTitle
        out.contents = contents(navigation, chapterOf: chapterOf)
        return out
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

    /// The sidebar's tree as the book's contents: pages that are chapters, folders with chapters
    /// below them. A part title of `SUMMARY.md` (`# Part`) heads the entries after it, up to the
    /// next part or separator, as mdBook's sidebar groups them (in an EPUB a `span` with their
    /// list in the navigation document, a navPoint at its first chapter in the NCX); a part
    /// without chapters, separators and external links are left out.
    static func contents(_ nav: SiteNavigation, chapterOf: [Int: String]) -> [EPUBNavEntry] {
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
