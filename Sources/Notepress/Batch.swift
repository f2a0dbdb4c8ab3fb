import Foundation
import NotepressPlatform
import NotepressAST
import NotepressHTML
import NotepressReaders

/// Where outputs go when there are several formats: `mirror` gives each format its own tree
/// (`OUT/html/a/b.html`, `OUT/rtf/a/b.rtf`); `flat` puts every format side by side in one tree
/// (`OUT/a/b.html`, `OUT/a/b.rtf`). With one format both are `OUT/a/b.html`.
package enum OutputLayout: String, Sendable, CaseIterable {
    case mirror, flat
}

/// The outcome for one input.
package struct FileOutcome: Sendable {
    /// What happened: converted, skipped because nothing changed (``Manifest``), or failed.
    package enum Status: String, Sendable { case converted, skipped, failed }

    package var input: InputFile
    /// Output paths written (or, when skipped, still valid), in writer order.
    package var written: [String] = []
    package var diagnostics: [Diagnostic] = []
    /// Which step gave each of ``diagnostics`` (same count, same order): `input` for the reader,
    /// else the writer's ``DocumentWriter/name``. The command line summarises warnings by it.
    package var diagnosticOrigins: [String] = []
    package var error: NotepressError?
    /// Title and date, for the HTML index.
    package var title: String?
    package var created: Date?
    package var status: Status = .converted
    /// The manifest record for this input (`nil` when it failed).
    package var entry: Manifest.Entry?
    /// `entry` is the previous run's record unchanged (skipped by size and time).
    package var entryIsPrevious = false
}

