import Foundation
import NotepressAST
import NotepressHTML
import NotepressReaders

/// One input file and where it sits below the folder it was found in.
public struct InputFile: Sendable, Equatable {
    /// The path as the user gave it or as found walking a folder.
    public var path: String
    /// The path below the input folder (the file name for a file given directly); outputs mirror it.
    public var relative: String
    public init(path: String, relative: String) {
        self.path = path
        self.relative = relative
    }
}

/// The files an input list names, folders walked in sorted order.
public struct InputScan: Sendable {
    public var files: [InputFile] = []
    /// Files of kinds Notepress does not read, found in folders (skipped, not errors).
    public var skipped: [String] = []
    /// Inputs that could not be walked (missing, unreadable, a folder loop).
    public var errors: [ConversionError] = []
    /// Resolved paths of the input folders given.
    public var folders: [String] = []
}

/// Walks the inputs. Files given directly are converted whatever their extension (stdin is `-`);
/// in folders only known kinds (``DocumentLoader/format(forPath:)``) are, hidden entries are
/// ignored, and symbolic links to folders are followed unless they lead back into a folder being
/// walked (a loop, reported as an error).
public enum InputScanner {
    public static func scan(_ inputs: [String], format: SourceFormat?) -> InputScan {
        var scan = InputScan()
        let fm = FileManager.default
        for input in inputs {
            if input == "-" { scan.files.append(InputFile(path: "-", relative: "stdin")); continue }
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: input, isDirectory: &isDir) else {
                scan.errors.append(ConversionError(file: input, "no such file or folder")); continue
            }
            if !isDir.boolValue {
                scan.files.append(InputFile(path: input, relative: (input as NSString).lastPathComponent)); continue
            }
            let root = realPath(input)
            scan.folders.append(root)
            // Iterative walk: (path, relative, ancestors' real paths)
            var stack: [(String, String, [String])] = [(input, "", [root])]
            var found: [InputFile] = []
            while let (dir, rel, ancestors) = stack.popLast() {
                guard let entries = directoryEntries(dir) else {
                    scan.errors.append(ConversionError(file: dir, "cannot read folder: \(String(cString: strerror(errno)))")); continue
                }
                for (name, type) in entries.reversed() where !name.hasPrefix(".") {
                    let path = PathText.join(dir, name)
                    let relPath = rel.isEmpty ? name : rel + "/" + name
                    var isFolder = type == UInt8(DT_DIR)
                    if type != UInt8(DT_DIR) && type != UInt8(DT_REG) {
                        // A symbolic link or an unknown type: follow it.
                        var st = stat()
                        guard stat(path, &st) == 0 else {
                            scan.errors.append(ConversionError(file: path, "broken symbolic link")); continue
                        }
                        isFolder = st.st_mode & S_IFMT == S_IFDIR
                    }
                    if isFolder {
                        let real = realPath(path)
                        if ancestors.contains(real) {
                            scan.errors.append(ConversionError(file: path, "folder loop: leads back to \(real); not followed"))
                            continue
                        }
                        stack.append((path, relPath, ancestors + [real]))
                    } else if DocumentLoader.format(forPath: name) != nil {
                        found.append(InputFile(path: path, relative: relPath))
                    } else {
                        scan.skipped.append(path)
                    }
                }
            }
            scan.files.append(contentsOf: found.sorted { $0.relative < $1.relative })
        }
        return scan
    }

    /// The entries of a folder with their `d_type` (`DT_REG`, `DT_DIR`, `DT_LNK`, `DT_UNKNOWN`…),
    /// sorted by name (code-point order), without `.` and `..`; `nil` when it cannot be read
    /// (`errno` set). One `readdir(3)` pass: no `stat` per regular file or folder.
    static func directoryEntries(_ dir: String) -> [(String, UInt8)]? {
        guard let d = opendir(dir) else { return nil }
        defer { closedir(d) }
        var entries: [(String, UInt8)] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name == "." || name == ".." { continue }
            entries.append((name, e.pointee.d_type))
        }
        return entries.sorted { $0.0 < $1.0 }
    }

    /// The canonical absolute path (symbolic links resolved), or the standardised path when it
    /// does not exist yet.
    public static func realPath(_ path: String) -> String {
        if let r = realpath(path, nil) {
            defer { free(r) }
            return String(cString: r)
        }
        // Resolve the deepest existing ancestor, then append the rest.
        let abs = URL(fileURLWithPath: path).standardizedFileURL.path
        let parent = (abs as NSString).deletingLastPathComponent
        if parent == abs { return abs }
        return (realPath(parent) as NSString).appendingPathComponent((abs as NSString).lastPathComponent)
    }
}

