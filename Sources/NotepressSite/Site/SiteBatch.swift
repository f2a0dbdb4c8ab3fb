import Foundation
import Notepress
import NotepressAST
import NotepressPlatform

/// The result of a folder run's two phases (``BatchConverter/runSite(_:otherFiles:previous:previousTable:copyAll:progress:)``).
package struct SiteRun: Sendable {
    /// One outcome per input page, in input order.
    package var outcomes: [FileOutcome]
    /// The site table the pages were rendered against.
    package var table: SiteTable
    /// The table as JSON Lines (``SiteTableCodec/encode(_:)``).
    package var tableBytes: [UInt8]
    /// The link report (``LinkReport``), in table order.
    package var problems: [LinkProblem]
    /// The broken links among ``problems`` (the rest are notices).
    package var brokenLinks: Int { problems.lazy.filter(\.isBroken).count }
    /// Each record's links resolved (by record index in ``table``; empty for other files): what
    /// rendering, the report, the table digests and asset copying read.
    package var resolutions: [SiteRewriter.Resolutions]
    /// Where each input's relative path came from (for messages: the path as found).
    package var sourcePaths: [String: String]
    /// The site-wide pages, rendered while the pages were (``runSite(_:otherFiles:previous:previousTable:siteTable:sitePages:progress:)``
    /// with `sitePages`), for ``BatchConverter/writeSitePages(_:tableBytes:sourcePaths:previous:previousTableBytes:unchanged:prerendered:)``.
    package var sitePages: PendingSitePages? = nil
}

/// What the scan phase found for one input.
struct ScannedInput: @unchecked Sendable {
    var record: SiteRecord?
    /// The record's JSON line (``SiteTableCodec/line(_:)``), made here on the scanning thread
    /// (or the previous table's, when the record is reused).
    var line: [UInt8]?
    /// The prepared document, kept for rendering when within the memory budget.
    var document: Document?
    var diagnostics: [Diagnostic] = []
    var error: NotepressError?
    /// The record is the previous run's (the input was not read).
    var reused = false
    /// Input bytes' SHA-256 (hex), when read; the previous one when reused.
    var inputSHA256 = ""
    /// The same, also without a manifest: what the table records of an embedded note
    /// (``SiteRecord/sha256``; set by ``BatchConverter/scanPhase(_:otherFiles:previous:previousTable:pool:)``).
    var contentSHA256: String?
    var inputSize: Int?
    var inputMtime: Int64?
    /// The date the page is read with when its front matter gives none (``DocumentLoader``): the
    /// commit that added its file (``GitDates``), else its modification time (clamped).
    var modified: Date?
    /// The files the page included (``BookDirectives``), as the command line reaches them.
    var includes: [String] = []
}

extension BatchConverter {
    /// Input bytes whose documents stay in memory from the scan to the rendering (64 MiB).
    static let keptDocumentBudget = 64 << 20

    /// Runs `body(i)` for `0..<count` on the pool's threads (or here when there is no pool).
    func parallel(_ count: Int, pool: WorkerPool?, _ body: @escaping @Sendable (Int) -> Void) {
        if let pool, count > 1 {
            pool.run(count, body)
        } else {
            for i in 0..<count { body(i) }
        }
    }

    /// Whether wiki links and block anchors are read in a document of `format`.
    func readsWikiLinks(_ format: SourceFormat) -> Bool { format == .note || loader.wikilinks }

    /// A document as the site uses it: heading ids assigned, block anchors taken out (when wiki
    /// links are read).
    func prepare(_ d: inout Document) {
        d.assignHeadingIDs()
        if readsWikiLinks(d.metadata.sourceFormat) { d = BlockAnchors.apply(d) }
    }

    /// Reads and prepares one input (``DocumentLoader``), `sourcePath` set to its relative path.
    func load(_ input: InputFile, bytes: [UInt8], modified: Date?) throws -> (Document, [Diagnostic]) {
        let page = try loadPage(input, bytes: bytes, modified: modified)
        return (page.document, page.diagnostics)
    }

    /// ``load(_:bytes:modified:)``, a book's chapter after its directives (``BookPages``), with
    /// the files it included.
    func loadPage(_ input: InputFile, bytes: [UInt8], modified: Date?) throws -> LoadedPage {
        let book = BookPages.expand(self, input, bytes: bytes)
        var read = try (book?.loader ?? loader).load(bytes: book?.expansion.bytes ?? bytes, path: input.path, modified: modified)
        if let book { BookPages.apply(book.expansion, to: &read) }
        // Writers that record the source (TEI's idno, the JSON dump) get the path below the
        // input folder: no absolute path of this machine in the output.
        read.document.metadata.sourcePath = input.relative
        var document = read.document
        read.document.blocks = []  // `document` holds the only reference: ids are set in place
        prepare(&document)
        return LoadedPage(document: document, diagnostics: read.diagnostics + SiteSummary.diagnostics(input.relative, document: document, bytes: bytes),
                          includes: book?.expansion.includes ?? [], includesSHA256: book.map { BookPages.digest($0.expansion) })
    }

