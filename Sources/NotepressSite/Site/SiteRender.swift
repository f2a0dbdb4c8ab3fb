import Foundation
import Notepress
import NotepressAST
import NotepressPlatform

extension BatchConverter {
    /// Phase 2 for one input: skipped when nothing it depends on changed, else rendered with every
    /// writer and written.
    func render(_ input: InputFile, _ s: ScannedInput, rewriter: SiteRewriter, resolutions: SiteRewriter.Resolutions,
                extras: SitePageExtras = SitePageExtras(), guard context: OutputGuard, previous: Manifest.Entry?,
                embeds: SiteEmbeds? = nil) -> FileOutcome {
        var outcome = FileOutcome(input: input)
        guard let record = s.record, s.error == nil else {
            outcome.error = s.error ?? NotepressError.failed(file: input.path, position: nil, message: "not read")
            outcome.status = .failed
            if configuration != nil { outcome.entry = Self.failedEntry(previous: previous, written: []) }
            return outcome
        }
        outcome.title = record.title
        outcome.created = s.document?.metadata.created ?? record.created.flatMap(CivilDateTime.parse)
        if let embeds, !record.embeds.isEmpty { outcome.dependencies = embeds.dependencies(of: record) }
        outcome.dependencies += s.includes
        let table = rewriter.resolver.table
        let digest = extras.digest(rewriter.digest(of: record, resolutions: resolutions), record: record, table: table)
        // The site's SUMMARY.md gives the navigation and is not a page of the site: no HTML.
        let isSummary = table.summary != nil && table.byPath[record.path] == table.summary
        // A page with no man title (``SiteRecord/manName``) is reported below.
        let untitledMan = record.manName == nil && writers.contains { $0.format == .man }
        let writers = writers.filter { !(isSummary && $0.format.makesHTMLPages(with: options)) }
        let paths = writers.map { outputPath(input, $0, table: table) }
        if let config = configuration, let prev = previous, prev.configSHA256 == config.sha256,
           prev.inputSHA256 == s.inputSHA256, prev.modified == s.modified?.timeIntervalSince1970, prev.siteSHA256 == digest,
           prev.outputs.map(\.path) == paths.map(relativeToRoot), outputsMatch(prev.outputs) {
            // Nothing is written for a skipped file, so the output guard has nothing to check.
            outcome.status = .skipped
            outcome.written = paths
            outcome.entry = prev
            outcome.entryIsPrevious = s.reused && prev.inputSize == s.inputSize && prev.inputMtimeNanoseconds == s.inputMtime
            outcome.entry?.inputSize = s.inputSize
            outcome.entry?.inputMtimeNanoseconds = s.inputMtime
            // Its warnings again, as when it was converted.
            outcome.diagnostics = prev.warnings.map(\.diagnostic)
            outcome.diagnosticOrigins = prev.warnings.map(\.origin)
            return outcome
        }
        // The outputs written so far, for the manifest (also when a later writer fails).
        var outputs: [Manifest.Output] = []
        do {
            var document: Document
            if let d = s.document {
                document = d
                outcome.diagnostics = s.diagnostics
            } else {
                let bytes = try DocumentLoader.read(input.path)
                let loaded = try load(input, bytes: bytes, modified: s.modified)
                document = loaded.0
                outcome.diagnostics = loaded.1
            }
            outcome.diagnosticOrigins = Array(repeating: "input", count: outcome.diagnostics.count)
            for p in paths { try context.check(p, input: input.path) }
            outputs = []
            for (n, (writer, path)) in zip(writers, paths).enumerated() {
                var source = document
                if let embeds, !record.embeds.isEmpty {
                    // The embed warnings once, with the first format.
                    var notes: [Diagnostic] = []
                    source = embeds.expand(document, path: input.relative, format: writer.format, fileExtension: writer.fileExtension,
                                           diagnostics: &notes)
                    if n == 0 { outcome.diagnostics += notes }
                }
                let pages = writer.format.makesHTMLPages(with: options)
                var page = rewriter.rewrite(source, path: input.relative, resolutions: resolutions, format: writer.format,
                                            fileExtension: writer.fileExtension, notesIndex: pages,
                                            root: writer.format == .html && SitePaths.isNotFoundPage(input.relative)
                                                ? SitePaths.notFoundRoot(baseURL: options.baseURL) : nil)
                var pageOptions = options
                pageOptions.sourceFile = input.path
                pageOptions.missingImagesReported = true
                if pages {
                    extras.apply(to: &page, record: record, table: table, options: &pageOptions)
                }
                let bytes = try writer.write(page, options: pageOptions, diagnostics: &outcome.diagnostics)
                outcome.diagnosticOrigins += Array(repeating: writer.name,
                                                   count: outcome.diagnostics.count - outcome.diagnosticOrigins.count)
                try AtomicFile.write(bytes, to: path)
                outcome.written.append(path)
                if configuration != nil {
                    let st = Platform.status(path, followLinks: false)
                    outputs.append(Manifest.Output(path: relativeToRoot(path), sha256: SHA256.hex(bytes),
                                                   size: st?.size, mtimeNanoseconds: st?.modifiedNanoseconds))
                }
            }
            if untitledMan { reportUntitledManPage(&outcome, input: input, path: paths[writers.firstIndex { $0.format == .man }!]) }
            document = Document(metadata: document.metadata, blocks: [])
            if let config = configuration {
                outcome.entry = Manifest.Entry(inputSHA256: s.inputSHA256, modified: s.modified?.timeIntervalSince1970,
                                               configSHA256: config.sha256, outputs: outputs, title: record.title,
                                               created: outcome.created?.timeIntervalSince1970, inputSize: s.inputSize,
                                               inputMtimeNanoseconds: s.inputMtime, siteSHA256: digest)
                outcome.entry?.warnings = zip(outcome.diagnosticOrigins, outcome.diagnostics).map { Manifest.Warning(origin: $0, diagnostic: $1) }
            }
        } catch {
            outcome.error = NotepressError.wrapping(error, file: input.path)
            outcome.status = .failed
            if configuration != nil { outcome.entry = Self.failedEntry(previous: previous, written: outputs) }
        }
        return outcome
    }