/// Where outputs go when there are several formats: `mirror` gives each format its own tree
/// (`OUT/html/a/b.html`, `OUT/rtf/a/b.rtf`); `flat` puts every format side by side in one tree
/// (`OUT/a/b.html`, `OUT/a/b.rtf`). With one format both are `OUT/a/b.html`.
public enum OutputLayout: String, Sendable, CaseIterable {
    case mirror, flat
}

/// The outcome for one input.
public struct FileOutcome: Sendable {
    /// What happened: converted, skipped because nothing changed (``Manifest``), or failed.
    public enum Status: String, Sendable { case converted, skipped, failed }

    public var input: InputFile
    /// Output paths written (or, when skipped, still valid), in writer order.
    public var written: [String] = []
    public var diagnostics: [Diagnostic] = []
    public var error: ConversionError?
    /// Title and date, for the HTML index.
    public var title: String?
    public var created: Date?
    public var status: Status = .converted
    /// The manifest record for this input (`nil` when it failed).
    public var entry: Manifest.Entry?
    /// `entry` is the previous run's record unchanged (skipped by size and time).
    public var entryIsPrevious = false
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
public struct BatchConverter: Sendable {
    public var loader: DocumentLoader
    public var writers: [any DocumentWriter]
    public var options: ConversionOptions
    /// The output folder (`-o DIR`).
    public var outputRoot: String
    public var layout: OutputLayout
    public var jobs: Int
    /// Hash of everything besides the input that decides outputs; `nil` turns incremental skipping off.
    public var configuration: BuildConfiguration?
    /// Real paths of the input folders: outputs may not resolve into them.
    public var inputFolders: [String] = []