/// Converts many files with several writers on `jobs` threads. Output bytes and the order of
/// outcomes do not depend on the job count.
///
/// Output paths: ``OutputLayout`` `mirror` gives each format its own tree below the output folder
/// (`OUT/html/a/b.html`, `OUT/rtf/a/b.rtf`); `flat` writes every format beside the others
/// (`OUT/a/b.html`, `OUT/a/b.rtf`); one format is always `OUT/a/b.html`.
///
/// Safety: an output is refused (the file fails, others go on) when it is an input file, when its
/// folder resolves (symbolic links followed) outside the output folder or into an input folder,
/// when the output path itself is a symbolic link (never written through), and when two inputs
/// map to the same output (`a.md` and `a.note`). Writes are atomic (``AtomicFile``).
///
/// Incremental builds: with a ``BuildConfiguration`` and a previous ``Manifest``, a file whose
/// input bytes, modification time and configuration are unchanged and whose outputs still exist
/// with the recorded hashes is skipped (``FileOutcome/Status/skipped``).
package struct BatchConverter: Sendable {
    package var loader: DocumentLoader
    package var writers: [any DocumentWriter]
    package var options: ConversionOptions
    /// The output folder (`-o DIR`).
    package var outputRoot: String
    package var layout: OutputLayout
    package var jobs: Int
    /// Hash of everything besides the input that decides outputs; `nil` turns incremental skipping off.
    package var configuration: BuildConfiguration?
    /// Real paths of the input folders: outputs may not resolve into them.
    package var inputFolders: [String] = []

    package init(loader: DocumentLoader, writers: [any DocumentWriter], options: ConversionOptions,
                outputRoot: String, layout: OutputLayout = .mirror, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                configuration: BuildConfiguration? = nil) {
        self.loader = loader
        self.writers = writers
        self.options = options
        self.outputRoot = outputRoot
        self.layout = layout
        self.jobs = max(1, jobs)
        self.configuration = configuration
    }

    /// The folder a writer's outputs go to.
    package func root(for writer: any DocumentWriter) -> String {
        if writers.count > 1 && layout == .mirror { return PathText.join(outputRoot, writer.name) }
        return outputRoot
    }

    /// The output path of `input` for `writer`: its relative path with the writer's extension.
    package func outputPath(_ input: InputFile, _ writer: any DocumentWriter) -> String {
        PathText.join(root(for: writer), PathText.deletingExtension(input.relative) + "." + writer.fileExtension)
    }

    /// Converts every file; calls `progress` (from any thread, serialised) after each one.
    /// `previous` is the manifest of the last run (for skipping unchanged files).
    package func run(_ files: [InputFile], previous: Manifest = Manifest(),
                    progress: (@Sendable (Int, FileOutcome) -> Void)? = nil) -> [FileOutcome] {
        // Two inputs with the same output (a.md, a.note): the later one in order fails, whatever
        // the job count.
        var owner: [String: String] = [:]
        var clash: [Int: NotepressError] = [:]
        for (i, f) in files.enumerated() {
            for w in writers {
                let out = outputPath(f, w)
                if let first = owner[out] {
                    clash[i] = .outputRefused(file: f.path, message: "output \(out) is also the output of \(first); not converted")
                    break
                }
            }
            if clash[i] == nil { for w in writers { owner[outputPath(f, w)] = f.path } }
        }
        let clashes = clash
        let context = OutputGuard(root: InputScanner.realPath(outputRoot), inputFolders: inputFolders,
                                  inputFiles: LazyIdentities(files.map(\.path)))
        let results = ResultBox(count: files.count)
        let next = Counter()
        let worker: @Sendable () -> Void = {
            while true {
                let i = next.increment()
                if i >= files.count { return }
                var outcome: FileOutcome
                if let e = clashes[i] {
                    outcome = FileOutcome(input: files[i])
                    outcome.error = e
                    outcome.status = .failed
                } else {
                    outcome = convert(files[i], guard: context, previous: previous.entries[files[i].relative])
                }
                results.set(i, outcome)
                progress?(i, outcome)
            }
        }
        if jobs == 1 || files.count <= 1 {
            worker()
        } else {
            let group = DispatchGroup()
            for _ in 0..<min(jobs, files.count) {
                group.enter()
                let t = Thread { worker(); group.leave() }
                t.stackSize = 64 << 20
                t.start()
            }
            group.wait()
        }
        return results.values()
    }

    /// Converts one file with every writer (no skipping).
    package func convert(_ input: InputFile) -> FileOutcome {
        convert(input, guard: OutputGuard(root: InputScanner.realPath(outputRoot), inputFolders: inputFolders,
                                          inputFiles: LazyIdentities([input.path])), previous: nil)
    }

    func convert(_ input: InputFile, guard context: OutputGuard, previous: Entry?) -> FileOutcome {
        var outcome = FileOutcome(input: input)
        do {
            let inputStatus = Platform.status(input.path)
            if inputStatus?.kind == .directory {
                throw NotepressError.fileUnreadable(file: input.path, code: SystemError.isAFolder.code)
            }
            // Unchanged size and time, same configuration, outputs intact: skip without reading.
            // (A pipe's size and time say nothing about its bytes: it is always read.)
            let regular = inputStatus?.kind == .regular
            let inputSize = regular ? inputStatus?.size : nil
            let inputMtime = regular ? inputStatus?.modifiedNanoseconds : nil
            if let config = configuration, let prev = previous, let size = inputSize, let mtime = inputMtime,
               prev.inputSize == size, prev.inputMtimeNanoseconds == mtime, prev.configSHA256 == config.sha256 {
                let paths = writers.map { outputPath(input, $0) }
                // Nothing is written for a skipped file, so the output guard has nothing to check.
                if prev.outputs.map(\.path) == paths.map(relativeToRoot), outputsMatch(prev.outputs) {
                    outcome.status = .skipped
                    outcome.written = paths
                    outcome.title = prev.title
                    outcome.created = prev.created.map { Date(timeIntervalSince1970: $0) }
                    outcome.entry = prev
                    outcome.entryIsPrevious = true
                    return outcome
                }
            }
            // read(2) until end of file: a FIFO or `<(…)` input reads like a regular file.
            let data = try DocumentLoader.read(input.path)
            var modified = DocumentLoader.modificationDate(input.path)
            if let m = modified, let sde = loader.sourceDateEpoch { modified = min(m, sde) }
            let paths = writers.map { outputPath(input, $0) }
            for p in paths { try context.check(p, input: input.path) }

            let inputHash = configuration == nil ? "" : data.withUnsafeBytes { raw in
                var h = SHA256()
                h.update(buffer: raw.bindMemory(to: UInt8.self))
                return SHA256.hexString(h.finalize())
            }
            if let config = configuration, let prev = previous, prev.inputSHA256 == inputHash,
               prev.configSHA256 == config.sha256, prev.modified == modified?.timeIntervalSince1970,
               prev.outputs.map(\.path) == paths.map(relativeToRoot), outputsMatch(prev.outputs) {
                outcome.status = .skipped
                outcome.written = paths
                outcome.title = prev.title
                outcome.created = prev.created.map { Date(timeIntervalSince1970: $0) }
                outcome.entry = prev
                outcome.entry?.inputSize = inputSize
                outcome.entry?.inputMtimeNanoseconds = inputMtime
                return outcome
            }

            var read = try loader.load(bytes: data, path: input.path, modified: modified)
            // Writers that record the source (TEI's idno, the JSON dump) get the path below the
            // input folder: no absolute path of this machine in the output.
            read.document.metadata.sourcePath = input.relative
            outcome.diagnostics = read.diagnostics
            outcome.diagnosticOrigins = Array(repeating: "input", count: read.diagnostics.count)
            outcome.title = read.document.metadata.title
            outcome.created = read.document.metadata.created
            var outputs: [Manifest.Output] = []
            for (writer, path) in zip(writers, paths) {
                let bytes = try writer.write(read.document, options: options, diagnostics: &outcome.diagnostics)
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
            if let config = configuration {
                outcome.entry = Manifest.Entry(inputSHA256: inputHash, modified: modified?.timeIntervalSince1970,
                                               configSHA256: config.sha256, outputs: outputs, title: outcome.title,
                                               created: outcome.created?.timeIntervalSince1970)
                outcome.entry?.inputSize = inputSize
                outcome.entry?.inputMtimeNanoseconds = inputMtime
            }
        } catch {
            outcome.error = NotepressError.wrapping(error, file: input.path)
            outcome.status = .failed
        }
        return outcome
    }

    typealias Entry = Manifest.Entry

    /// `path` relative to the output folder (outputs are always below it).
    func relativeToRoot(_ path: String) -> String {
        let prefix = outputRoot.hasSuffix("/") ? outputRoot : outputRoot + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// Whether every recorded output exists (as a regular file) with its recorded SHA-256 (or its
    /// recorded size and modification time, see ``Manifest/Output``).
    func outputsMatch(_ outputs: [Manifest.Output]) -> Bool {
        for o in outputs {
            let path = PathText.join(outputRoot, o.path)
            guard let st = Platform.status(path, followLinks: false), st.kind == .regular else { return false }
            if let size = o.size, let mtime = o.mtimeNanoseconds, size == st.size, mtime == st.modifiedNanoseconds { continue }
            guard let data = FileManager.default.contents(atPath: path) else { return false }
            let hash = data.withUnsafeBytes { raw in
                var h = SHA256()
                h.update(buffer: raw.bindMemory(to: UInt8.self))
                return SHA256.hexString(h.finalize())
            }
            if hash != o.sha256 { return false }
        }
        return true
    }

    /// The manifest after this run: entries of converted and skipped files, plus (without
    /// `prune`) the entries of inputs not seen this run, so that `--prune` can remove their outputs
    /// later. Failed files lose their entry (they are retried).
    package func manifest(after outcomes: [FileOutcome], previous: Manifest, keepUnseen: Bool) -> Manifest {
        if Self.manifestUnchanged(outcomes, previous: previous) { return previous }
        var m = Manifest(index: previous.index)
        if keepUnseen {
            let seen = Set(outcomes.map(\.input.relative))
            for (k, v) in previous.entries where !seen.contains(k) { m.entries[k] = v }
        }
        for o in outcomes { if let e = o.entry { m.entries[o.input.relative] = e } }
        return m
    }

    /// Whether the manifest after `outcomes` is `previous` as it was: every input was skipped with
    /// its old record and no input of `previous` is missing (so neither keeping nor pruning unseen
    /// entries changes anything). Answers without building and comparing 20 000 entries.
    package static func manifestUnchanged(_ outcomes: [FileOutcome], previous: Manifest) -> Bool {
        outcomes.count == previous.entries.count && outcomes.allSatisfy { $0.entryIsPrevious && $0.status == .skipped }
    }

    /// Deletes the outputs recorded in `previous` for inputs that are not in `outcomes` (inputs
    /// deleted since), when they are regular files below the output folder that still have the
    /// recorded bytes. Returns the paths removed, sorted.
    package func prune(previous: Manifest, outcomes: [FileOutcome]) -> [String] {
        let seen = Set(outcomes.map(\.input.relative))
        let keep = Set(outcomes.flatMap(\.written))
        var removed: [String] = []
        let rootReal = InputScanner.realPath(outputRoot)
        for (rel, entry) in previous.entries where !seen.contains(rel) {
            for o in entry.outputs {
                let path = (outputRoot as NSString).appendingPathComponent(o.path)
                guard !o.path.hasPrefix("/"), !o.path.split(separator: "/").contains(".."), !keep.contains(path),
                      InputScanner.realPath((path as NSString).deletingLastPathComponent).hasPrefix(rootReal),
                      outputsMatch([o]) else { continue }
                if Platform.removeFile(path) == nil { removed.append(path) }
            }
        }
        return removed.sorted()
    }

    /// Writes `index.html` in the HTML output root: the converted notes, newest first. Returns its
    /// path and its manifest record (SHA-256, size, time). When every input was skipped and the
    /// index `previous` recorded is intact, the page is neither rendered nor written.
    package func writeIndex(_ outcomes: [FileOutcome], previous: Manifest = Manifest()) throws -> (path: String, record: Manifest.Output)? {
        guard let html = writers.first(where: { $0.name == "html" }), !options.fragment else { return nil }
        let root = root(for: html)
        let indexPath = PathText.join(root, "index.html")
        if let old = previous.index, old.path == relativeToRoot(indexPath), Self.manifestUnchanged(outcomes, previous: previous),
           old.size != nil, outputsMatch([old]) {
            return (indexPath, old)
        }
        var entries: [(title: String, created: Date?, href: String)] = []
        for o in outcomes where o.error == nil {
            let rel = PathText.deletingExtension(o.input.relative) + ".html"
            entries.append((o.title ?? rel, o.created, PathText.percentEncodedPath(rel)))
        }
        let page = Array(try HTMLIndex(theme: options.theme, templates: options.templates).render(entries: entries).utf8)
        let path = indexPath
        try OutputGuard(root: InputScanner.realPath(outputRoot), inputFolders: inputFolders, inputFiles: LazyIdentities([]))
            .check(path, input: path)
        // An unchanged index is left alone (same bytes, and its time stays for make).
        let same = !page.isEmpty && Platform.status(path, followLinks: false)?.kind == .regular
            && FileManager.default.contents(atPath: path).map { existing in
            existing.count == page.count
                && existing.withUnsafeBytes { e in page.withUnsafeBytes { memcmp(e.baseAddress!, $0.baseAddress!, page.count) == 0 } }
        } == true
        if !same { try AtomicFile.write(page, to: path) }
        let st = Platform.status(path, followLinks: false)
        return (path, Manifest.Output(path: relativeToRoot(path), sha256: SHA256.hex(page), size: st?.size,
                                      mtimeNanoseconds: st?.modifiedNanoseconds))
    }
}

final class Counter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()
    func increment() -> Int {
        lock.lock(); defer { lock.unlock() }
        let v = value
        value += 1
        return v
    }
}

final class ResultBox: @unchecked Sendable {
    private var items: [FileOutcome?]
    private let lock = NSLock()
    init(count: Int) { items = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ o: FileOutcome) { lock.lock(); items[i] = o; lock.unlock() }
    func values() -> [FileOutcome] { lock.lock(); defer { lock.unlock() }; return items.compactMap { $0 } }
}
