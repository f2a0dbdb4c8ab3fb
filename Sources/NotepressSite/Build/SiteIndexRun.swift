import Foundation
import Notepress

/// The last step of a sharded run (``SiteBuild/index(_:observer:)``, `notepress index`): the shards'
/// manifest parts merged, the link report and the site-wide pages written from the site table, with
/// the rules of a one-process run (``SiteBuildRun``).
struct SiteIndexRun {
    let request: SiteBuildRequest
    let observer: (any SiteBuildObserver)?

    private func tell(_ m: SiteBuildMessage) { observer?.tell(m) }

    func run() throws -> SiteBuildReport {
        let out = request.output
        let start = Date()
        let table = try SiteInputs.loadTable(request.shard?.siteTable ?? "")
        // As a folder run: its temporaries in OUT/.notepress-tmp; taken alone, it first removes
        // what a killed run (shard or index) left there (Temporaries).
        let outputLock = OutputFolderLock(out)
        defer { withExtendedLifetime(outputLock) {} }
        var loader = request.loader
        loader.wikilinks = request.wikilinks
        var batch = BatchConverter(loader: loader, writers: request.writers, options: request.options, outputRoot: out,
                                   layout: request.layout, jobs: request.jobs)
        let root = request.shard?.root
        if let root { batch.inputFolders = [InputScanner.realPath(root)] }
        var report = SiteBuildReport(output: out)
        var failures: [String] = []
        let (parts, others, unreadable) = ManifestPart.loadAll(outputRoot: out)
        // Parts made with other options than each other or than these: refused, nothing written.
        if let mismatch = ManifestPart.configurationMismatch(parts, expected: request.configuration.sha256) {
            report.configurationMismatch = mismatch
            return report
        }
        for u in unreadable { failures.append("\(u): not a manifest part; left in place") }
        let previous = Manifest.load(outputRoot: out)
        var manifest = ManifestPart.merge(parts.map(\.part), into: previous)

        // The link report and the site-wide pages, as a one-process run writes them.
        let run = batch.indexRun(table, root: root)
        let rules = SiteBuildRun(request: request, observer: observer)
        rules.tellLinkReport(run, report: &report)
        // The notes list and tag pages: the function a one-process run uses, recorded as it records them.
        let site = batch.writeSitePages(run.table, tableBytes: run.tableBytes, sourcePaths: run.sourcePaths)
        failures += site.errors.map(\.description)
        rules.tellSitePages(site)
        manifest.index = site.indexRecord
        // Tag pages of tags no page has any more stay recorded for a later --prune (as convert does).
        manifest.sitePages = SiteBuildRun.keepingTagPages(site.tagPages, previous: previous)
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
        for s in strays { tell(.detail("removed \(s) (left by a killed run)")) }
        report.pages = table.records.filter { $0.kind == .page }.count
        report.parts = parts.count
        report.strays = strays.count
        report.seconds = Date().timeIntervalSince(start)
        report.failures = failures
        report.written = site.written.count
        if request.keepForExit { LeftToExit.leave((run, manifest)) }
        return report
    }
}
