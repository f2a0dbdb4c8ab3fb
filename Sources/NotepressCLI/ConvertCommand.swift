import Foundation
import Notepress
import NotepressANSI
import NotepressAST
import NotepressHTML
import NotepressPlatform
import NotepressResources
import NotepressThemes

let convertUsage = """
usage: notepress convert [options] INPUT...

Converts note markup (.note, .txt) and Markdown (.md, .markdown) files, folders of them, or
standard input (-) to other formats.

Options:
  -t, --to FORMAT[,FORMAT...]  html (default), rtf, ansi, tei, man, json
  -f, --from FORMAT            note, commonmark, gfm (default: from the file extension;
                               markdown means gfm)
  -o, --output PATH            output file, or folder when converting a folder or several
                               files (- or no -o: standard output for one input)
      --layout mirror|flat     several formats: one tree per format (mirror, default:
                               OUT/html/a/b.html, OUT/rtf/a/b.rtf) or side by side in one
                               tree (flat: OUT/a/b.html, OUT/a/b.rtf)
  -j, --jobs N                 files converted in parallel (default: the number of cores);
                               outputs are the same bytes whatever N is
      --force                  convert every file, even those unchanged since the last run
                               (the output folder's .notepress-manifest records
                               SHA-256 hashes of inputs, options, theme and outputs)
      --prune                  delete the outputs of inputs that no longer exist
      --depfile FILE           write a Makefile-syntax dependency file (for make and ninja):
                               outputs depend on their input, the theme file and templates;
                               the HTML index on every input and input folder
      --fragment               HTML: body content only, no page template
      --unsafe                 keep raw HTML and javascript:/vbscript:/file:/data: links
      --keep-markers           notes: show the *, _, -, ~ delimiters, styled
      --theme NAME|PATH        theme name from the data folder or built in, or a .json file
      --size-category NAME     xs s m l xl xxl xxxl ax1..ax5 or extraSmall..
                               accessibilityExtraExtraExtraLarge (default: large)
      --bold-text              the accessibility Bold Text setting: weights step up
      --data-dir DIR           templates and themes in DIR override the built-in ones
      --width N                ansi: wrap at N columns (default: terminal, COLUMNS, 80)
      --color WHEN             ansi: auto (default), always, never
      --hyperlinks WHEN        ansi: OSC 8 links: auto (default), always, never
      --ascii                  ansi: ASCII borders and bullets
      --no-validate            tei: do not validate against the RelaxNG schema
  -q, --quiet                  no progress or summary on standard error (a progress bar
                               on a terminal, else one line per file: converted PATH,
                               skipped PATH, failed PATH)
  -h, --help                   show this help
      --version                show the version

Outputs are byte-for-byte reproducible: SOURCE_DATE_EPOCH (seconds since 1970) caps the dates
taken from file times.

Exit status: 0 all converted, 1 an input failed (the others are still converted; the failures
are listed at the end), 2 usage error.
"""

/// Options shared by `convert` and `view`: theme, category, data folder.
struct ThemeArguments {
    static let valueOptions: [[String]] = [["--theme"], ["--size-category"], ["--data-dir"]]
    static let flagOptions: [[String]] = [["--bold-text"]]

    /// - Throws: ``UsageError`` for an unknown category; theme errors as they come.
    static func resolve(_ a: Arguments) throws -> (ResolvedTheme, TemplateStore) {
        let store = TemplateStore(dataDirectory: a.value("--data-dir").map { URL(fileURLWithPath: $0) })
        var category = SizeCategory.large
        if let name = a.value("--size-category") {
            guard let c = SizeCategory(name: name) else {
                throw UsageError("unknown size category '\(name)'; expected one of "
                    + SizeCategory.allCases.map { "\($0.alias)/\($0.rawValue)" }.joined(separator: ", "))
            }
            category = c
        }
        let theme = try ThemeLoader(store: store).load(a.value("--theme") ?? "default")
        return (theme.resolved(category: category, boldText: a.flag("--bold-text")), store)
    }
}

func parseFormat(_ s: String) throws -> SourceFormat {
    switch s.lowercased() {
    case "note", "notes": return .note
    case "commonmark", "cm": return .commonmark
    case "gfm", "markdown", "md": return .gfm
    default: throw UsageError("unknown input format '\(s)'; expected note, commonmark or gfm")
    }
}