    public init(loader: DocumentLoader, writers: [any DocumentWriter], options: ConversionOptions,
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
    public func root(for writer: any DocumentWriter) -> String {
        if writers.count > 1 && layout == .mirror { return PathText.join(outputRoot, writer.name) }
        return outputRoot
    }

    /// The output path of `input` for `writer`: its relative path with the writer's extension.
    public func outputPath(_ input: InputFile, _ writer: any DocumentWriter) -> String {
        PathText.join(root(for: writer), PathText.deletingExtension(input.relative) + "." + writer.fileExtension)
    }

    /// Converts every file; calls `progress` (from any thread, serialised) after each one.
    /// `previous` is the manifest of the last run (for skipping unchanged files).
    public func run(_ files: [InputFile], previous: Manifest = Manifest(),
                    progress: (@Sendable (Int, FileOutcome) -> Void)? = nil) -> [FileOutcome] {
        // Two inputs with the same output (a.md, a.note): the later one in order fails, whatever
        // the job count.
        var owner: [String: String] = [:]
        var clash: [Int: ConversionError] = [:]
        for (i, f) in files.enumerated() {
            for w in writers {
                let out = outputPath(f, w)
                if let first = owner[out] {
                    clash[i] = ConversionError(file: f.path, "output \(out) is also the output of \(first); not converted")
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
    public func convert(_ input: InputFile) -> FileOutcome {
        convert(input, guard: OutputGuard(root: InputScanner.realPath(outputRoot), inputFolders: inputFolders,
                                          inputFiles: LazyIdentities([input.path])), previous: nil)
    }

    func convert(_ input: InputFile, guard context: OutputGuard, previous: Entry?) -> FileOutcome {
        var outcome = FileOutcome(input: input)
        do {
            let fm = FileManager.default
            var inputStat = stat()
            let statted = stat(input.path, &inputStat) == 0
            if statted, inputStat.st_mode & S_IFMT == S_IFDIR {
                throw ConversionError(file: input.path, "is a folder, not a file")
            }
            // Unchanged size and time, same configuration, outputs intact: skip without reading.
            let inputSize = statted ? Int(inputStat.st_size) : nil
            let inputMtime = statted ? Int64(inputStat.st_mtim.tv_sec) * 1_000_000_000 + Int64(inputStat.st_mtim.tv_nsec) : nil
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
            guard let data = fm.contents(atPath: input.path) else {
                let reason = fm.fileExists(atPath: input.path) ? "cannot be read (permission denied?)" : "no such file"
                throw ConversionError(file: input.path, reason)
            }
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

            var read = try loader.load(data: data, path: input.path, modified: modified)
            // Writers that record the source (TEI's idno, the JSON dump) get the path below the
            // input folder: no absolute path of this machine in the output.
            read.document.metadata.sourcePath = input.relative
            outcome.diagnostics = read.diagnostics
            outcome.title = read.document.metadata.title
            outcome.created = read.document.metadata.created
            var outputs: [Manifest.Output] = []
            for (writer, path) in zip(writers, paths) {
                let bytes = try writer.write(read.document, options: options, diagnostics: &outcome.diagnostics)
                try AtomicFile.write(bytes, to: path)
                outcome.written.append(path)
                if configuration != nil {
                    var st = stat()
                    let ok = lstat(path, &st) == 0
                    outputs.append(Manifest.Output(path: relativeToRoot(path), sha256: SHA256.hex(bytes),
                                                   size: ok ? Int(st.st_size) : nil,
                                                   mtimeNanoseconds: ok ? Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec) : nil))
                }
            }
            if let config = configuration {
                outcome.entry = Manifest.Entry(inputSHA256: inputHash, modified: modified?.timeIntervalSince1970,
                                               configSHA256: config.sha256, outputs: outputs, title: outcome.title,
                                               created: outcome.created?.timeIntervalSince1970)
                outcome.entry?.inputSize = inputSize
                outcome.entry?.inputMtimeNanoseconds = inputMtime
            }
        } catch let e as ConversionError {
            outcome.error = e
            outcome.status = .failed
        } catch {
            outcome.error = ConversionError(file: input.path, "\(error)")
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
            var st = stat()
            guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return false }
            if let size = o.size, let mtime = o.mtimeNanoseconds, size == Int(st.st_size),
               mtime == Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec) { continue }
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
    public func manifest(after outcomes: [FileOutcome], previous: Manifest, keepUnseen: Bool) -> Manifest {
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
    public static func manifestUnchanged(_ outcomes: [FileOutcome], previous: Manifest) -> Bool {
        outcomes.count == previous.entries.count && outcomes.allSatisfy { $0.entryIsPrevious && $0.status == .skipped }
    }

    /// Deletes the outputs recorded in `previous` for inputs that are not in `outcomes` (inputs
    /// deleted since), when they are regular files below the output folder that still have the
    /// recorded bytes. Returns the paths removed, sorted.
    public func prune(previous: Manifest, outcomes: [FileOutcome]) -> [String] {
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
                if unlink(path) == 0 { removed.append(path) }
            }
        }
        return removed.sorted()
    }

    /// Writes `index.html` in the HTML output root: the converted notes, newest first. Returns its
    /// path and its manifest record (SHA-256, size, time). When every input was skipped and the
    /// index `previous` recorded is intact, the page is neither rendered nor written.
    public func writeIndex(_ outcomes: [FileOutcome], previous: Manifest = Manifest()) throws -> (path: String, record: Manifest.Output)? {
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
        let same = !page.isEmpty && FileManager.default.contents(atPath: path).map { existing in
            existing.count == page.count
                && existing.withUnsafeBytes { e in page.withUnsafeBytes { memcmp(e.baseAddress!, $0.baseAddress!, page.count) == 0 } }
        } == true
        if !same { try AtomicFile.write(page, to: path) }
        var st = stat()
        let ok = lstat(path, &st) == 0
        return (path, Manifest.Output(path: relativeToRoot(path), sha256: SHA256.hex(page), size: ok ? Int(st.st_size) : nil,
                                      mtimeNanoseconds: ok ? Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec) : nil))
    }
}

/// Decides whether an output path may be written (see ``BatchConverter``'s safety rules).
struct OutputGuard: Sendable {
    /// Real path of the output folder.
    var root: String
    /// Real paths of input folders.
    var inputFolders: [String]
    /// Device and inode of every input file (worked out on first need): an output that is one
    /// of them (by any path, hard links included) is refused.
    let inputFiles: LazyIdentities
    /// Real paths of output folders already resolved (many outputs share a folder).
    let folders = RealPathCache()

    /// - Throws: ``ConversionError`` naming `input` when `path` must not be written.
    func check(_ path: String, input: String) throws {
        var st = stat()
        if lstat(path, &st) == 0 {
            if st.st_mode & S_IFMT == S_IFLNK {
                throw ConversionError(file: input, "output \(path) is a symbolic link; refusing to write through it")
            }
            if inputFiles.contains(FileIdentity(st)) {
                throw ConversionError(file: input, "output \(path) is an input file; refusing to overwrite it")
            }
        }
        // The output itself is not a link (checked above), so its real path is its folder's real
        // path and its name.
        let real = PathText.join(folders.realPath(PathText.deletingLastComponent(path)), PathText.lastComponent(path))
        if real != root && !real.hasPrefix(root == "/" ? "/" : root + "/") {
            throw ConversionError(file: input, "output \(path) resolves to \(real), outside the output folder \(root); refusing to write it")
        }
        for f in inputFolders where real.hasPrefix(f + "/") {
            throw ConversionError(file: input, "output \(path) resolves into the input folder \(f); refusing to write it")
        }
    }
}

/// A file's identity on this machine: device and inode number (`stat(2)`'s `st_dev`, `st_ino`).
struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64

    init(_ st: stat) {
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }

    /// The identities of the files at `paths` (symbolic links followed); paths that cannot be
    /// `stat`ed are left out.
    static func of(_ paths: [String]) -> Set<FileIdentity> {
        var set = Set<FileIdentity>(minimumCapacity: paths.count)
        var st = stat()
        for p in paths where p != "-" && stat(p, &st) == 0 { set.insert(FileIdentity(st)) }
        return set
    }
}

/// The ``FileIdentity`` set of a list of input paths, made on the first lookup (thread-safe): a
/// first run writes only new files and a no-change run writes none, so neither needs it.
final class LazyIdentities: @unchecked Sendable {
    let paths: [String]
    private var set: Set<FileIdentity>?
    private let lock = NSLock()

