import Foundation
import Notepress

/// One folder run (``SiteBuild/run(_:observer:)``), phase by phase: the previous manifest read
/// while the inputs are walked, the pages converted, then the site-wide pages, assets, `--prune`,
/// the manifest and the depfile.
struct SiteBuildRun {
    let request: SiteBuildRequest
    let observer: (any SiteBuildObserver)?

    private func tell(_ m: SiteBuildMessage) { observer?.tell(m) }

    /// The previous run's records, read on another thread while the inputs are scanned (read after the group's wait).
    final class Previous: @unchecked Sendable {
        var manifest = Manifest()
        /// The previous run's site table and its bytes (``SiteTableCodec/fileName``), when readable.
        var table: SiteTable?
        var tableBytes: [UInt8]?
    }

    func run() throws -> SiteBuildReport {
        let outDir = request.output
        // The previous manifest and site table are read while the inputs are scanned.
        let box = Previous()
        let manifestRead = DispatchGroup()
        if !request.force {
            manifestRead.enter()
            let t = Thread {
                box.manifest = Manifest.load(outputRoot: outDir)
                if let data = FileManager.default.contents(atPath: outDir + "/" + SiteTableCodec.fileName) {
                    box.tableBytes = [UInt8](data)
                    box.table = SiteTableCodec.decode(box.tableBytes!)
                }
                manifestRead.leave()
            }
            t.start()
        }
        // Inputs: INPUTs walked, or a list, a site table and a shard of it (a shard run).
        let inputs: SiteInputs
        do {
            inputs = try SiteInputs.resolve(request.inputs, shard: request.shard, format: request.loader.format,
                                            selection: request.selection)
        } catch {
            manifestRead.wait()
            throw error
        }
        manifestRead.wait()
        try checkOutputOutsideInputs(inputs.scan)
        for w in inputs.scan.warnings { tell(.note(w.description)) }
        // Held until the run ends: no other run removes this run's temporaries (in
        // OUT/.notepress-tmp) while it writes; taken alone, it first removes the temporaries a
        // killed run left there, and nothing else (Temporaries).
        let outputLock = OutputFolderLock(outDir)
        for p in outputLock.removed { tell(.detail("removed \(p) (a temporary file of an interrupted run)")) }
        var report = SiteBuildReport(output: outDir)
        var state = convert(inputs, previous: box, report: &report)
        writeOutputs(&state, previous: box, report: &report)
        // The process ends after this: the records of 20 000 files are left for the exit to reclaim.
        if request.keepForExit { LeftToExit.leave((box.manifest, state.run, inputs.scan)) }
        withExtendedLifetime(outputLock) {}
        return report
    }

    /// Refuses an output folder inside an input folder (it would be read as input on the next run).
    private func checkOutputOutsideInputs(_ scan: InputScan) throws {
        let outDir = request.output
        let outReal = InputScanner.realPath(outDir)
        for folder in scan.folders where outReal == folder || outReal.hasPrefix(folder + "/") {
            // Inside it is fine when the walk leaves it out (`--exclude _site`, an ignore file).
            if outReal != folder, InputScanner.leavesOut(String(outReal.dropFirst(folder.count + 1)), in: folder, selection: request.selection) {
                continue
            }
            throw SiteBuildRefusal("output folder \(outDir) is inside the input folder \(folder); choose a folder outside it, "
                + "or leave it out of the input (--exclude, .notepressignore)")
        }
    }

    /// What the page phase leaves for the outputs that follow.
    struct State {
        var batch: BatchConverter
        var config: BuildConfiguration
        var inputs: SiteInputs
        var run: SiteRun
        var failures: [NotepressError]
        var start: Date
    }