func runConvertCommand(_ args: [String]) -> Int32 {
    let parsed: Arguments
    do {
        parsed = try Arguments(
            args,
            valueOptions: [["--to", "-t"], ["--from", "-f"], ["--output", "-o"], ["--layout"], ["--jobs", "-j"],
                           ["--width"], ["--color"], ["--hyperlinks"], ["--depfile"]] + ThemeArguments.valueOptions,
            flagOptions: [["--fragment"], ["--unsafe"], ["--keep-markers"], ["--ascii"], ["--no-validate"],
                          ["--force"], ["--prune"],
                          ["--quiet", "-q"], ["--help", "-h"], ["--version"]] + ThemeArguments.flagOptions)
    } catch {
        printError("notepress convert: \(error)\n(see notepress convert --help)")
        return 2
    }
    if parsed.flag("--help") { print(convertUsage); return 0 }
    if parsed.flag("--version") { print("notepress \(notepressVersion)"); return 0 }
    do {
        return try convert(parsed)
    } catch let e as UsageError {
        printError("notepress convert: \(e)\n(see notepress convert --help)")
        return 2
    } catch {
        printError("notepress convert: \(error)")
        return 2
    }
}

private func convert(_ a: Arguments) throws -> Int32 {
    let env = ProcessInfo.processInfo.environment
    let quiet = a.flag("--quiet")
    // Writers
    let names = (a.value("--to") ?? "html").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    var writers: [any DocumentWriter] = []
    for n in names where !n.isEmpty {
        let name = n == "tree" ? "json" : n
        guard let w = WriterRegistry.writer(named: name) else {
            throw UsageError("unknown output format '\(n)'; expected one of " + WriterRegistry.all.map(\.name).joined(separator: ", "))
        }
        if !writers.contains(where: { $0.name == w.name }) { writers.append(w) }
    }
    if writers.isEmpty { throw UsageError("no output format given") }
    let format = try a.value("--from").map(parseFormat)
    let layout: OutputLayout
    if let l = a.value("--layout") {
        guard let v = OutputLayout(rawValue: l) else { throw UsageError("--layout expects mirror or flat, got '\(l)'") }
        layout = v
    } else {
        layout = .mirror
    }
    let jobs = try a.int("--jobs", in: 1...1024) ?? ProcessInfo.processInfo.activeProcessorCount

    // Options. A theme is loaded only when an output uses one or theme options were given.
    let themeAsked = ThemeArguments.valueOptions.contains { $0.contains { a.value($0) != nil } } || a.flag("--bold-text")
    let (theme, store) = themeAsked || writers.contains(where: { $0.usesTheme(fragment: a.flag("--fragment")) })
        ? try ThemeArguments.resolve(a)
        : (Theme.standard.resolved(category: .large), TemplateStore(dataDirectory: nil))
    var options = ConversionOptions(theme: theme, templates: store)
    options.fragment = a.flag("--fragment")
    options.unsafe = a.flag("--unsafe")
    options.ascii = a.flag("--ascii")
    options.validate = !a.flag("--no-validate")
    let output = a.value("--output")
    let toStdout = output == nil || output == "-"
    let stdoutIsTTY = Platform.isTerminal(STDOUT_FILENO)
    let colorMode = a.value("--color") ?? "auto"
    guard ["auto", "always", "never"].contains(colorMode) else { throw UsageError("--color expects auto, always or never") }
    let depth = ColorPolicy.depth(mode: colorMode, isTTY: toStdout && stdoutIsTTY, environment: env)
    options.colorDepth = ColorDepth(rawValue: "\(depth)") ?? .none
    let hyper = a.value("--hyperlinks") ?? "auto"
    guard ["auto", "always", "never"].contains(hyper) else { throw UsageError("--hyperlinks expects auto, always or never") }
    options.hyperlinks = hyper == "always" || (hyper == "auto" && options.colorDepth != .none && toStdout && stdoutIsTTY)
    options.width = try a.int("--width", in: 10...10_000)
        ?? (toStdout ? TerminalSize.columns(environment: env, fd: STDOUT_FILENO) : 80)

    let loader = DocumentLoader(format: format, keepMarkers: a.flag("--keep-markers"),
                                sourceDateEpoch: DocumentLoader.sourceDateEpoch(from: env))
    let inputs = a.positionals
    if inputs.isEmpty { throw UsageError("no input given (use - for standard input)") }

    // One input to standard output or to one file.
    var isDir: ObjCBool = false
    // A single path that does not exist is a single file too: it fails with "no such file", exit 1.
    let singleFile = inputs.count == 1 && (inputs[0] == "-" || !FileManager.default.fileExists(atPath: inputs[0], isDirectory: &isDir) || !isDir.boolValue)
    var outputIsDir: ObjCBool = false
    let outputExistsAsDir = output.map { FileManager.default.fileExists(atPath: $0, isDirectory: &outputIsDir) && outputIsDir.boolValue } ?? false
    if singleFile && (toStdout || (!outputExistsAsDir && writers.count == 1 && !(output!.hasSuffix("/")))) {
        if writers.count > 1 { throw UsageError("several formats need an output folder (-o DIR)") }
        // One document in this process: cmark's arena allocator, as the cmark-gfm program uses.
        var single = loader
        single.cmarkArena = true
        let status = convertOne(inputs[0], to: toStdout ? nil : output!, writer: writers[0], loader: single, options: options)
        if status == 0, let depfile = a.value("--depfile") {
            guard let out = output, !toStdout, inputs[0] != "-" else {
                throw UsageError("--depfile needs input and output files (not standard input or output)")
            }
            let config = BuildConfiguration(options: options, loader: loader, writers: [writers[0].name], layout: layout,
                                            version: notepressVersion, themeFile: themeFile(a))
            do {
                let text = try Depfile.render([Depfile.Rule(targets: [out], prerequisites: [inputs[0]] + config.dependencyFiles)])
                try AtomicFile.write(Array(text.utf8), to: depfile)
            } catch {
                printError("\(error)")
                return 1
            }
        }
        return status
    }
    guard let outDir = output, !toStdout else {
        throw UsageError("converting a folder or several files needs an output folder (-o DIR)")
    }

    // Many inputs into a folder. The previous manifest is read while the inputs are scanned.
    let manifestBox = ManifestBox()
    let manifestRead = DispatchGroup()
    if !a.flag("--force") {
        manifestRead.enter()
        let t = Thread { manifestBox.value = Manifest.load(outputRoot: outDir); manifestRead.leave() }
        t.start()
    }
    let scan = InputScanner.scan(inputs, format: format)
    manifestRead.wait()
    let outReal = InputScanner.realPath(outDir)
    for folder in scan.folders where outReal == folder || outReal.hasPrefix(folder + "/") {
        throw UsageError("output folder \(outDir) is inside the input folder \(folder); choose a folder outside it")
    }
    if scan.files.contains(where: { $0.path == "-" }) { throw UsageError("standard input (-) cannot be mixed with an output folder") }
    let config = BuildConfiguration(options: options, loader: loader, writers: writers.map(\.name), layout: layout,
                                    version: notepressVersion, themeFile: themeFile(a))
    var batch = BatchConverter(loader: loader, writers: writers, options: options, outputRoot: outDir, layout: layout,
                               jobs: jobs, configuration: config)
    batch.inputFolders = scan.folders
    let start = Date()
    let previous = manifestBox.value
    let reporter = ProgressReporter(style: ProgressReporter.style(quiet: quiet), total: scan.files.count,
                                    width: TerminalSize.columns(environment: env, fd: STDERR_FILENO))
    let outcomes = batch.run(scan.files, previous: previous) { _, outcome in
        let event: ProgressReporter.Event = switch outcome.status {
        case .converted: .converted
        case .skipped: .skipped
        case .failed: .failed
        }
        reporter.record(event, path: outcome.input.path)
    }
    reporter.finish()
    var failures = scan.errors
    for o in outcomes {
        for d in o.diagnostics where !quiet { printError(d.description) }
        if let e = o.error { failures.append(e) }
    }
    var indexPath: String?
    var indexRecord: Manifest.Output?
    if !scan.folders.isEmpty {
        do {
            if let (path, record) = try batch.writeIndex(outcomes, previous: previous) {
                indexPath = path
                indexRecord = record
                if !quiet { printError("index: \(path)") }
            }
        } catch {
            failures.append(ConversionError(file: outDir + "/index.html", "\(error)"))
        }
    }
    let pruned = a.flag("--prune") ? batch.prune(previous: previous, outcomes: outcomes) : []
    for p in pruned where !quiet { printError("removed \(p)") }
    do {
        var manifest = batch.manifest(after: outcomes, previous: previous, keepUnseen: !a.flag("--prune"))
        manifest.index = indexRecord
        // A no-change run leaves the manifest as it was: skip re-encoding and rewriting it.
        let fm = FileManager.default
        let changed = indexRecord != previous.index
            || !BatchConverter.manifestUnchanged(outcomes, previous: previous) && manifest != previous
        let onDisk = fm.fileExists(atPath: (outDir as NSString).appendingPathComponent(Manifest.fileName))
        let legacy = fm.fileExists(atPath: (outDir as NSString).appendingPathComponent(Manifest.legacyFileName))
        if changed || !onDisk || legacy { try manifest.save(outputRoot: outDir) }
    } catch {
        failures.append(ConversionError(file: outDir + "/" + Manifest.fileName, "\(error)"))
    }
    if let depfile = a.value("--depfile") {
        var rules: [Depfile.Rule] = []
        for o in outcomes where o.error == nil {
            rules.append(Depfile.Rule(targets: o.written, prerequisites: [o.input.path] + config.dependencyFiles))
        }
        if let index = indexPath {
            rules.append(Depfile.Rule(targets: [index], prerequisites: inputs.filter { $0 != "-" }
                + outcomes.filter { $0.error == nil }.map(\.input.path) + config.dependencyFiles))
        }
        do {
            try AtomicFile.write(Array(try Depfile.render(rules).utf8), to: depfile)
        } catch {
            failures.append(ConversionError(file: depfile, "\(error)"))
        }
    }
    if !quiet {
        let secs = Date().timeIntervalSince(start)
        let converted = outcomes.filter { $0.status == .converted }.count
        let unchanged = outcomes.filter { $0.status == .skipped }.count
        printError(String(format: "converted %d, skipped %d (unchanged), skipped %d (unknown kind), failed %d in %.2f s; output in %@",
                          converted, unchanged, scan.skipped.count, failures.count, secs, outDir))
    }
    // The process ends after this: the records of 20 000 files are left for the exit to reclaim.
    ProcessLifetime.keep(previous)
    ProcessLifetime.keep(outcomes)
    ProcessLifetime.keep(scan)
    if !failures.isEmpty {
        printError("failed:")
        for f in failures { printError("  " + f.description) }
        return 1
    }
    return 0
}

