import Foundation
import Notepress
import NotepressANSI
import NotepressAST
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
      --layout mirror|flat     several formats: one tree per format (mirror, default) or
                               side by side in one tree (flat)
  -j, --jobs N                 files converted in parallel (default: the number of cores)
      --fragment               HTML: body content only, no page template
      --unsafe                 keep raw HTML and javascript:/vbscript:/data: links
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
  -q, --quiet                  no progress or summary on standard error
  -h, --help                   show this help
      --version                show the version

Exit status: 0 all converted, 1 an input failed (the others are still converted),
2 usage error.
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
                           ["--width"], ["--color"], ["--hyperlinks"]] + ThemeArguments.valueOptions,
            flagOptions: [["--fragment"], ["--unsafe"], ["--keep-markers"], ["--ascii"], ["--no-validate"],
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

    // Options
    let (theme, store) = try ThemeArguments.resolve(a)
    var options = ConversionOptions(theme: theme, templates: store)
    options.fragment = a.flag("--fragment")
    options.unsafe = a.flag("--unsafe")
    options.ascii = a.flag("--ascii")
    options.validate = !a.flag("--no-validate")
    let output = a.value("--output")
    let toStdout = output == nil || output == "-"
    let stdoutIsTTY = isatty(STDOUT_FILENO) == 1
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
    let singleFile = inputs.count == 1 && (inputs[0] == "-" || (FileManager.default.fileExists(atPath: inputs[0], isDirectory: &isDir) && !isDir.boolValue))
    var outputIsDir: ObjCBool = false
    let outputExistsAsDir = output.map { FileManager.default.fileExists(atPath: $0, isDirectory: &outputIsDir) && outputIsDir.boolValue } ?? false
    if singleFile && (toStdout || (!outputExistsAsDir && writers.count == 1 && !(output!.hasSuffix("/")))) {
        if writers.count > 1 { throw UsageError("several formats need an output folder (-o DIR)") }
        return convertOne(inputs[0], to: toStdout ? nil : output!, writer: writers[0], loader: loader, options: options)
    }
    guard let outDir = output, !toStdout else {
        throw UsageError("converting a folder or several files needs an output folder (-o DIR)")
    }

    // Many inputs into a folder.
    let scan = InputScanner.scan(inputs, format: format)
    let outReal = InputScanner.realPath(outDir)
    for folder in scan.folders where outReal == folder || outReal.hasPrefix(folder + "/") {
        throw UsageError("output folder \(outDir) is inside the input folder \(folder); choose a folder outside it")
    }
    if scan.files.contains(where: { $0.path == "-" }) { throw UsageError("standard input (-) cannot be mixed with an output folder") }
    let inputReal = Set(scan.files.map { InputScanner.realPath($0.path) })
    let batch = BatchConverter(loader: loader, writers: writers, options: options, outputRoot: outDir, layout: layout, jobs: jobs)
    let start = Date()
    let outcomes = batch.run(scan.files, inputRealPaths: inputReal)
    var failures = scan.errors
    for o in outcomes {
        for d in o.diagnostics where !quiet { printError(d.description) }
        if let e = o.error { failures.append(e) }
    }
    if !scan.folders.isEmpty {
        do {
            if let index = try batch.writeIndex(outcomes), !quiet { printError("index: \(index)") }
        } catch {
            failures.append(ConversionError(file: outDir + "/index.html", "\(error)"))
        }
    }
    let converted = outcomes.filter { $0.error == nil }.count
    if !quiet {
        let secs = Date().timeIntervalSince(start)
        printError(String(format: "converted %d, skipped %d, failed %d in %.2f s; output in %@",
                          converted, scan.skipped.count, failures.count, secs, outDir))
    }
    if !failures.isEmpty {
        printError("failed:")
        for f in failures { printError("  " + f.description) }
        return 1
    }
    return 0
}

/// Converts one input (a file or `-`) to a file or standard output.
private func convertOne(_ input: String, to output: String?, writer: any DocumentWriter, loader: DocumentLoader,
                        options: ConversionOptions) -> Int32 {
    do {
        let read = input == "-"
            ? try loader.load(data: FileHandle.standardInput.readDataToEndOfFile(), path: nil, modified: nil)
            : try loader.load(path: input)
        var diagnostics = read.diagnostics
        if let out = output, input != "-", InputScanner.realPath(out) == InputScanner.realPath(input) {
            throw ConversionError(file: input, "output \(out) is the input file; refusing to overwrite it")
        }
        let bytes = try writer.write(read.document, options: options, diagnostics: &diagnostics)
        for d in diagnostics { printError(d.description) }
        if let out = output {
            try AtomicFile.write(bytes, to: out)
        } else {
            FileHandle.standardOutput.write(Data(bytes))
        }
        return 0
    } catch {
        printError("\(error)")
        return 1
    }
}

