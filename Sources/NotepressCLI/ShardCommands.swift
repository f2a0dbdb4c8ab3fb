import Foundation
import Notepress
import NotepressSite

/// Where a folder run's inputs come from: a folder walk, a list (`--files-from`), a site table
/// (`--site-table`), and which shard of them (`--shard K/N`).
struct ShardInputs {
    /// The inputs of this run.
    var scan: InputScan
    /// The table pages are rendered against (a shard run), or `nil` (a whole site).
    var siteTable: SiteTable?
    /// The folder list and table paths are relative to.
    var root: String?

    /// Whether any option of sharded runs was given.
    static func given(_ a: Arguments) -> Bool {
        ["--site-table", "--files-from", "--shard", "--root"].contains { a.value($0) != nil }
    }

    /// `--root DIR`, else the only INPUT when it is a folder, else `.`.
    /// - Throws: ``UsageError`` when `--root` is not a folder or INPUTs are given besides a list.
    static func root(_ plan: ConvertPlan) throws -> String {
        let a = plan.arguments
        if let r = a.value("--root") {
            guard Platform.status(r)?.kind == .directory else { throw UsageError("--root \(r): not a folder") }
            if !plan.inputs.isEmpty { throw UsageError("--root names the input folder: give no INPUT besides it") }
            return r
        }
        if plan.inputs.count == 1, Platform.status(plan.inputs[0])?.kind == .directory { return plan.inputs[0] }
        if plan.inputs.isEmpty { return "." }
        throw UsageError("--files-from and --site-table take one input folder (INPUT or --root DIR)")
    }

    /// The bytes of `--files-from` (a file, or `-`: standard input).
    /// - Throws: ``NotepressError`` when it cannot be read.
    static func readList(_ path: String) throws -> [UInt8] {
        if path == "-" { return [UInt8](FileHandle.standardInput.readDataToEndOfFile()) }
        switch Platform.readFile(path) {
        case .success(let b): return b
        case .failure(let e): throw NotepressError.fileUnreadable(file: path, code: e.code)
        }
    }

    /// The site table at `path`.
    /// - Throws: ``NotepressError`` when it cannot be read or a line is not a record of the schema.
    static func loadTable(_ path: String) throws -> SiteTable {
        let bytes: [UInt8]
        switch Platform.readFile(path) {
        case .success(let b): bytes = b
        case .failure(let e): throw NotepressError.fileUnreadable(file: path, code: e.code)
        }
        guard let table = SiteTableCodec.decode(bytes) else {
            throw NotepressError.failed(file: path, position: nil, message: "not a site table (JSON Lines written by notepress scan)")
        }
        return table
    }

    /// The inputs of `plan`: with none of the shard options, its INPUTs walked as always.
    /// - Throws: ``UsageError`` for options that do not go together; ``NotepressError`` for a
    ///   list or table that cannot be read.
    static func resolve(_ plan: ConvertPlan) throws -> ShardInputs {
        let a = plan.arguments
        guard given(a) else {
            return ShardInputs(scan: InputScanner.scan(plan.inputs, format: plan.loader.format, selection: plan.selection))
        }
        var shard: SiteShard?
        if let s = a.value("--shard") {
            guard let parsed = SiteShard(s) else { throw UsageError("--shard expects K/N with 1 <= K <= N, got '\(s)'") }
            guard a.value("--site-table") != nil else { throw UsageError("--shard needs --site-table TABLE (made by notepress scan)") }
            shard = parsed
        }
        if a.value("--site-table") != nil && a.flag("--prune") {
            throw UsageError("--prune is for a one-process run; a shard leaves the site's other outputs alone")
        }
        let root = try root(plan)
        let table = try a.value("--site-table").map(loadTable)
        var paths: [String]
        if let list = a.value("--files-from") {
            paths = InputList.paths(try readList(list), nulSeparated: a.flag("--null"))
        } else if let table {
            paths = table.paths
        } else {
            throw UsageError("--root needs --files-from or --site-table")
        }
        if let shard { paths = paths.filter(shard.contains) }
        let scan = InputList.scan(root: root, paths: paths, format: plan.loader.format, selection: plan.selection)
        return ShardInputs(scan: scan, siteTable: table, root: root)
    }
}