    /// Converts the pages (telling each one's diagnostics) and reports the site's links.
    private func convert(_ inputs: SiteInputs, previous: Previous, report: inout SiteBuildReport) -> State {
        let scan = inputs.scan
        let siteTable = inputs.siteTable
        let config = request.configuration
        var loader = request.loader
        loader.wikilinks = request.wikilinks
        var batch = BatchConverter(loader: loader, writers: request.writers, options: request.options, outputRoot: request.output,
                                   layout: request.layout, jobs: request.jobs, configuration: config)
        batch.inputFolders = scan.folders
        batch.book = request.book
        for w in request.book?.warnings ?? [] { tell(.note(w)) }
        // Pages' dates from the history of the git work tree the input folder is in (a run of one
        // folder; a shard's too, as `notepress scan` read them for its table).
        if request.gitDates {
            let (dates, warnings) = GitDates.forRun(folders: scan.folders, files: scan.files)
            for w in warnings { tell(.note(PathText.oneLine(request.inputs.first ?? scan.folders[0]) + ": warning: " + w)) }
            batch.gitDates = dates
        }
        batch.previousGitHead = previous.manifest.gitHead
        batch.followSymlinks = request.selection.followSymlinks
        let start = Date()
        observer?.willConvert(total: scan.files.count)
        let observer = self.observer
        var run = batch.runSite(scan.files, otherFiles: scan.others, previous: previous.manifest, previousTable: previous.table,
                                siteTable: siteTable, sitePages: !scan.folders.isEmpty) { _, outcome in
            observer?.converted(outcome.status, path: outcome.input.path)
        }
        observer?.didConvert()
        if let siteTable, let root = inputs.root {
            // A shard copies the assets its pages use, wherever they are in the input folder.
            for (i, p) in siteTable.paths.enumerated() where siteTable.kinds[i] == .file && run.sourcePaths[p] == nil {
                run.sourcePaths[p] = root.hasSuffix("/") ? root + p : root + "/" + p
            }
        }
        var failures = scan.errors
        failures += tellDiagnostics(run.outcomes, report: &report)
        tellLinkReport(run, report: &report)
        return State(batch: batch, config: config, inputs: inputs, run: run, failures: failures, start: start)
    }

