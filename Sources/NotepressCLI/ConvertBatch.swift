import Foundation
import Notepress
import NotepressSite

extension ConvertPlan {
    /// Converts folders and several files into the output folder: the inputs in parallel, then
    /// the HTML index, `--prune`, the manifest and the depfile.
    ///
    /// Standard error: a progress bar on a terminal; elsewhere nothing per file unless
    /// `--verbose` (`converted PATH` lines). Then per file ``WarningReport`` (one line for a file
    /// with several warnings), and a summary line; failures are listed at the end. `-q`: errors only.
    /// - Throws: ``UsageError`` when the output folder lies inside an input folder (nothing is converted).
    func convertBatch() throws -> Int32 { try runBatch().status }

    /// What a folder run did: its exit status, its failures (`file:line:column: error: …`, as
    /// printed), and how many files it wrote or removed (0: the outputs are as they were).
    struct BatchSummary {
        var status: Int32
        var failures: [String]
        var written: Int
    }

    /// ``convertBatch()``, telling what it did. `keepForExit`: leave the run's records for the
    /// exit to reclaim (a run that ends the process); a watching run frees them after each build.
    func runBatch(keepForExit: Bool = true) throws -> BatchSummary {
        let env = ProcessInfo.processInfo.environment
        guard let outDir = output else { throw UsageError("an output folder is needed (-o DIR)") }
        // The previous manifest and site table are read while the inputs are scanned.
        let manifestBox = ManifestBox()
        let manifestRead = DispatchGroup()
        if !arguments.flag("--force") {
            manifestRead.enter()
            let t = Thread {
                manifestBox.value = Manifest.load(outputRoot: outDir)
                if let data = FileManager.default.contents(atPath: outDir + "/" + SiteTableCodec.fileName) {
                    manifestBox.tableBytes = [UInt8](data)
                    manifestBox.table = SiteTableCodec.decode(manifestBox.tableBytes!)
                }
                manifestRead.leave()
            }
            t.start()
        }
        // Inputs: INPUTs walked, or a list, a site table and a shard of it (a shard run).
        let shardInputs: ShardInputs
        do {
            shardInputs = try ShardInputs.resolve(self)
        } catch {
            manifestRead.wait()
            throw error
        }
        let scan = shardInputs.scan
        let siteTable = shardInputs.siteTable
        manifestRead.wait()
        let outReal = InputScanner.realPath(outDir)
        for folder in scan.folders where outReal == folder || outReal.hasPrefix(folder + "/") {
            // Inside it is fine when the walk leaves it out (`--exclude _site`, an ignore file).
            if outReal != folder, InputScanner.leavesOut(String(outReal.dropFirst(folder.count + 1)), in: folder, selection: selection) {
                continue
            }
            throw UsageError("output folder \(outDir) is inside the input folder \(folder); choose a folder outside it, "
                + "or leave it out of the input (--exclude, .notepressignore)")
        }
        for w in scan.warnings where verbosity != .quiet { printError(w.description) }
        // Held until the run ends: no other run removes this run's temporaries (in
        // OUT/.notepress-tmp) while it writes; taken alone, it first removes the temporaries a
        // killed run left there, and nothing else (Temporaries).
        let outputLock = OutputFolderLock(outDir)
        if verbosity == .verbose { for p in outputLock.removed { printError("removed \(p) (a temporary file of an interrupted run)") } }
        // Wiki links in Markdown: on for folders unless --no-wikilinks (see --help).
        var loader = self.loader
        loader.wikilinks = !arguments.flag("--no-wikilinks")
        let config = BuildConfiguration(options: options, loader: loader, writers: writers.map(\.name), layout: layout,
                                        version: notepressVersion, themeFile: themeFile,
                                        commandLine: fingerprintedOptions)
        var batch = BatchConverter(loader: loader, writers: writers, options: options, outputRoot: outDir, layout: layout,
                                   jobs: jobs, configuration: config)
        batch.inputFolders = scan.folders
        batch.book = book
        if verbosity != .quiet { for w in book?.warnings ?? [] { printError(w) } }
        batch.followSymlinks = selection.followSymlinks
        let start = Date()
        let previous = manifestBox.value
        let quiet = verbosity == .quiet
        let style: ProgressReporter.Style = switch ProgressReporter.style(quiet: quiet) {
        case .lines: verbosity == .verbose ? .lines : .quiet
        case let s: s
        }
        let reporter = ProgressReporter(style: style, total: scan.files.count,
                                        width: TerminalSize.columns(environment: env, fd: STDERR_FILENO))
        var run = batch.runSite(scan.files, otherFiles: scan.others, previous: previous, previousTable: manifestBox.table,
                                siteTable: siteTable, sitePages: !scan.folders.isEmpty) { _, outcome in
            let event: ProgressReporter.Event = switch outcome.status {
            case .converted: .converted
            case .skipped: .skipped
            case .failed: .failed
            }
            reporter.record(event, path: outcome.input.path)
        }
        let outcomes = run.outcomes
        reporter.finish()
        if let siteTable, let root = shardInputs.root {
            // A shard copies the assets its pages use, wherever they are in the input folder.
            for (i, p) in siteTable.paths.enumerated() where siteTable.kinds[i] == .file && run.sourcePaths[p] == nil {
                run.sourcePaths[p] = root.hasSuffix("/") ? root + p : root + "/" + p
            }
        }
        var failures = scan.errors
        // A warning another input already gave (about an embed written in a note that several
        // pages embed, or in the note itself) is printed once, with the first input that gives it.
        var printed = Set<String>()
        // Constructs read and not converted (``Diagnostic/notConverted``), each counted once.
        var notConverted = 0
        for o in outcomes {
            var mine = Set<String>()
            // Documents of a folder know themselves by their path below it (outputs hold no
            // absolute paths); messages name the file as the command line reached it.
            var diagnostics: [Diagnostic] = []
            var origins: [String] = []
            for (d, origin) in zip(o.diagnostics, o.diagnosticOrigins) {
                var d = d
                if d.file == o.input.relative { d.file = o.input.path }
                if printed.contains(d.description) { continue }
                mine.insert(d.description)
                if d.notConverted { notConverted += 1 }
                diagnostics.append(d)
                origins.append(origin)
            }
            printed.formUnion(mine)
            WarningReport.print(FileDiagnostics(file: o.input.path, diagnostics: diagnostics, origins: origins),
                                verbosity)
            if let e = o.error { failures.append(e) }
        }
        // The link report: every broken link once, in table order.
        let strict = arguments.flag("--strict-links")
        if strict || !quiet {
            for p in run.problems {
                printError(p.description(file: run.sourcePaths[p.path] ?? p.path, severity: strict && p.isBroken ? "error" : "warning"))
            }
        }
        // Site-wide pages (the notes list, tag pages): from the site table alone.
        var site = SitePagesResult()
        if !scan.folders.isEmpty && siteTable == nil {
            site = batch.writeSitePages(run.table, tableBytes: run.tableBytes, sourcePaths: run.sourcePaths, previous: previous,
                                        previousTableBytes: manifestBox.tableBytes,
                                        unchanged: BatchConverter.manifestUnchanged(outcomes, previous: previous),
                                        prerendered: run.sitePages)
            failures += site.errors
            for w in site.warnings where !quiet { printError(w.description) }
            if verbosity == .verbose {
                if let path = site.indexPath { printError("index: \(path)") }
                for p in site.written where p != site.indexPath { printError("\(siteFileLabel(p)): \(p)") }
            }
        }
        let indexPath = site.indexPath
        let indexRecord = site.indexRecord
        // A shard with --copy-all copies the other files of its own share (not every shard all of them).
        let shardFiles = siteTable.map { t in scan.others.compactMap { t.byPath[$0.relative] }.filter { t.kinds[$0] == .file } }
        let assets = batch.copyAssets(run, previous: previous, copyAll: arguments.flag("--copy-all"),
                                      records: arguments.flag("--copy-all") ? shardFiles : nil)
        failures += assets.errors
        if verbosity == .verbose { for a in assets.copied { printError("copied \(a)") } }
        let prune = arguments.flag("--prune")
        let pruned = prune ? batch.prune(previous: previous, outcomes: outcomes, index: indexPath, assets: assets,
                                        sitePages: site.paths) : []
        for p in pruned where !quiet { printError("removed \(p)") }
        if siteTable != nil {
            // A shard: its manifest part only; `notepress index` merges the parts.
            var entries: [String: Manifest.Entry] = [:]
            // A failed page has no entry in a part: `notepress index` reports it as having no output.
            for o in outcomes where o.error == nil { if let e = o.entry { entries[o.input.relative] = e } }
            let part = ManifestPart(covered: outcomes.map(\.input.relative), manifest: Manifest(entries: entries, assets: assets.assets))
            do {
                let path = try part.save(outputRoot: outDir)
                if verbosity == .verbose { printError("manifest part: \(path)") }
            } catch {
                failures.append(Self.failure(error, file: outDir + "/" + ManifestPart.folderName))
            }
        } else { do {
            var manifest = batch.manifest(after: outcomes, previous: previous, keepUnseen: !prune)
            manifest.index = indexRecord
            manifest.sitePages = site.tagPages
            if !prune {
                // Tag pages of tags no page has any more stay recorded for a later --prune.
                let now = Set(site.tagPages.map { $0.path })
                manifest.sitePages += previous.sitePages.filter { !now.contains($0.path) }
                manifest.sitePages.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
            }
            manifest.assets = assets.assets
            if !prune {
                // Assets copied by earlier runs and not used now stay recorded for a later --prune.
                for (k, v) in previous.assets where manifest.assets[k] == nil { manifest.assets[k] = v }
            }
            // A no-change run leaves the manifest as it was: skip re-encoding and rewriting it.
            let changed = indexRecord != previous.index || manifest.assets != previous.assets || manifest.sitePages != previous.sitePages
                || !BatchConverter.manifestUnchanged(outcomes, previous: previous) && manifest != previous
            let onDisk = Platform.status(outDir + "/" + Manifest.fileName) != nil
            let legacy = Platform.status(outDir + "/" + Manifest.legacyFileName) != nil
            if changed || !onDisk || legacy { try manifest.save(outputRoot: outDir) }
            if manifestBox.tableBytes != run.tableBytes {
                try AtomicFile.write(run.tableBytes, to: outDir + "/" + SiteTableCodec.fileName)
            }
        } catch {
            failures.append(Self.failure(error, file: outDir + "/" + Manifest.fileName))
        } }
        let stamp = PathText.join(outDir, Depfile.stampName)
        if let depfile {
            var rules: [Depfile.Rule] = []
            for o in outcomes where o.error == nil {
                rules.append(Depfile.Rule(targets: o.written, prerequisites: [o.input.path] + o.dependencies + config.dependencyFiles))
            }
            // The run-wide rules name every input, failed ones too: a failed input stays a
            // prerequisite, so make runs again once it is fixed.
            // Every folder walked and ignore file read too: a note added to a subfolder, or an edited
            // .notepressignore, changes which pages there are.
            let given: [String] = inputs.filter { $0 != "-" }
            var seen = Set<String>()
            let every: [String] = (given + scan.walked + outcomes.map(\.input.path) + config.dependencyFiles + [book?.configFile].compactMap { $0 })
                .filter { seen.insert($0).inserted }
            if !site.paths.isEmpty {
                rules.append(Depfile.Rule(targets: site.paths, prerequisites: every))
            }
            for (key, a) in assets.assets.sorted(by: { $0.key < $1.key }) {
                rules.append(Depfile.Rule(targets: [outDir + "/" + key], prerequisites: [run.sourcePaths[a.source] ?? a.source]))
            }
            if siteTable == nil { rules.append(Depfile.Rule(targets: [stamp], prerequisites: every)) }
            do {
                try AtomicFile.write(Array(try Depfile.render(rules, phonyPrerequisites: true).utf8), to: depfile)
            } catch {
                failures.append(Self.failure(error, file: depfile))
            }
        }
        if !failures.isEmpty {
            // make must run again: the stamp goes, and no site-wide page is left newer than a
            // failed input (a target newer than its prerequisites is "up to date").
            _ = Platform.removeFile(stamp)
            Depfile.backdate(site.paths, before: failures.compactMap(\.file))
        } else if depfile != nil && siteTable == nil {
            do {
                try AtomicFile.write(Array("notepress \(notepressVersion)\n".utf8), to: stamp)
            } catch {
                failures.append(Self.failure(error, file: stamp))
            }
        }
        if !quiet {
            let secs = Date().timeIntervalSince(start)
            let converted = outcomes.filter { $0.status == .converted }.count
            let unchanged = outcomes.filter { $0.status == .skipped }.count
            // Binary files (chosen by -f or --include) are counted only when there are some.
            let binary = scan.binary.isEmpty ? "" : String(format: ", skipped %d (binary)", scan.binary.count)
            var line = String(format: "converted %d, skipped %d (unchanged), skipped %d (unknown kind)%@, failed %d in %.2f s; output in %@",
                              converted, unchanged, scan.skipped.count, binary, failures.count, secs, outDir)
            if !assets.assets.isEmpty { line += "; assets: copied \(assets.copied.count), unchanged \(assets.unchanged)" }
            if run.brokenLinks > 0 { line += "; broken links: \(run.brokenLinks)" }
            if notConverted > 0 { line += "; not converted: \(notConverted)" }
            printError(line)
            if verbosity == .verbose { for b in scan.binary { printError("skipped \(b): binary (a NUL byte in its first \(InputSelection.sniffLength) bytes)") } }
        }
        // The process ends after this: the records of 20 000 files are left for the exit to reclaim.
        if keepForExit { LeftToExit.leave((previous, run, scan)) }
        withExtendedLifetime(outputLock) {}
        let written = outcomes.filter { $0.status != .skipped }.count + site.written.count + assets.copied.count + pruned.count
        var summary = BatchSummary(status: 0, failures: failures.map(\.description), written: written)
        if !failures.isEmpty {
            printError("failed:")
            for f in failures { printError("  " + f.description) }
            summary.status = 1
        } else if strict && run.brokenLinks > 0 {
            printError("\(run.brokenLinks) broken link\(run.brokenLinks == 1 ? "" : "s") (--strict-links)")
            summary.status = 1
            summary.failures = run.problems.filter(\.isBroken).map { $0.description(file: run.sourcePaths[$0.path] ?? $0.path, severity: "error") }
        }
        return summary
    }

    /// A ``NotepressError`` for `error`: itself when it is one (it names its file already).
    static func failure(_ error: Error, file: String) -> NotepressError {
        NotepressError.wrapping(error, file: file)
    }
}

/// The manifest read on another thread while the inputs are scanned (read after the group's wait).
final class ManifestBox: @unchecked Sendable {
    var value = Manifest()
    /// The previous run's site table and its bytes (``SiteTableCodec/fileName``), when readable.
    var table: SiteTable?
    var tableBytes: [UInt8]?
}

/// What `--verbose` calls a file the site step wrote besides the notes list: tag pages, the
/// shared assets (`_notepress/`: stylesheet, script, search index, KaTeX), and the other site pages
/// (paginated lists, search, 404, sitemap, feed).
func siteFileLabel(_ path: String) -> String {
    func inFolder(_ folder: String) -> Bool { path.hasPrefix(folder + "/") || path.contains("/" + folder + "/") }
    if inFolder(SiteAssets.folder) { return "site asset" }
    if inFolder(SiteTags.folder) { return "tag page" }
    return "site page"
}
