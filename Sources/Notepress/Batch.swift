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
                let entries: [String]
                do { entries = try fm.contentsOfDirectory(atPath: dir).sorted() } catch {
                    scan.errors.append(ConversionError(file: dir, "cannot read folder: \(error.localizedDescription)")); continue
                }
                for name in entries.reversed() where !name.hasPrefix(".") {
                    let path = (dir as NSString).appendingPathComponent(name)
                    let relPath = rel.isEmpty ? name : rel + "/" + name
                    var sub: ObjCBool = false
                    guard fm.fileExists(atPath: path, isDirectory: &sub) else {
                        scan.errors.append(ConversionError(file: path, "broken symbolic link")); continue
                    }
                    if sub.boolValue {
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
    public var input: InputFile
    /// Output paths written, in writer order.
    public var written: [String] = []
    public var diagnostics: [Diagnostic] = []
    public var error: ConversionError?
    /// Title and date, for the HTML index.
    public var title: String?
    public var created: Date?
}

/// Converts many files with several writers on `jobs` threads. Output bytes and the order of
/// outcomes do not depend on the job count.
public struct BatchConverter: Sendable {
    public var loader: DocumentLoader
    public var writers: [any DocumentWriter]
    public var options: ConversionOptions
    /// The output folder (`-o DIR`).
    public var outputRoot: String
    public var layout: OutputLayout
    public var jobs: Int

    public init(loader: DocumentLoader, writers: [any DocumentWriter], options: ConversionOptions,
                outputRoot: String, layout: OutputLayout = .mirror, jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.loader = loader
        self.writers = writers
        self.options = options
        self.outputRoot = outputRoot
        self.layout = layout
        self.jobs = max(1, jobs)
    }

    /// The folder a writer's outputs go to.
    public func root(for writer: any DocumentWriter) -> String {
        if writers.count > 1 && layout == .mirror { return (outputRoot as NSString).appendingPathComponent(writer.name) }
        return outputRoot
    }

    /// The output path of `input` for `writer`: its relative path with the writer's extension.
    public func outputPath(_ input: InputFile, _ writer: any DocumentWriter) -> String {
        let rel = (input.relative as NSString).deletingPathExtension + "." + writer.fileExtension
        return (root(for: writer) as NSString).appendingPathComponent(rel)
    }

    /// Converts every file; calls `progress` (from any thread, serialised) after each one.
    public func run(_ files: [InputFile], inputRealPaths: Set<String>,
                    progress: (@Sendable (Int, FileOutcome) -> Void)? = nil) -> [FileOutcome] {
        let results = ResultBox(count: files.count)
        let next = Counter()
        let worker: @Sendable () -> Void = {
            while true {
                let i = next.increment()
                if i >= files.count { return }
                let outcome = convert(files[i], inputRealPaths: inputRealPaths)
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

    /// Converts one file with every writer.
    public func convert(_ input: InputFile, inputRealPaths: Set<String>) -> FileOutcome {
        var outcome = FileOutcome(input: input)
        do {
            let read = try loader.load(path: input.path)
            outcome.diagnostics = read.diagnostics
            outcome.title = read.document.metadata.title
            outcome.created = read.document.metadata.created
            for writer in writers {
                let path = outputPath(input, writer)
                if inputRealPaths.contains(InputScanner.realPath(path)) {
                    throw ConversionError(file: input.path, "output \(path) is an input file; refusing to overwrite it")
                }
                let bytes = try writer.write(read.document, options: options, diagnostics: &outcome.diagnostics)
                try AtomicFile.write(bytes, to: path)
                outcome.written.append(path)
            }
        } catch let e as ConversionError {
            outcome.error = e
        } catch {
            outcome.error = ConversionError(file: input.path, "\(error)")
        }
        return outcome
    }

    /// Writes `index.html` in the HTML output root: the converted notes, newest first.
    public func writeIndex(_ outcomes: [FileOutcome]) throws -> String? {
        guard let html = writers.first(where: { $0.name == "html" }), !options.fragment else { return nil }
        let root = root(for: html)
        var entries: [(title: String, created: Date?, href: String)] = []
        for o in outcomes where o.error == nil {
            let rel = (o.input.relative as NSString).deletingPathExtension + ".html"
            entries.append((o.title ?? rel, o.created, rel.split(separator: "/").map { String($0).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0) }.joined(separator: "/")))
        }
        let page = try HTMLIndex(theme: options.theme, templates: options.templates).render(entries: entries)
        let path = (root as NSString).appendingPathComponent("index.html")
        try AtomicFile.write(Array(page.utf8), to: path)
        return path
    }
}

/// Writes files atomically: a temporary file in the same folder, then `rename(2)`.
public enum AtomicFile {
    /// - Throws: ``ConversionError`` when the folder cannot be made or the file written.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty {
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw ConversionError(file: path, "cannot create folder \(dir): \(error.localizedDescription)")
            }
        }
        let base = (path as NSString).lastPathComponent
        var template = Array(((dir.isEmpty ? "." : dir) + "/." + base + ".tmp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw ConversionError(file: path, "cannot create a temporary file: \(String(cString: strerror(errno)))") }
        let tmp = String(cString: template)
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