    /// Phase 1 for one input: its record, from the previous table when the input is unchanged
    /// (size and time, else bytes), else from its parsed document.
    func scan(_ input: InputFile, previous: Manifest.Entry?, previousRecord: SiteRecord?, previousLine: [UInt8]? = nil,
              budget: ByteBudget) -> ScannedInput {
        var s = ScannedInput()
        do {
            let st = Platform.status(input.path)
            if st?.kind == .directory { throw NotepressError.fileUnreadable(file: input.path, code: SystemError.isAFolder.code) }
            let regular = st?.kind == .regular
            s.inputSize = regular ? st?.size : nil
            s.inputMtime = regular ? st?.modifiedNanoseconds : nil
            let sameConfig = configuration != nil && previous?.configSHA256 == configuration?.sha256
            if sameConfig, let prev = previous, let record = previousRecord, record.kind == .page, record.format != nil,
               let size = s.inputSize, let mtime = s.inputMtime, prev.inputSize == size, prev.inputMtimeNanoseconds == mtime,
               gitDates?.head == previousGitHead {
                s.record = record
                s.line = previousLine
                s.reused = true
                s.inputSHA256 = prev.inputSHA256
                s.contentSHA256 = prev.inputSHA256.isEmpty ? nil : prev.inputSHA256
                s.modified = prev.modified.map { Date(timeIntervalSince1970: $0) }
                return s
            }
            // read(2) until end of file: a FIFO or `<(…)` input reads like a regular file.
            let bytes = try DocumentLoader.read(input.path)
            // The time of the status above (``DocumentLoader/modificationDate(_:)`` would stat again).
            var fileTime = st.map { Date(timeIntervalSince1970: $0.modifiedSeconds) }
            if let m = fileTime, let sde = loader.sourceDateEpoch { fileTime = min(m, sde) }
            // Dates from history when the file is in it (an uncommitted edit: updated is its time).
            let history = gitDates?.dates(for: input.relative)
            let modified = history?.created ?? fileTime
            // Whole seconds, as the date's file time (``DocumentLoader``): no sub-second noise.
            let updated = history?.updated ?? fileTime.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) }
            s.modified = modified
            // The input's hash: the manifest's, and the table's when a page embeds this one.
            let sha256 = SHA256.hex(bytes)
            s.contentSHA256 = sha256
            if configuration != nil { s.inputSHA256 = sha256 }
            if sameConfig, let prev = previous, let record = previousRecord, record.kind == .page, record.format != nil,
               prev.inputSHA256 == s.inputSHA256, prev.modified == modified?.timeIntervalSince1970 {
                var record = record
                s.line = Self.setUpdated(&record, updated) ? SiteTableCodec.line(record) : previousLine
                s.record = record
                s.reused = true
                return s
            }
            let (document, diagnostics, includes, includesSHA256) = try loadPage(input, bytes: bytes, modified: modified).parts
            if let includesSHA256 {
                // A chapter with directives (``BookDirectives``): its hash covers the files they
                // include, and it is read again on every run (its own size and time do not tell
                // whether an included file changed, or a missing one appeared).
                s.includes = includes
                s.inputSize = nil
                if configuration != nil { s.inputSHA256 = SHA256.hex(Array((sha256 + includesSHA256).utf8)) }
            }
            var record = SiteScanner.record(input.relative, document: document)
            _ = Self.setUpdated(&record, updated)
            s.record = record
            s.line = SiteTableCodec.line(record)
            s.diagnostics = diagnostics
            if budget.take(bytes.count) { s.document = document }
        } catch {
            s.error = NotepressError.wrapping(error, file: input.path)
        }
        return s
    }

    /// Sets `record`'s ``SiteRecord/updated`` to `date` (ISO 8601), left out when it is not later
    /// than the record's `created` (a file older than the date its front matter gives); whether
    /// it changed.
    static func setUpdated(_ record: inout SiteRecord, _ date: Date?) -> Bool {
        var iso = date.map { CivilDateTime($0).iso8601 }
        if let d = date, let c = record.created.flatMap(CivilDateTime.parse), d <= c { iso = nil }
        guard iso != record.updated else { return false }
        record.updated = iso
        return true
    }

    /// Phase 1 over `files`: each input scanned (``scan(_:previous:previousRecord:budget:)``, in
    /// parallel on `pool`), and the site records of `files` and `otherFiles` (a page that failed to
    /// read is still a page record without facts, so links to it are not broken links). `notepress
    /// scan` writes these records; ``runSite(_:otherFiles:previous:previousTable:siteTable:sitePages:progress:)``
    /// renders against them.
    func scanPhase(_ files: [InputFile], otherFiles: [InputFile], previous: Manifest, previousTable: SiteTable?,
                   pool: WorkerPool?) -> (scanned: Slots<ScannedInput>, records: [SiteRecord], lines: [[UInt8]?], others: [InputFile]) {
        let scanned = Slots<ScannedInput>(count: files.count)
        let budget = ByteBudget(Self.keptDocumentBudget)
        parallel(files.count, pool: pool) { i in
            let f = files[i]
            let old = previousTable?.byPath[f.relative]
            scanned.set(i, scan(f, previous: previous.entries[f.relative], previousRecord: old.map { previousTable!.records[$0] },
                                previousLine: old.map { previousTable!.lines[$0] }, budget: budget))
        }
        var records: [SiteRecord] = []
        var lines: [[UInt8]?] = []
        var hashes: [String?] = []
        records.reserveCapacity(files.count + otherFiles.count)
        lines.reserveCapacity(files.count + otherFiles.count)
        hashes.reserveCapacity(files.count)
        for i in files.indices {
            let found = scanned.read(i) { s -> Bool in
                guard let r = s?.record else { return false }
                records.append(r)
                lines.append(s?.line)
                hashes.append(s?.contentSHA256)
                return true
            }
            if !found, DocumentLoader.format(forPath: files[i].relative) != nil || files[i].path != "-" {
                // A page that failed to read is still a page of the site: links to it are not
                // broken links (its failure is reported on its own). No format: not listed.
                records.append(SiteRecord(path: files[i].relative, kind: .page))
                lines.append(nil)
                hashes.append(nil)
            }
        }
        // The input hash of each note a page may embed, and of no other: an edit of a note no
        // page embeds leaves the table as it was (a sharded build re-runs one shard).
        let names = SiteEmbeds.embedNames(records)
        for i in hashes.indices where records[i].kind == .page {
            let wanted = SiteEmbeds.mayBeEmbedded(records[i], names: names) ? hashes[i] : nil
            if records[i].sha256 != wanted {
                records[i].sha256 = wanted
                lines[i] = nil
            }
        }
        // Files given themselves: the images beside them are the site's files too.
        var others = otherFiles
        if files.contains(where: \.given) {
            others += SiteScanner.besideFiles(files, records: records, known: Set(records.map(\.path) + otherFiles.map(\.relative)))
        }
        for f in others { records.append(SiteScanner.fileRecord(f.relative)); lines.append(nil) }
        return (scanned, records, lines, others)
    }

    /// `notepress scan`: the site table of `files` (pages) and `otherFiles` (assets), with the
    /// errors of inputs that could not be read (their records are pages without facts, as in
    /// ``runSite(_:otherFiles:previous:previousTable:siteTable:sitePages:progress:)``). No output is written.
    package func scanTable(_ files: [InputFile], otherFiles: [InputFile] = []) -> (table: SiteTable, errors: [NotepressError]) {
        let pool = jobs > 1 && files.count > 1 ? WorkerPool(threads: min(jobs, files.count)) : nil
        defer { pool?.finish() }
        let (scanned, records, lines, _) = scanPhase(files, otherFiles: otherFiles, previous: Manifest(), previousTable: nil, pool: pool)
        let errors = files.indices.compactMap { scanned.get($0)?.error }
        return (SiteTable(records: records, lines: lines), errors)
    }

    /// Converts a site: phase 1 scans every input into the ``SiteTable`` (in parallel; unchanged
    /// inputs keep their record from `previousTable`), phase 2 renders every page against it (in
    /// parallel; a page whose input, configuration, table digest (``SiteRewriter/digest(of:resolutions:)``)
    /// and outputs are unchanged is skipped). `otherFiles` are the files of other kinds found in
    /// the input folders (assets). Output bytes and the order of outcomes do not depend on ``jobs``.
    /// Site-wide outputs are left to the caller: ``writeIndex(_:previous:previousTableBytes:)``,
    /// ``copyAssets(_:previous:copyAll:records:)``, ``manifest(after:previous:keepUnseen:)``.
    ///
    /// A shard (`siteTable` given: `notepress convert --site-table`) renders `files` against that
    /// table, made by `notepress scan` over every input, instead of a table of `files` alone: each
    /// page's scanned record must be the table's (else the page fails: the table is out of date),
    /// two pages with one output clash as in the table's page order, and only the shard's own pages
    /// are resolved (``SiteRun/problems`` is empty: `notepress index` reports the site's links).
    ///
    /// `sitePages`: the caller writes the site-wide pages after the run; with several jobs they are
    /// rendered from the table while the pages are (``SiteRun/sitePages``), unless the table is
    /// `previousTable`'s (a re-run that may write none).
    package func runSite(_ files: [InputFile], otherFiles: [InputFile] = [], previous: Manifest = Manifest(),
                        previousTable: SiteTable? = nil, siteTable: SiteTable? = nil, sitePages: Bool = false,
                        progress: (@Sendable (Int, FileOutcome) -> Void)? = nil) -> SiteRun {
        // One pool of threads for both phases (64 MiB stacks, as deep as the main thread, for
        // documents nested to ``ASTLimits/maxNestingDepth``).
        let pool = jobs > 1 && files.count > 1 ? WorkerPool(threads: min(jobs, files.count)) : nil
        defer { pool?.finish() }
        // Phase 1: scan.
        let (scanned, records, lines, others) = scanPhase(files, otherFiles: otherFiles, previous: previous, previousTable: previousTable,
                                                          pool: pool)
        let table = siteTable ?? SiteTable(records: records, lines: lines)
        if let siteTable { Self.checkAgainstTable(siteTable, files: files, scanned: scanned) }
        let rewriter = SiteRewriter(resolver: SiteResolver(table: table))
        // Every page's links are resolved once, by its rendering: digests, the report and the
        // assets read them too.
        let resolved = Slots<SiteRewriter.Resolutions>(count: table.records.count)
        // What HTML pages show of the rest of the site: links to tag pages, backlinks (which need
        // every page's links resolved before any page is rendered).
        let htmlPages = options.makesHTMLPages(writers)
        var backlinks: [[Int]] = []
        if htmlPages && options.backlinks {
            parallel(table.records.count, pool: pool) { i in
                if table.kinds[i] == .page { resolved.set(i, rewriter.resolutions(of: table.records[i])) }
            }
            backlinks = SiteBacklinks.compute(table, resolutions: table.records.indices.map { resolved.get($0) ?? [:] })
        }
        var pageExtras = SitePageExtras(tagPages: htmlPages && SiteTags.hasTags(table), backlinks: backlinks)
        if htmlPages { pageExtras.navigation = SiteNavigation(table, siteTitle: options.siteTitle, nav: book?.nav,
                                                                    extras: (book?.extraStylesheets ?? [], book?.extraScripts ?? []),
                                                                    printPage: SitePrint.wanted(table, options: options)) }
        pageExtras.notFoundRoot = SitePaths.notFoundRoot(baseURL: options.baseURL)
        pageExtras.editURL = options.editURL
        let extras = pageExtras
        var sources: [String: String] = [:]
        sources.reserveCapacity(files.count + others.count)
        for f in files { sources[f.relative] = f.path }
        for f in others { sources[f.relative] = f.path }
        let embeds = SiteEmbeds.forRun(self, rewriter: rewriter, sources: sources, sharded: siteTable != nil)
        let pendingSitePages = sitePages && htmlPages && jobs > 1 && siteTable == nil && previousTable?.lines != table.lines
            ? PendingSitePages(self, table: table, sourcePaths: sources) : nil

        // Each input's output path per writer, made once here.
        let outputs = files.map { f in writers.map { outputPath(f, $0, table: table) } }
        let clashes = outputClashes(files, outputs: outputs, table: table, sharded: siteTable != nil)
        let context = OutputGuard(root: InputScanner.realPath(outputRoot), inputFolders: inputFolders,
                                  inputFiles: LazyIdentities(files.map(\.path) + others.map(\.path)))

        makeOutputFolders(outputs, context: context)

        // Phase 2: render.
        let results = Slots<FileOutcome>(count: files.count)
        parallel(files.count, pool: pool) { i in
            var outcome: FileOutcome
            let s = scanned.get(i)!
            var r: SiteRewriter.Resolutions = [:]
            if let record = s.record, let index = table.byPath[record.path], table.records[index].path == files[i].relative {
                if let done = resolved.get(index) {
                    r = done
                } else {
                    r = rewriter.resolutions(of: table.records[index])
                    resolved.set(index, r)
                }
            }
            if let e = clashes[i] {
                outcome = FileOutcome(input: files[i])
                outcome.error = e
                outcome.status = .failed
                if configuration != nil { outcome.entry = Self.failedEntry(previous: previous.entries[files[i].relative], written: []) }
            } else {
                outcome = render(files[i], s, rewriter: rewriter, resolutions: r, extras: extras, guard: context,
                                 previous: previous.entries[files[i].relative], embeds: embeds)
            }
            // The document goes with this iteration, while it is still in the caches (not all at
            // the end).
            scanned.update(i) { $0?.document = nil }
            results.set(i, outcome)
            progress?(i, outcome)
        }
        // Records no rendering resolved (other files, a page whose path two inputs share): resolved here.
        var resolutions: [SiteRewriter.Resolutions] = []
        resolutions.reserveCapacity(table.records.count)
        for (i, record) in table.records.enumerated() {
            // A shard resolves its own pages only (the site's other pages are other shards').
            resolutions.append(resolved.get(i) ?? (record.kind == .page && siteTable == nil ? rewriter.resolutions(of: record) : [:]))
        }
        return SiteRun(outcomes: results.values(), table: table, tableBytes: SiteTableCodec.encode(table),
                       problems: siteTable == nil ? LinkReport.problems(table, resolutions: resolutions) : [],
                       resolutions: resolutions,
                       sourcePaths: sources, sitePages: pendingSitePages)
    }

    /// A shard's check: each page's scanned record must be the site table's (else the page fails:
    /// the table is out of date).
    static func checkAgainstTable(_ siteTable: SiteTable, files: [InputFile], scanned: Slots<ScannedInput>) {
        for (i, f) in files.enumerated() {
            guard let s = scanned.get(i), s.error == nil else { continue }
            let expected = siteTable.record(f.relative)
            // The input hash is in the table when a page of any shard embeds this one
            // (``SiteEmbeds/mayBeEmbedded(_:names:)`` over the whole site): it must be this input's.
            var mine = s.record
            mine?.sha256 = expected?.sha256 == nil ? nil : s.contentSHA256
            if expected == nil || expected != mine {
                scanned.update(i) {
                    $0?.error = .failed(file: f.path, position: nil, message: expected == nil
                        ? "not in the site table; run notepress scan again"
                        : "the site table's record differs from this input; run notepress scan again")
                }
            }
        }
    }

    /// Two inputs with the same output (a.md, a.note): the later one in order fails, whatever
    /// the job count; in a shard, the owner of each output is the first page of the whole table.
    func outputClashes(_ files: [InputFile], outputs: [[String]], table: SiteTable, sharded: Bool) -> [Int: NotepressError] {
        var owner: [String: String] = [:]
        var clash: [Int: NotepressError] = [:]
        if sharded {
            // A shard: the owner of each output is the first page of the whole table that has it.
            for r in table.records where r.kind == .page {
                let f = InputFile(path: r.path, relative: r.path)
                for w in writers { let out = outputPath(f, w, table: table); if owner[out] == nil { owner[out] = r.path } }
            }
            for (i, f) in files.enumerated() {
                for out in outputs[i] {
                    if let first = owner[out], first != f.relative {
                        clash[i] = .outputRefused(file: f.path, message: "output \(out) is also the output of \(first); not converted")
                        break
                    }
                }
            }
            owner = [:]
        }
        for (i, f) in files.enumerated() where !sharded {
            for out in outputs[i] {
                if let first = owner[out] {
                    clash[i] = .outputRefused(file: f.path, message: "output \(out) is also the output of \(first); not converted")
                    break
                }
            }
            if clash[i] == nil { for out in outputs[i] { owner[out] = f.path } }
        }
        return clash
    }

    /// The output folders, made on one thread, each once: threads writing into a folder
    /// that does not exist yet would each try to make it (mkdir locks the parent folder).
    /// Only folders that resolve inside the output folder and outside the input folders (the
    /// rule of ``OutputGuard``): any other is left for the output guard to report per file.
    func makeOutputFolders(_ outputs: [[String]], context: OutputGuard) {
        var folders = Set<String>()
        for paths in outputs { for out in paths { folders.insert(PathText.deletingLastComponent(out)) } }
        let rootReal = context.root
        for folder in folders.sorted() where Platform.status(folder) == nil {
            let real = InputScanner.realPath(folder)
            guard real.hasPrefix(rootReal == "/" ? "/" : rootReal + "/"),
                  !inputFolders.contains(where: { real.hasPrefix($0 + "/") && !rootReal.hasPrefix($0 + "/") }) else {
                continue
            }
            _ = Platform.makeDirectories(folder)
        }
    }
}
