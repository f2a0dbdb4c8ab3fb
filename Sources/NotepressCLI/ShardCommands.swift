import Foundation
import Notepress
import NotepressSite

/// `notepress scan` (``Commands/scan``).
func runScanCommand(_ args: [String]) -> Int32 {
    runCommand(Commands.scan, args) { a in
        let plan = try ConvertPlan(a, mode: .scan)
        let inputs = try SiteInputs.resolve(plan.inputs, shard: plan.shard, format: plan.loader.format, selection: plan.selection)
        var failures = inputs.scan.errors
        for w in inputs.scan.warnings where plan.verbosity != .quiet { printError(w.description) }
        if a.flag("--list") {
            let all = (inputs.scan.files + inputs.scan.others).map(\.relative).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            var out: [UInt8] = []
            for p in all { out += Array(p.utf8); out.append(a.flag("--null") ? 0 : 0x0A) }
            Platform.ignoringSignals([.brokenPipe]) { writeAllToStandardOutput(out) }
        } else {
            var loader = plan.loader
            loader.wikilinks = plan.run.siteWikilinks
            var batch = BatchConverter(loader: loader, writers: plan.writers, options: plan.options, outputRoot: ".",
                                       layout: plan.layout, jobs: plan.jobs)
            batch.book = plan.book
            if plan.run.gitDates {
                // The dates a run of the whole folder gives its pages (``GitDates``).
                let (dates, warnings) = GitDates.forRun(folders: inputs.scan.folders, files: inputs.scan.files)
                for w in warnings where plan.verbosity != .quiet { printError(PathText.oneLine(plan.inputs.first ?? ".") + ": warning: " + w) }
                batch.gitDates = dates
            }
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

/// `notepress index` (``Commands/index``): the shards' manifest parts merged and the site-wide
/// pages written (``SiteBuild/index(_:observer:)``).
func runIndexCommand(_ args: [String]) -> Int32 {
    runCommand(Commands.index, args) { a in
        guard a.positionals.count == 1 else { throw UsageError("expected the output folder OUT (one)") }
        guard a.value("--site-table") != nil else { throw UsageError("index needs --site-table TABLE (made by notepress scan)") }
        for o in ["--files-from", "--shard", "--depfile"] where a.value(o) != nil { throw UsageError("\(o) is for convert, not index") }
        let plan = try ConvertPlan(a, mode: .index)
        guard let out = plan.output, Platform.status(out)?.kind == .directory else {
            throw UsageError("\(a.positionals[0]): no such folder (run the shards first)")
        }
        let report = try SiteBuild.index(try plan.siteBuildRequest(keepForExit: true),
                                         observer: TerminalBuildObserver(verbosity: plan.verbosity))
        if let mismatch = report.configurationMismatch {
            printError("notepress index: error: " + mismatch)
            return 1
        }
        if plan.verbosity != .quiet {
            var line = String(format: "indexed %d pages from %d manifest part%@ in %.2f s; output in %@", report.pages, report.parts,
                              report.parts == 1 ? "" : "s", report.seconds, out)
            if report.strays > 0 { line += "; removed \(report.strays) temporary file\(report.strays == 1 ? "" : "s") of killed runs" }
            if report.brokenLinks > 0 { line += "; broken links: \(report.brokenLinks)" }
            printError(line)
        }
        return ConvertPlan.finish(report).status
    }
}
