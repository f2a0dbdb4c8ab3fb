import Foundation
import Notepress
import NotepressSite
import NotepressAST

/// The folder path of ``FuzzHarness``: what `notepress convert DIR -o OUT -t html,…` does with
/// the writers the harness runs (all, PDF only when it writes PDF), on inputs cut from the fuzz text.
///
/// The text is cut at U+001E (record separator) bytes into at most three inputs, written as
/// `in/a.md`, `in/sub/b.note` and `in/c.markdown` in a folder of the system's temporary folder
/// (one per process, emptied before each run). A ``BatchConverter`` converts the folder on two
/// threads with those writers and a ``BuildConfiguration``, writes the HTML index and saves the
/// manifest; then a second run with that manifest must skip every file converted the first time,
/// fail the same files, and leave every output as it was.
enum FuzzFolder {
    /// The folder of this process (`notepress-fuzz-PID`).
    static let scratch = FileManager.default.temporaryDirectory
        .appendingPathComponent("notepress-fuzz-\(ProcessInfo.processInfo.processIdentifier)").path

    /// Runs the folder path; returns a message when the two runs disagree or an output is missing.
    static func run(_ body: [UInt8], options: ConversionOptions, keepMarkers: Bool, writers: [any DocumentWriter]) -> String? {
        let fm = FileManager.default
        try? fm.removeItem(atPath: scratch)
        let input = scratch + "/in", output = scratch + "/out"
        let names = ["a.md", "sub/b.note", "c.markdown"]
        let pieces = body.split(separator: 0x1E, maxSplits: names.count - 1, omittingEmptySubsequences: false)
        do {
            for (name, piece) in zip(names, pieces) {
                try AtomicFile.write(Array(piece), to: input + "/" + name)
            }
        } catch {
            return "cannot write the inputs: \(error)"
        }
        var loader = DocumentLoader(format: nil, keepMarkers: keepMarkers, sourceDateEpoch: Date(timeIntervalSince1970: 0))
        loader.vaultSyntax = !options.fragment  // as the command line: embeds, math, callouts in folders
        loader.wikilinks = true
        let config = BuildConfiguration(options: options, loader: loader, writers: writers.map(\.name), layout: .mirror,
                                        version: "fuzz")
        let scan = InputScanner.scan([input], format: nil)
        guard scan.errors.isEmpty else { return "scan: \(scan.errors)" }
        var batch = BatchConverter(loader: loader, writers: writers, options: options, outputRoot: output, layout: .mirror,
                                   jobs: 2, configuration: config)
        batch.inputFolders = scan.folders

        func runOnce(previous: Manifest) -> (outcomes: [FileOutcome], manifest: Manifest, problem: String?) {
            let run = batch.runSite(scan.files, previous: previous)
            let outcomes = run.outcomes
            var manifest = batch.manifest(after: outcomes, previous: previous, keepUnseen: true)
            do {
                if let (_, record) = try batch.writeIndex(run, previous: previous) { manifest.index = record }
                try manifest.save(outputRoot: output)
            } catch {
                return (outcomes, manifest, "index or manifest: \(error)")
            }
            for o in outcomes where o.error == nil {
                for path in o.written where !fm.fileExists(atPath: path) { return (outcomes, manifest, "missing output \(path)") }
            }
            return (outcomes, manifest, nil)
        }

        let first = runOnce(previous: Manifest())
        if let p = first.problem { return "first run: \(p)" }
        let outputs = snapshot(output)
        let second = runOnce(previous: Manifest.load(outputRoot: output))
        if let p = second.problem { return "second run: \(p)" }
        for (a, b) in zip(first.outcomes, second.outcomes) {
            let expected: FileOutcome.Status = a.status == .failed ? .failed : .skipped
            if b.status != expected {
                return "re-run of \(a.input.relative): \(a.status.rawValue) then \(b.status.rawValue) (expected \(expected.rawValue))"
            }
        }
        if snapshot(output) != outputs { return "the re-run changed the outputs" }
        return nil
    }

    /// Every regular file below `root` with its bytes, by relative path.
    static func snapshot(_ root: String) -> [String: Data] {
        var files: [String: Data] = [:]
        guard let e = FileManager.default.enumerator(atPath: root) else { return files }
        while let rel = e.nextObject() as? String {
            if let d = FileManager.default.contents(atPath: root + "/" + rel) { files[rel] = d }
        }
        return files
    }
}
