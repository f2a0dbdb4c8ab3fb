import Foundation
import Notepress
import NotepressSite

extension ConvertPlan {
    /// Converts folders and several files into the output folder (``SiteBuild/run(_:observer:)``).
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

    /// The site build this command line asks for (a folder run, or `index`).
    /// `keepForExit`: leave the run's records for the exit to reclaim (a run that ends the process).
    /// - Throws: ``UsageError`` when there is no output folder.
    func siteBuildRequest(keepForExit: Bool) throws -> SiteBuildRequest {
        guard let outDir = output else { throw UsageError("an output folder is needed (-o DIR)") }
        var r = SiteBuildRequest(inputs: inputs, output: outDir, loader: loader, writers: writers, options: options,
                                 version: notepressVersion)
        r.book = book
        r.selection = selection
        r.shard = shard
        r.depfile = depfile
        r.layout = layout
        r.jobs = jobs
        r.themeFile = themeFile
        r.commandLine = fingerprintedOptions
        r.force = run.force
        r.prune = run.prune
        // `mkdocs build` copies every file of docs_dir that is not a page (CNAME, robots.txt, …).
        r.copyAll = run.copyAll || input.mkdocs != nil
        r.strictLinks = run.strictLinks
        r.wikilinks = run.siteWikilinks
        r.gitDates = run.gitDates
        r.keepForExit = keepForExit
        return r
    }

    /// ``convertBatch()``, telling what it did. `keepForExit`: leave the run's records for the
    /// exit to reclaim (a run that ends the process); a watching run frees them after each build.
    func runBatch(keepForExit: Bool = true) throws -> BatchSummary {
        let request = try siteBuildRequest(keepForExit: keepForExit)
        let report: SiteBuildReport
        do {
            report = try SiteBuild.run(request, observer: TerminalBuildObserver(verbosity: verbosity))
        } catch let refusal as SiteBuildRefusal {
            throw UsageError(refusal.message)
        }
        if verbosity != .quiet {
            // Binary files (chosen by -f or --include) are counted only when there are some.
            let binary = report.binary.isEmpty ? "" : String(format: ", skipped %d (binary)", report.binary.count)
            var line = String(format: "converted %d, skipped %d (unchanged), skipped %d (unknown kind)%@, failed %d in %.2f s; output in %@",
                              report.converted, report.unchanged, report.skippedUnknown, binary, report.failures.count,
                              report.seconds, report.output)
            if report.assets > 0 { line += "; assets: copied \(report.assetsCopied), unchanged \(report.assetsUnchanged)" }
            if report.brokenLinks > 0 { line += "; broken links: \(report.brokenLinks)" }
            if report.notConverted > 0 { line += "; not converted: \(report.notConverted)" }
            printError(line)
            if verbosity == .verbose {
                for b in report.binary { printError("skipped \(b): binary (a NUL byte in its first \(InputSelection.sniffLength) bytes)") }
            }
        }
        return Self.finish(report)
    }

    /// Prints what failed (or the broken links with `--strict-links`) and gives the exit status.
    static func finish(_ report: SiteBuildReport) -> BatchSummary {
        var summary = BatchSummary(status: 0, failures: report.failures, written: report.written)
        if !report.failures.isEmpty {
            printError("failed:")
            for f in report.failures { printError("  " + f) }
            summary.status = 1
        } else if report.failed {
            printError("\(report.brokenLinks) broken link\(report.brokenLinks == 1 ? "" : "s") (--strict-links)")
            summary.status = 1
            summary.failures = report.brokenLinkErrors
        }
        return summary
    }
}

/// Shows what a site build tells on standard error, by verbosity: the progress (``ProgressReporter``),
/// each file's diagnostics (``WarningReport``), warnings unless `-q`, details with `--verbose`.
final class TerminalBuildObserver: SiteBuildObserver, @unchecked Sendable {
    let verbosity: Verbosity
    /// Made when the pages are counted, before any is converted.
    private var reporter: ProgressReporter?

    init(verbosity: Verbosity) { self.verbosity = verbosity }

    func willConvert(total: Int) {
        let style: ProgressReporter.Style = switch ProgressReporter.style(quiet: verbosity == .quiet) {
        case .lines: verbosity == .verbose ? .lines : .quiet
        case let s: s
        }
        reporter = ProgressReporter(style: style, total: total,
                                    width: TerminalSize.columns(environment: ProcessInfo.processInfo.environment, fd: STDERR_FILENO))
    }

    func converted(_ status: FileOutcome.Status, path: String) {
        let event: ProgressReporter.Event = switch status {
        case .converted: .converted
        case .skipped: .skipped
        case .failed: .failed
        }
        reporter?.record(event, path: path)
    }

    func didConvert() { reporter?.finish() }

    func tell(_ message: SiteBuildMessage) {
        switch message {
        case .error(let text): printError(text)
        case .note(let text): if verbosity != .quiet { printError(text) }
        case .detail(let text): if verbosity == .verbose { printError(text) }
        case let .diagnostics(file, diagnostics, origins):
            WarningReport.print(FileDiagnostics(file: file, diagnostics: diagnostics, origins: origins), verbosity)
        }
    }
}