/// The theme file `--theme` names, when it is a path (a `.json` file) rather than a theme name.
private func themeFile(_ a: Arguments) -> String? {
    guard let t = a.value("--theme"), t.hasSuffix(".json") || t.contains("/") else { return nil }
    return t
}

/// Converts one input (a file or `-`) to a file or standard output.
private func convertOne(_ input: String, to output: String?, writer: any DocumentWriter, loader: DocumentLoader,
                        options: ConversionOptions) -> Int32 {
    do {
        if let out = output, input != "-", InputScanner.realPath(out) == InputScanner.realPath(input) {
            throw ConversionError(file: input, "output \(out) is the input file; refusing to overwrite it")
        }
        // HTML: the body is written on a second thread while the reader still builds the tree.
        let html = writer as? HTMLWriter
        let format = loader.format ?? (input == "-" ? nil : DocumentLoader.format(forPath: input)) ?? .gfm
        let stream = html.map { _ in HTMLFragmentStream(options: HTMLWriter.htmlOptions(options, format: format)) }
        let each: ((Block) -> Void)? = stream.map { s in { s.push($0) } }
        // The reader keeps no blocks when the stream writes them: each goes once written.
        let loaded = Result {
            input == "-"
                ? try loader.load(data: FileHandle.standardInput.readDataToEndOfFile(), path: nil, modified: nil,
                                  topLevelBlock: each, retainBlocks: stream == nil)
                : try loader.load(path: input, topLevelBlock: each, retainBlocks: stream == nil)
        }
        if case .failure = loaded { _ = stream?.finish() }  // stop the writer thread
        let read = try loaded.get()
        var diagnostics = read.diagnostics
        let bytes = try html.map { try $0.write(read.document, options: options, diagnostics: &diagnostics, stream: stream) }
            ?? writer.write(read.document, options: options, diagnostics: &diagnostics)
        for d in diagnostics { printError(d.description) }
        if let out = output {
            try AtomicFile.write(bytes, to: out)
        } else {
            writeAllToStandardOutput(bytes)
        }
        // The process ends right after this: tearing the tree down node by node would cost a
        // sixth of the run on large inputs (callgrind), so the last document is kept.
        ProcessLifetime.keep(read)
        return 0
    } catch {
        printError("\(error)")
        return 1
    }
}


/// The manifest read on another thread while the inputs are scanned (read after the group's wait).
final class ManifestBox: @unchecked Sendable {
    var value = Manifest()
}

/// Values deliberately left for the process exit to reclaim.
enum ProcessLifetime {
    nonisolated(unsafe) private static var kept: [Any] = []
    static func keep(_ value: Any) { kept.append(value) }
}

/// Writes bytes to standard output with write(2), retrying short writes; a closed pipe (EPIPE,
/// e.g. `| head`) ends the output quietly.
func writeAllToStandardOutput(_ bytes: [UInt8]) {
    Platform.writeAll(STDOUT_FILENO, bytes)
}