    /// A page with no man title, written under its file's own name (``outputPath(_:_:table:)``):
    /// the man writer's "no title line" warning becomes one at the file's first line that says so.
    func reportUntitledManPage(_ outcome: inout FileOutcome, input: InputFile, path: String) {
        let report = Diagnostic(.warning, "man: no man page title (a `name(section)` heading or title block, a section in the "
            + "file name as in `tool.1.md`, or front matter `section`); written as " + PathText.lastComponent(path),
            file: input.path, position: SourcePosition(line: 1, column: 1))
        if let k = outcome.diagnostics.indices.first(where: { outcome.diagnosticOrigins[$0] == OutputFormat.man.rawValue
            && outcome.diagnostics[$0].message.hasPrefix("man: no title line") }) {
            outcome.diagnostics[k] = report
        } else {
            outcome.diagnostics.append(report)
            outcome.diagnosticOrigins.append(OutputFormat.man.rawValue)
        }
    }

    /// The manifest entry of an input that failed: no hashes (``Manifest/Entry/failedMark``), so the
    /// next run converts it again, but every output it has in the folder (those of an earlier run
    /// and those written before the writer that failed), so that `--prune` removes them once the
    /// input is gone; `nil` when it has none.
    static func failedEntry(previous: Manifest.Entry?, written: [Manifest.Output]) -> Manifest.Entry? {
        var outputs = written
        for o in previous?.outputs ?? [] where !outputs.contains(where: { $0.path == o.path }) { outputs.append(o) }
        guard !outputs.isEmpty else { return nil }
        return Manifest.Entry(inputSHA256: Manifest.Entry.failedMark, modified: nil, configSHA256: Manifest.Entry.failedMark,
                              outputs: outputs, title: previous?.title, created: previous?.created, inputSize: nil,
                              inputMtimeNanoseconds: nil, siteSHA256: nil)
    }
}