    init(_ paths: [String]) { self.paths = paths }

    func contains(_ id: FileIdentity) -> Bool {
        lock.lock(); defer { lock.unlock() }
        if set == nil { set = FileIdentity.of(paths) }
        return set!.contains(id)
    }
}

/// ``InputScanner/realPath(_:)`` of folders, remembered (thread-safe). A folder made during the run
/// resolves to the same path before and after it exists, since its parent is resolved.
final class RealPathCache: @unchecked Sendable {
    private var cache: [String: String] = [:]
    private let lock = NSLock()

    func realPath(_ folder: String) -> String {
        lock.lock()
        if let r = cache[folder] { lock.unlock(); return r }
        lock.unlock()
        let r = InputScanner.realPath(folder)
        lock.lock(); cache[folder] = r; lock.unlock()
        return r
    }
}

/// Path text operations on `/`-separated paths, without Foundation's `NSString` path methods
/// (which normalise the whole string on every call; a folder run makes several calls per file).
enum PathText {
    /// `base` and `component` joined by one `/`; `component` alone when `base` is empty.
    static func join(_ base: String, _ component: String) -> String {
        if base.isEmpty { return component }
        if component.isEmpty { return base }
        return base.utf8.last == 0x2F ? base + component : base + "/" + component
    }

    /// The path without the extension of its last component (`a/b.md` → `a/b`); a leading dot
    /// (`.profile`) is not an extension.
    static func deletingExtension(_ path: String) -> String {
        let u = Array(path.utf8)
        var i = u.count - 1
        while i > 0 {
            if u[i] == 0x2F { return path }
            if u[i] == 0x2E { return u[i - 1] == 0x2F ? path : String(decoding: u[..<i], as: UTF8.self) }
            i -= 1
        }
        return path
    }

    /// The last component (`a/b.md` → `b.md`).
    static func lastComponent(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: 0x2F) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// `path` with every byte outside ASCII letters and digits, `-._~!$&'()*+,=@` and `/`
    /// percent-encoded from its UTF-8 (RFC 3986 §2.1), as swift-corelibs-foundation's
    /// `CharacterSet.urlPathAllowed` does: RFC 3986's path characters less `:` (which would make
    /// a relative reference's first segment read as a scheme, §4.2) and `;`.
    static func percentEncodedPath(_ path: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for b in path.utf8 {
            switch b {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A,
                 0x2D, 0x2E, 0x5F, 0x7E, 0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3D, 0x40, 0x2F:
                out.append(b)
            default:
                out.append(0x25); out.append(hex[Int(b >> 4)]); out.append(hex[Int(b & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The folder part (`a/b.md` → `a`; `b.md` → `.`; `/b` → `/`).
    static func deletingLastComponent(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: 0x2F) else { return "." }
        if slash == path.utf8.startIndex { return "/" }
        return String(path[..<slash])
    }
}

/// Writes files atomically: a temporary file in the same folder, then `rename(2)`.
public enum AtomicFile {
    /// - Throws: ``ConversionError`` when the folder cannot be made or the file written.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        let dir = (path as NSString).deletingLastPathComponent
        let base = (path as NSString).lastPathComponent
        var template = Array(((dir.isEmpty ? "." : dir) + "/." + base + ".tmp-XXXXXX").utf8CString)
        var fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd < 0 && errno == ENOENT && !dir.isEmpty {
            // Make the folder only when it is missing (one mkdir per folder, not per file).
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw ConversionError(file: path, "cannot create folder \(dir): \(error.localizedDescription)")
            }
            template = Array((dir + "/." + base + ".tmp-XXXXXX").utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        }
        guard fd >= 0 else { throw ConversionError(file: path, "cannot create a temporary file: \(String(cString: strerror(errno)))") }
        let tmp = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var ok = true
        bytes.withUnsafeBytes { buf in
            var off = 0
            while off < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + off, buf.count - off)
                if n <= 0 { ok = false; return }
                off += n
            }
        }
        fchmod(fd, 0o644)
        if close(fd) != 0 { ok = false }
        guard ok, rename(tmp, path) == 0 else {
            let msg = String(cString: strerror(errno))
            unlink(tmp)
            throw ConversionError(file: path, "cannot write: \(msg)")
        }
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