/// `notepress scan` (``Commands/scan``).
func runScanCommand(_ args: [String]) -> Int32 {
    runCommand(Commands.scan, args) { a in
        let plan = try ConvertPlan(a, mode: .scan)
        guard !plan.inputs.isEmpty || a.value("--files-from") != nil else { throw UsageError("no input folder given (INPUT or --files-from)") }
        if a.value("--site-table") != nil || a.value("--shard") != nil { throw UsageError("scan makes the site table: no --site-table or --shard") }
        let inputs = try ShardInputs.resolve(plan)
        var failures = inputs.scan.errors
        for w in inputs.scan.warnings where plan.verbosity != .quiet { printError(w.description) }
        if a.flag("--list") {
            let all = (inputs.scan.files + inputs.scan.others).map(\.relative).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            var out: [UInt8] = []
            for p in all { out += Array(p.utf8); out.append(a.flag("--null") ? 0 : 0x0A) }
            Platform.ignoringSignals([.brokenPipe]) { writeAllToStandardOutput(out) }
        } else {
            var loader = plan.loader
            loader.wikilinks = !a.flag("--no-wikilinks")
            var batch = BatchConverter(loader: loader, writers: plan.writers, options: plan.options, outputRoot: ".",
                                       layout: plan.layout, jobs: plan.jobs)
            batch.book = plan.book
            let (table, errors) = batch.scanTable(inputs.scan.files, otherFiles: inputs.scan.others)
            failures += errors
            let bytes = SiteTableCodec.encode(table)
            if let out = plan.output {
                try AtomicFile.write(bytes, to: out)
            } else {
                Platform.ignoringSignals([.brokenPipe]) { writeAllToStandardOutput(bytes) }
            }
            if plan.verbosity != .quiet {
                printError("scanned \(inputs.scan.files.count) pages and \(inputs.scan.others.count) other files"
                    + (plan.output.map { " into \($0)" } ?? ""))
            }
        }
        for f in failures { printError(f.description) }
        return failures.isEmpty ? 0 : 1
    }
}