    /// Tells each page's diagnostics: a warning another input already gave (about an embed
    /// written in a note that several pages embed, or in the note itself) once, with the first
    /// input that gives it. Returns the pages' failures.
    private func tellDiagnostics(_ outcomes: [FileOutcome], report: inout SiteBuildReport) -> [NotepressError] {
        var failures: [NotepressError] = []
        var printed = Set<String>()
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
                // Constructs read and not converted (``Diagnostic/notConverted``), each counted once.
                if d.notConverted { report.notConverted += 1 }
                diagnostics.append(d)
                origins.append(origin)
            }
            printed.formUnion(mine)
            tell(.diagnostics(file: o.input.path, diagnostics: diagnostics, origins: origins))
            if let e = o.error { failures.append(e) }
        }
        return failures
    }

    /// The link report: every broken link once, in table order (errors with `--strict-links`).
    func tellLinkReport(_ run: SiteRun, report: inout SiteBuildReport) {
        let strict = request.strictLinks
        for p in run.problems {
            let text = p.description(file: run.sourcePaths[p.path] ?? p.path, severity: strict && p.isBroken ? "error" : "warning")
            tell(strict ? .error(text) : .note(text))
        }
        report.strictLinks = strict
        report.brokenLinks = run.brokenLinks
        if strict && run.brokenLinks > 0 {
            report.brokenLinkErrors = run.problems.filter(\.isBroken).map {
                $0.description(file: run.sourcePaths[$0.path] ?? $0.path, severity: "error")
            }
        }
    }

    /// Tells what the site-wide pages step wrote and warned about.
    func tellSitePages(_ site: SitePagesResult) {
        for w in site.warnings { tell(.note(w.description)) }
        if let path = site.indexPath { tell(.detail("index: \(path)")) }
        for p in site.written where p != site.indexPath { tell(.detail("\(siteFileLabel(p)): \(p)")) }
    }

    /// The outputs after the pages: site-wide pages, assets, `--prune`, the manifest, the depfile and stamp.
    private func writeOutputs(_ state: inout State, previous box: Previous, report: inout SiteBuildReport) {
        let scan = state.inputs.scan
        let siteTable = state.inputs.siteTable
        let outcomes = state.run.outcomes
        let previous = box.manifest
        // Site-wide pages (the notes list, tag pages): from the site table alone.
        var site = SitePagesResult()
        if !scan.folders.isEmpty && siteTable == nil {
            site = state.batch.writeSitePages(state.run.table, tableBytes: state.run.tableBytes, sourcePaths: state.run.sourcePaths,
                                              previous: previous, previousTableBytes: box.tableBytes,
                                              unchanged: BatchConverter.manifestUnchanged(outcomes, previous: previous),
                                              prerendered: state.run.sitePages)
            state.failures += site.errors
            tellSitePages(site)
        }
        // A shard with --copy-all copies the other files of its own share (not every shard all of them).
        let shardFiles = siteTable.map { t in scan.others.compactMap { t.byPath[$0.relative] }.filter { t.kinds[$0] == .file } }
        let assets = state.batch.copyAssets(state.run, previous: previous, copyAll: request.copyAll,
                                            records: request.copyAll ? shardFiles : nil)
        state.failures += assets.errors
        for a in assets.copied { tell(.detail("copied \(a)")) }
        let pruned = request.prune ? state.batch.prune(previous: previous, outcomes: outcomes, index: site.indexPath, assets: assets,
                                                       sitePages: site.paths) : []
        for p in pruned { tell(.note("removed \(p)")) }
        if siteTable != nil {
            saveManifestPart(&state, assets: assets)
        } else {
            saveManifest(&state, previous: box, site: site, assets: assets)
        }
        writeDepfileAndStamp(&state, site: site, assets: assets)
        report.converted = outcomes.filter { $0.status == .converted }.count
        report.unchanged = outcomes.filter { $0.status == .skipped }.count
        report.skippedUnknown = scan.skipped.count
        report.binary = scan.binary
        report.assets = assets.assets.count
        report.assetsCopied = assets.copied.count
        report.assetsUnchanged = assets.unchanged
        report.failures = state.failures.map(\.description)
        report.seconds = Date().timeIntervalSince(state.start)
        report.written = outcomes.filter { $0.status != .skipped }.count + site.written.count + assets.copied.count + pruned.count
    }

    /// A shard: its manifest part only; `notepress index` merges the parts.
    private func saveManifestPart(_ state: inout State, assets: AssetCopy) {
        var entries: [String: Manifest.Entry] = [:]
        // A failed page has no entry in a part: `notepress index` reports it as having no output.
        for o in state.run.outcomes where o.error == nil { if let e = o.entry { entries[o.input.relative] = e } }
        var manifest = Manifest(entries: entries, assets: assets.assets)
        // The HEAD its pages were dated at: `index` records it as a one-process run does.
        manifest.gitHead = state.batch.gitDates?.head
        let part = ManifestPart(covered: state.run.outcomes.map(\.input.relative), manifest: manifest)
        do {
            let path = try part.save(outputRoot: request.output)
            tell(.detail("manifest part: \(path)"))
        } catch {
            state.failures.append(NotepressError.wrapping(error, file: request.output + "/" + ManifestPart.folderName))
        }
    }

    /// The manifest and the site table of a whole site.
    private func saveManifest(_ state: inout State, previous box: Previous, site: SitePagesResult, assets: AssetCopy) {
        let outDir = request.output
        let previous = box.manifest
        let outcomes = state.run.outcomes
        do {
            var manifest = state.batch.manifest(after: outcomes, previous: previous, keepUnseen: !request.prune)
            manifest.index = site.indexRecord
            manifest.sitePages = request.prune ? site.tagPages : Self.keepingTagPages(site.tagPages, previous: previous)
            manifest.assets = assets.assets
            if !request.prune {
                // Assets copied by earlier runs and not used now stay recorded for a later --prune.
                for (k, v) in previous.assets where manifest.assets[k] == nil { manifest.assets[k] = v }
            }
            // A no-change run leaves the manifest as it was: skip re-encoding and rewriting it.
            let changed = site.indexRecord != previous.index || manifest.assets != previous.assets || manifest.sitePages != previous.sitePages
                || manifest.gitHead != previous.gitHead
                || !BatchConverter.manifestUnchanged(outcomes, previous: previous) && manifest != previous
            let onDisk = Platform.status(outDir + "/" + Manifest.fileName) != nil
            let legacy = Platform.status(outDir + "/" + Manifest.legacyFileName) != nil
            if changed || !onDisk || legacy { try manifest.save(outputRoot: outDir) }
            if box.tableBytes != state.run.tableBytes {
                try AtomicFile.write(state.run.tableBytes, to: outDir + "/" + SiteTableCodec.fileName)
            }
        } catch {
            state.failures.append(NotepressError.wrapping(error, file: outDir + "/" + Manifest.fileName))
        }
    }

    /// The tag pages written now, and those of tags no page has any more, which stay recorded for
    /// a later `--prune` (a run without it, and `notepress index`), sorted by path.
    static func keepingTagPages(_ now: [Manifest.Output], previous: Manifest) -> [Manifest.Output] {
        let paths = Set(now.map { $0.path })
        return (now + previous.sitePages.filter { !paths.contains($0.path) })
            .sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    /// The depfile (`--depfile`) and, for a whole site with one, the stamp make's rules name; a
    /// failed run removes the stamp and backdates the site-wide pages.
    private func writeDepfileAndStamp(_ state: inout State, site: SitePagesResult, assets: AssetCopy) {
        let outDir = request.output
        let siteTable = state.inputs.siteTable
        let stamp = PathText.join(outDir, Depfile.stampName)
        if let depfile = request.depfile {
            let rules = depfileRules(state, site: site, assets: assets, stamp: stamp)
            do {
                try AtomicFile.write(Array(try Depfile.render(rules, phonyPrerequisites: true).utf8), to: depfile)
            } catch {
                state.failures.append(NotepressError.wrapping(error, file: depfile))
            }
        }
        if !state.failures.isEmpty {
            // make must run again: the stamp goes, and no site-wide page is left newer than a
            // failed input (a target newer than its prerequisites is "up to date").
            _ = Platform.removeFile(stamp)
            Depfile.backdate(site.paths, before: state.failures.compactMap(\.file))
        } else if request.depfile != nil && siteTable == nil {
            do {
                try AtomicFile.write(Array("notepress \(request.version)\n".utf8), to: stamp)
            } catch {
                state.failures.append(NotepressError.wrapping(error, file: stamp))
            }
        }
    }

    /// The depfile's rules: each page's outputs from its input and what it embeds, the site-wide
    /// pages and the stamp from every input, each asset from its source.
    private func depfileRules(_ state: State, site: SitePagesResult, assets: AssetCopy, stamp: String) -> [Depfile.Rule] {
        let outcomes = state.run.outcomes
        var rules: [Depfile.Rule] = []
        for o in outcomes where o.error == nil {
            rules.append(Depfile.Rule(targets: o.written, prerequisites: [o.input.path] + o.dependencies + state.config.dependencyFiles))
        }
        // The run-wide rules name every input, failed ones too: a failed input stays a
        // prerequisite, so make runs again once it is fixed.
        // Every folder walked and ignore file read too: a note added to a subfolder, or an edited
        // .notepressignore, changes which pages there are.
        let given: [String] = request.inputs.filter { $0 != "-" }
        var seen = Set<String>()
        let every: [String] = (given + state.inputs.scan.walked + outcomes.map(\.input.path) + state.config.dependencyFiles
                               + [request.book?.configFile].compactMap { $0 })
            .filter { seen.insert($0).inserted }
        if !site.paths.isEmpty {
            rules.append(Depfile.Rule(targets: site.paths, prerequisites: every))
        }
        for (key, a) in assets.assets.sorted(by: { $0.key < $1.key }) {
            rules.append(Depfile.Rule(targets: [request.output + "/" + key], prerequisites: [state.run.sourcePaths[a.source] ?? a.source]))
        }
        if state.inputs.siteTable == nil { rules.append(Depfile.Rule(targets: [stamp], prerequisites: every)) }
        return rules
    }
}

/// What `--verbose` calls a file the site step wrote besides the notes list: tag pages, the
/// shared assets (`_notepress/`: stylesheet, script, search index, KaTeX), and the other site pages
/// (paginated lists, search, 404, sitemap, feed).
package func siteFileLabel(_ path: String) -> String {
    func inFolder(_ folder: String) -> Bool { path.hasPrefix(folder + "/") || path.contains("/" + folder + "/") }
    if inFolder(SiteAssets.folder) { return "site asset" }
    if inFolder(SiteTags.folder) { return "tag page" }
    return "site page"
}