/// `notepress index` (``Commands/index``).
func runIndexCommand(_ args: [String]) -> Int32 {
    runCommand(Commands.index, args) { a in
        guard a.positionals.count == 1 else { throw UsageError("expected the output folder OUT (one)") }
        guard let tablePath = a.value("--site-table") else { throw UsageError("index needs --site-table TABLE (made by notepress scan)") }
        for o in ["--files-from", "--shard", "--depfile"] where a.value(o) != nil { throw UsageError("\(o) is for convert, not index") }
        let plan = try ConvertPlan(a, mode: .index)
        guard let out = plan.output, Platform.status(out)?.kind == .directory else {
            throw UsageError("\(a.positionals[0]): no such folder (run the shards first)")
        }
        let start = Date()
        let table = try ShardInputs.loadTable(tablePath)
        // As a folder run: its temporaries in OUT/.notepress-tmp; taken alone, it first removes
        // what a killed run (shard or index) left there (Temporaries).
        let outputLock = OutputFolderLock(out)
        defer { withExtendedLifetime(outputLock) {} }
        var loader = plan.loader
        loader.wikilinks = !a.flag("--no-wikilinks")
        var batch = BatchConverter(loader: loader, writers: plan.writers, options: plan.options, outputRoot: out,
                                   layout: plan.layout, jobs: plan.jobs)
        if let root = a.value("--root") { batch.inputFolders = [InputScanner.realPath(root)] }
        let quiet = plan.verbosity == .quiet
        var failures: [String] = []
        let (parts, others, unreadable) = ManifestPart.loadAll(outputRoot: out)
        // Parts made with other options than each other or than these: refused, nothing written.
        let config = BuildConfiguration(options: plan.options, loader: loader, writers: plan.writers.map(\.name),
                                        layout: plan.layout, version: notepressVersion, themeFile: plan.themeFile,
                                        commandLine: plan.fingerprintedOptions)
        if let mismatch = ManifestPart.configurationMismatch(parts, expected: config.sha256) {
            printError("notepress index: error: " + mismatch)
            return 1
        }
        for u in unreadable { failures.append("\(u): not a manifest part; left in place") }
        let previous = Manifest.load(outputRoot: out)
        var manifest = ManifestPart.merge(parts.map(\.part), into: previous)

        // The link report and the site-wide pages, as a one-process run writes them.
        let run = batch.indexRun(table, root: a.value("--root"))
        let strict = a.flag("--strict-links")
        if strict || !quiet {
            for p in run.problems {
                printError(p.description(file: run.sourcePaths[p.path] ?? p.path, severity: strict && p.isBroken ? "error" : "warning"))
            }
        }
        // The notes list and tag pages: the function a one-process run uses, recorded as it records them.
        let site = batch.writeSitePages(run.table, tableBytes: run.tableBytes, sourcePaths: run.sourcePaths)
        failures += site.errors.map(\.description)
        for w in site.warnings where !quiet { printError(w.description) }
        if plan.verbosity == .verbose {
            if let path = site.indexPath { printError("index: \(path)") }
            for p in site.written where p != site.indexPath { printError("\(siteFileLabel(p)): \(p)") }
        }
        manifest.index = site.indexRecord
        // Tag pages of tags no page has any more stay recorded for a later --prune (as convert does).
        let now = Set(site.tagPages.map { $0.path })
        manifest.sitePages = (site.tagPages + previous.sitePages.filter { !now.contains($0.path) })
            .sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        // Every page of the table has its entry, unless it failed (in a shard, reported there)
        // or no shard covered it.
        let missing = table.records.filter { $0.kind == .page && (manifest.entries[$0.path]?.configSHA256 ?? Manifest.Entry.failedMark) == Manifest.Entry.failedMark }.map(\.path)
        if !missing.isEmpty {
            failures.append("\(missing.count) page\(missing.count == 1 ? "" : "s") of the table \(missing.count == 1 ? "has" : "have") no output (failed, or in no shard): "
                + missing.prefix(5).joined(separator: ", ") + (missing.count > 5 ? ", …" : ""))
        }
        do {
            try manifest.save(outputRoot: out)
            let tableFile = out + "/" + SiteTableCodec.fileName
            let old = FileManager.default.contents(atPath: tableFile).map { [UInt8]($0) }
            if old != run.tableBytes { try AtomicFile.write(run.tableBytes, to: tableFile) }
        } catch {
            failures.append(NotepressError.wrapping(error, file: out + "/" + Manifest.fileName).description)
        }
        // The parts are merged: removed with what killed runs left beside them and their outputs.
        if unreadable.isEmpty {
            for p in parts { Platform.removeFile(p.path) }
            for o in others { Platform.removeFile(o) }
            _ = Platform.removeEmptyFolder(out + "/" + ManifestPart.folderName)
        }
        let strays = outputLock.removed
        if plan.verbosity == .verbose { for s in strays { printError("removed \(s) (left by a killed run)") } }
        if !quiet {
            let pages = table.records.filter { $0.kind == .page }.count
            var line = String(format: "indexed %d pages from %d manifest part%@ in %.2f s; output in %@", pages, parts.count,
                              parts.count == 1 ? "" : "s", Date().timeIntervalSince(start), out)
            if !strays.isEmpty { line += "; removed \(strays.count) temporary file\(strays.count == 1 ? "" : "s") of killed runs" }
            if run.brokenLinks > 0 { line += "; broken links: \(run.brokenLinks)" }
            printError(line)
        }
        LeftToExit.leave((run, manifest))
        if !failures.isEmpty {
            printError("failed:")
            for f in failures { printError("  " + f) }
            return 1
        }
        if strict && run.brokenLinks > 0 {
            printError("\(run.brokenLinks) broken link\(run.brokenLinks == 1 ? "" : "s") (--strict-links)")
            return 1
        }
        return 0
    }
}
