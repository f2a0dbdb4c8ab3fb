import Foundation
import Notepress
import NotepressSite

/// Options shared by `convert` and `view`: theme, category, data folder.
struct ThemeArguments {
    /// - Throws: ``UsageError`` for a missing data folder, an unknown category, or a theme that
    ///   cannot be loaded (named with the loader's reason).
    static func resolve(_ a: Arguments) throws -> (ResolvedTheme, TemplateStore) {
        let store = try templateStore(a)
        var category = SizeCategory.large
        if let name = a.value("--size-category") {
            guard let c = SizeCategory(name: name) else {
                throw UsageError("unknown size category '\(name)'; expected one of "
                    + SizeCategory.allCases.map { "\($0.alias)/\($0.rawValue)" }.joined(separator: ", "))
            }
            category = c
        }
        do {
            let theme = try ThemeLoader(store: store).load(a.value("--theme") ?? "default")
            return (theme.resolved(category: category, boldText: a.flag("--bold-text")), store)
        } catch {
            throw UsageError("\(error)")
        }
    }

    /// Whether any theme option was given (the theme is then loaded and checked whatever the output).
    static func given(_ a: Arguments) -> Bool {
        ["--theme", "--size-category", "--data-dir"].contains { a.value($0) != nil } || a.flag("--bold-text")
    }
}

/// `--template`, `--toc`, `--toc-depth` and `--backlinks` of `convert`.
enum TemplateArguments {
    /// Sets the table-of-contents options and, when a writer makes HTML pages, loads the page
    /// template once (`--template FILE`, else the data folder's or built-in `html/page.html`):
    /// a template that cannot be read or compiled is a usage error naming `file:line:column`, so
    /// nothing is converted. Partials found nowhere are warned about (they render as nothing).
    /// - Throws: ``UsageError``.
    static func apply(_ a: Arguments, to options: inout ConversionOptions, writers: [any DocumentWriter], warn: Bool) throws {
        options.tableOfContents = a.flag("--toc")
        options.backlinks = a.flag("--backlinks")
        options.printPage = !a.flag("--no-print-page")
        options.siteTitle = a.value("--site-title")
        if let url = a.value("--edit-url") {
            guard url.hasPrefix("https://") || url.hasPrefix("http://"), url.count > 8, !url.contains(where: { $0 == " " || $0 == "\"" || $0 == "<" }) else {
                throw UsageError("option '--edit-url' expects an http:// or https:// URL, got '\(url)'")
            }
            options.editURL = url
        }
        if let url = a.value("--base-url") {
            guard url.hasPrefix("https://") || url.hasPrefix("http://"), url.count > 8, !url.contains(where: { $0 == " " || $0 == "\"" || $0 == "<" }) else {
                throw UsageError("option '--base-url' expects an http:// or https:// URL, got '\(url)'")
            }
            options.baseURL = url.hasSuffix("/") ? url : url + "/"
        }
        options.feedSize = try a.int("--feed-size", in: 0...100_000) ?? 20
        options.listPageSize = try a.int("--list-page-size", in: 0...1_000_000) ?? 200
        options.listByUpdate = try a.choice("--list-order", ["created", "updated"]) == "updated"
        options.tableOfContentsMaxLevel = try a.int("--toc-depth", in: 1...6) ?? TableOfContents.defaultMaxLevel
        let file = a.value("--template")
        let pages = options.makesHTMLPages(writers)
        if file != nil && !pages && warn {
            printError("notepress convert: warning: --template is for HTML pages; not used "
                + (options.fragment ? "with --fragment" : "for " + writers.map(\.name).joined(separator: ",")))
        }
        guard pages || file != nil else { return }
        let template: PageTemplate
        do {
            template = try file.map { try PageTemplate.load(file: $0, store: options.templates) }
                ?? PageTemplate.builtIn("html/page.html", store: options.templates)
        } catch let e as MustacheError {
            throw UsageError("\(e.template):\(e.line):\(e.column): error: \(e.message)")
        } catch let e as PageTemplateError where e.path == file {
            throw UsageError("--template \(e.path): \(e.message)")
        } catch {
            throw UsageError("\(error)")
        }
        if warn {
            for m in template.missingPartials {
                let storeName = "html/" + m.name + ((m.name as NSString).pathExtension.isEmpty ? ".html" : "")
                printError("notepress convert: \(m.template):\(m.line):\(m.column): warning: partial '\(m.name)' not found "
                    + "(beside the template, or \(storeName) in the data folder or built in); it renders as nothing")
            }
        }
        if pages { options.pageTemplate = template }
    }
}

/// `--encoding NAME`: the name when iconv knows it, `nil` for none or UTF-8.
/// - Throws: ``UsageError`` for a name iconv does not know.
func parseEncoding(_ a: Arguments) throws -> String? {
    guard let name = a.value("--encoding") else { return nil }
    guard !name.isEmpty, DocumentLoader.isKnownEncoding(name) else {
        throw UsageError("unknown encoding '\(name)' for --encoding; iconv -l lists the names (latin1, windows-1252, shift_jis, utf-16le…)")
    }
    let plain = name.uppercased().filter { $0 != "-" && $0 != "_" }
    return plain == "UTF8" ? nil : name
}

/// `-f FORMAT`. - Throws: ``UsageError`` naming the formats.
func parseFormat(_ s: String) throws -> SourceFormat {
    switch s.lowercased() {
    case "note", "notes": return .note
    case "commonmark", "cm": return .commonmark
    case "gfm", "markdown", "md": return .gfm
    default: throw unknownWord("input format", s, among: Commands.inputFormats)
    }
}

/// `notepress convert` (``Commands/convert``). Every option and output path is checked first
/// (``ConvertPlan``): a usage error converts nothing and exits 2.
func runConvertCommand(_ args: [String]) -> Int32 {
    runCommand(Commands.convert, args) { a in
        if a.flag("--version") { print(versionText(), terminator: ""); return 0 }
        if a.flag("--list-formats") { print(formatListing(), terminator: ""); return 0 }
        if a.flag("--watch") { return runConvertWatch(args, a) }
        let plan = try ConvertPlan(a)
        if plan.outputs.book { return try plan.convertBook() }
        return plan.single ? plan.convertSingle() : try plan.convertBatch()
    }
}

/// A checked `convert` command line: writers, options, inputs and where outputs go, in typed
/// groups (``InputOptions``, ``OutputOptions``, ``TerminalOptions``, ``RunOptions``, the reader's
/// ``DocumentLoader`` and the writers' ``ConversionOptions``), each built and checked once.
struct ConvertPlan {
    let input: InputOptions
    let outputs: OutputOptions
    let terminal: TerminalOptions
    let run: RunOptions
    /// Where a folder run's inputs come from when not from a walk (`--files-from`, `--site-table`, `--shard`).
    let shard: ShardSelection?
    let options: ConversionOptions
    let loader: DocumentLoader
    /// The output options of this command line as given, for ``BuildConfiguration``: every
    /// ``OptionSpec/Effect/output`` option of ``Commands/convert``, in table order, given or not.
    let fingerprintedOptions: [GivenOption]
    /// Which command the plan is for: `convert`, or `scan` and `index`, which take convert's
    /// options so that every step of a sharded run reads and writes as `convert` would.
    let mode: Mode

    /// The command a ``ConvertPlan`` is checked for.
    enum Mode { case convert, scan, index }

    var writers: [any DocumentWriter] { outputs.writers }
    var layout: OutputLayout { outputs.layout }
    var jobs: Int { run.jobs }
    var inputs: [String] { input.inputs }
    /// The mdBook book the only input is (``BookFolder``); ``inputs`` is then its source folder.
    var book: BookFolder? { input.book }
    /// `-o`, `nil` for standard output.
    var output: String? { outputs.output }
    /// One input written to one file or standard output (else: into the output folder).
    var single: Bool { outputs.single }
    var depfile: String? { outputs.depfile }
    var verbosity: Verbosity { terminal.verbosity }
    /// Which files of input folders are inputs (`-f`, `--include`, `--exclude`, ignore files).
    var selection: InputSelection { input.selection }
    /// The theme file `--theme` names, when it is a path (a `.json` file) rather than a theme name.
    var themeFile: String? { outputs.themeFile }

    /// - Throws: ``UsageError`` for anything wrong on the command line, before any input is read.
    init(_ a: Arguments, mode: Mode = .convert) throws {
        self.mode = mode
        run = try RunOptions(a)
        terminal = try TerminalOptions(a)
        input = try InputOptions(a, mode: mode)
        outputs = try OutputOptions(a, mode: mode, input: input, verbosity: terminal.verbosity)
        let options = try Self.conversionOptions(a, terminal: terminal, outputs: outputs, book: input.book, mkdocs: input.mkdocs)
        self.options = options
        loader = try Self.loader(a, input: input, options: options, writers: outputs.writers)
        fingerprintedOptions = Commands.convert.options.filter { $0.effect == .output }.map { o in
            GivenOption(name: o.key, values: o.takesValue ? a.allValues(o.key) : a.flag(o.key) ? ["1"] : [],
                        namesPaths: o.completes != .choices)
        }
        switch mode {
        case .index:
            shard = ShardSelection(filesFrom: nil, nulSeparated: false, siteTable: a.value("--site-table"), shard: nil, root: a.value("--root"))
        case .scan:
            guard !input.inputs.isEmpty || input.filesFrom != nil else { throw UsageError("no input folder given (INPUT or --files-from)") }
            if a.value("--site-table") != nil || a.value("--shard") != nil { throw UsageError("scan makes the site table: no --site-table or --shard") }
            shard = try ShardOptions.selection(a, inputs: input.inputs)
        case .convert:
            shard = outputs.single ? nil : try ShardOptions.selection(a, inputs: input.inputs)
        }
    }

    /// The writers' options. A theme is loaded only when an output uses one or theme options were given.
    /// - Throws: ``UsageError``.
    private static func conversionOptions(_ a: Arguments, terminal: TerminalOptions, outputs: OutputOptions,
                                          book: BookFolder?, mkdocs: MkDocsFolder?) throws -> ConversionOptions {
        let env = ProcessInfo.processInfo.environment
        let writers = outputs.writers
        let (theme, store) = ThemeArguments.given(a) || writers.contains(where: { $0.usesTheme(fragment: a.flag("--fragment")) })
            ? try ThemeArguments.resolve(a)
            : (Theme.standard.resolved(category: .large), TemplateStore(dataDirectory: nil))
        var options = ConversionOptions(theme: theme, templates: store)
        options.fragment = a.flag("--fragment")
        // `-o page.8`: a man page of section 8 unless the document names its section.
        if outputs.single, let out = outputs.output, writers.first?.format == .man, case let ext = (out as NSString).pathExtension,
           let first = ext.first, ("1"..."9").contains(first) {
            options.manSection = ext
        }
        options.unsafe = a.flag("--unsafe")
        options.paperSize = try a.choice("--page-size", PaperSize.allCases.map(\.rawValue)).flatMap(PaperSize.init) ?? .forLocale(env)
        options.ascii = a.flag("--ascii")
        options.validate = !a.flag("--no-validate")
        options.headingIDs = a.flag("--heading-ids")
        // `toc` given on the command line means `permalink: true`: a ¶ after each heading.
        if try Self.markdownExtensions(a).contains(.toc) { options.headingPermalink = "\u{B6}" }
        if let mark = mkdocs?.permalink { options.headingPermalink = mark }
        let stdoutIsTTY = Platform.isTerminal(STDOUT_FILENO)
        let destination: ColorPolicy.Destination = outputs.single && outputs.output == nil
            ? (stdoutIsTTY ? .terminal : .standardOutput) : .file
        let depth = ColorPolicy.documentDepth(mode: terminal.colorMode, output: destination, environment: env)
        options.colorDepth = depth
        // Files do not depend on the terminal that ran the conversion.
        options.darkTerminal = destination != .file && ColorPolicy.darkBackground(env)
        options.hyperlinks = ColorPolicy.hyperlinks(mode: terminal.linkMode, colorDepth: depth, isTTY: destination == .terminal,
                                                    environment: env)
        options.width = terminal.width ?? (destination == .file ? 80 : TerminalSize.columns(environment: env, fd: STDOUT_FILENO))
        try TemplateArguments.apply(a, to: &options, writers: writers, warn: terminal.verbosity != .quiet)
        if options.siteTitle == nil, let title = book?.title { options.siteTitle = title }
        if options.editURL == nil, let edit = book?.editURL { options.editURL = edit }
        try HighlightArguments.apply(a, to: &options)
        return options
    }

    /// The readers' options (``DocumentLoader``).
    /// - Throws: ``UsageError`` for options that contradict each other or a bad `--metadata`.
    private static func loader(_ a: Arguments, input: InputOptions, options: ConversionOptions,
                               writers: [any DocumentWriter]) throws -> DocumentLoader {
        let env = ProcessInfo.processInfo.environment
        var loader = DocumentLoader(format: input.format, keepMarkers: a.flag("--keep-markers"),
                                    sourceDateEpoch: DocumentLoader.sourceDateEpoch(from: env))
        if a.flag("--wikilinks") && a.flag("--no-wikilinks") { throw UsageError("--wikilinks and --no-wikilinks contradict each other") }
        loader.wikilinks = a.flag("--wikilinks")
        if a.flag("--math") && a.flag("--no-math") { throw UsageError("--math and --no-math contradict each other") }
        // Math, comments, highlights: on, except where a fragment must stay cmark-gfm's bytes.
        loader.vaultSyntax = a.flag("--math") || (!a.flag("--no-math") && !(options.fragment && writers.contains { $0.format == .html }))
        // A MkDocs project's Markdown extensions (mkdocs.yml), except where a fragment must stay cmark-gfm's bytes.
        do {
            loader.metadataOverrides = try MetadataOverrides(a.allValues("--metadata"))
        } catch {
            throw UsageError("\(error)")
        }
        loader.encoding = input.encoding
        loader.hashtags = a.flag("--hashtags")
        // `--markdown-extension`, and a MkDocs project's (mkdocs.yml) except where a fragment
        // must stay cmark-gfm's bytes.
        loader.mkdocs = try Self.markdownExtensions(a)
        if !(options.fragment && writers.contains { $0.format == .html }) { loader.mkdocs.formUnion(input.mkdocs?.extensions ?? []) }
        loader.highlightCode = writers.contains { options.highlightsCode(in: $0.format) }
        if a.flag("--no-input-limits") { loader.inputLimits = nil }
        return loader
    }

    /// The MkDocs extensions `--markdown-extension` names (each of ``MkDocsExtension``'s names).
    /// - Throws: ``UsageError`` for a name that is none of them.
    /// Python-Markdown's and PyMdown's names that libcmark-gfm's reading already covers
    /// (``MkDocsFolder/native``: `tables`, `fenced_code`, `footnotes`, …) are accepted and change
    /// nothing; `extra` is its parts (``MkDocsFolder/bundles``); `markdown.extensions.NAME` is `NAME`.
    static func markdownExtensions(_ a: Arguments) throws -> Set<MkDocsExtension> {
        var out = Set<MkDocsExtension>()
        for written in a.allValues("--markdown-extension") {
            let name = written.hasPrefix("markdown.extensions.") ? String(written.dropFirst(20)) : written
            if MkDocsFolder.native.contains(name) { continue }
            if let parts = MkDocsFolder.bundles[name] { out.formUnion(parts); continue }
            guard let e = MkDocsExtension(rawValue: name) else {
                throw UsageError("option '--markdown-extension' expects one of "
                    + MkDocsExtension.allCases.map(\.rawValue).joined(separator: ", ")
                    + " or one libcmark-gfm already reads (" + MkDocsFolder.native.sorted().joined(separator: ", ") + "), got '\(written)'")
            }
            out.insert(e)
        }
        return out
    }

    /// Fails when `path` cannot be a file (or, with `folder`, a folder) written later: its nearest
    /// existing ancestor must be a folder (`a/b.html` where `a` is a file cannot be made).
    /// - Throws: ``UsageError`` naming the option and the path.
    static func checkWritable(_ path: String, what: String, folder: Bool = false) throws {
        if let st = Platform.status(path) {
            if !folder && st.kind == .directory { throw UsageError("\(what) \(path) is a folder") }
            return
        }
        var parent = folderPart(path)
        while !parent.isEmpty {
            if let st = Platform.status(parent) {
                if st.kind != .directory { throw UsageError("\(what) \(path): \(parent) is not a folder") }
                return
            }
            let up = folderPart(parent)
            if up == parent { break }
            parent = up
        }
    }

    /// Converts the one input to a file or standard output, then writes the depfile.
    /// `exitsAfter`: the process ends after this (not a `--watch` build), so the document and the
    /// writer's intermediate trees are left to the exit (``LeftToExit``) instead of being freed.
    func convertSingle(exitsAfter: Bool = true) -> Int32 {
        // One document in this process: cmark's arena allocator, as the cmark-gfm program uses.
        var one = loader
        one.cmarkArena = true
        // …and the writers' intermediate trees are left to the exit too.
        var options = self.options
        options.leavesTreesToExit = exitsAfter
        let status = convertOne(inputs[0], to: output, writer: writers[0], loader: one, options: options, verbosity: verbosity)
        if status == 0, let depfile, let out = output {
            let config = BuildConfiguration(options: options, loader: loader, writers: [writers[0].name], layout: layout,
                                            version: notepressVersion, themeFile: themeFile, commandLine: fingerprintedOptions)
            do {
                let text = try Depfile.render([Depfile.Rule(targets: [out], prerequisites: [inputs[0]] + config.dependencyFiles)])
                try AtomicFile.write(Array(text.utf8), to: depfile)
            } catch {
                printError(errorText(error, file: depfile))
                return 1
            }
        }
        return status
    }
}

/// `file: error: message` for any error: a ``NotepressError`` as it describes itself (it names its
/// file already), anything else with `file`.
func errorText(_ error: Error, file: String) -> String {
    NotepressError.wrapping(error, file: file).description
}

/// The folder part of `path` (`a/b` → `a`, `b` → empty, `/b` → `/`), trailing slashes ignored.
func folderPart(_ path: String) -> String {
    var p = Substring(path)
    while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
    guard let slash = p.lastIndex(of: "/") else { return "" }
    return slash == p.startIndex ? "/" : String(p[..<slash])
}

/// Converts one input (a file or `-`) to a file or standard output.
private func convertOne(_ input: String, to output: String?, writer: any DocumentWriter, loader: DocumentLoader,
                        options: ConversionOptions, verbosity: Verbosity) -> Int32 {
    do {
        if let out = output, input != "-", InputScanner.realPath(out) == InputScanner.realPath(input) {
            throw NotepressError.outputRefused(file: input, message: "output \(out) is the input file; refusing to overwrite it")
        }
        // HTML: the body is written on a second thread while the reader still builds the tree.
        // (A `.tid` file's syntax is known once its header is read: no streaming for it.)
        let html = writer as? HTMLWriter
        // (Nor with `toc` on: a `[TOC]` marker lists the headings after it.)
        let streams = html != nil && (input == "-" || !DocumentLoader.isTiddler(input)) && !loader.mkdocs.contains(.toc)
        let format = loader.format ?? (input == "-" ? nil : DocumentLoader.format(forPath: input)) ?? .gfm
        // Heading ids, block anchors, wiki links (shown as text: no other pages), block by block,
        // on the writer's thread when the body is streamed.
        let preparer = SingleDocumentPreparer(wikilinks: format == .note || loader.wikilinks)
        let stream = streams ? HTMLFragmentStream(options: HTMLWriter.htmlOptions(options, format: format),
                                                  preparing: { preparer.prepare($0) }) : nil
        let each: ((Block) -> Void)? = stream.map { s in { s.push($0) } }
        // The reader keeps no blocks when the stream writes them (each goes once written), unless
        // a table of contents is made from them.
        let retain = stream == nil || options.tableOfContents
        // `pymdownx.snippets` on a file of its own: its snippet lines carried out first.
        let snippets = loader.mkdocs.contains(.snippets) && input != "-" && format == .gfm && !DocumentLoader.isTiddler(input)
            ? BookDirectives.expandSnippets(inFile: input, limited: loader.inputLimits != nil) : nil
        let loaded = Result {
            if let e = snippets {
                var expanded = loader
                expanded.lineMap = e.lineMap
                return try expanded.load(data: Data(e.bytes), path: input, modified: DocumentLoader.modificationDate(input),
                                         topLevelBlock: each, retainBlocks: retain)
            }
            return input == "-"
                ? try loader.load(data: FileHandle.standardInput.readDataToEndOfFile(), path: nil, modified: nil,
                                  topLevelBlock: each, retainBlocks: retain)
                : try loader.load(path: input, topLevelBlock: each, retainBlocks: retain)
        }
        if case .failure = loaded { _ = stream?.finish() }  // stop the writer thread
        var read = try loaded.get()
        if let e = snippets { read.diagnostics = e.diagnostics + read.diagnostics }
        if stream == nil { read.document = preparer.prepare(read.document) }
        var diagnostics = read.diagnostics
        let bytes = try html.map { try $0.write(read.document, options: options, diagnostics: &diagnostics, stream: stream) }
            ?? writer.write(read.document, options: options, diagnostics: &diagnostics)
        let origins = Array(repeating: "input", count: read.diagnostics.count)
            + Array(repeating: writer.name, count: diagnostics.count - read.diagnostics.count)
        WarningReport.print(FileDiagnostics(file: input, diagnostics: diagnostics, origins: origins), verbosity)
        if verbosity == .verbose { for n in read.notes { printError(n.description) } }
        if let out = output {
            try AtomicFile.write(bytes, to: out)
        } else {
            Platform.ignoringSignals([.brokenPipe]) { writeAllToStandardOutput(bytes) }
        }
        // The process ends right after this: tearing the tree down node by node would cost a
        // sixth of the run on large inputs (callgrind), so the last document is left to the exit.
        if options.leavesTreesToExit { LeftToExit.leave(read) }
        return 0
    } catch {
        printError(errorText(error, file: input))
        return 1
    }
}

/// Writes bytes to standard output with write(2), retrying short writes; a closed pipe (EPIPE,
/// e.g. `| head`) ends the output quietly (callers ignore SIGPIPE around it). Any other failure
/// (a full disk: `> /dev/full`) is remembered by the platform (``Platform/writeStandardOutput(_:)``):
/// the process then says so and exits 1 (main.swift).
func writeAllToStandardOutput(_ bytes: [UInt8]) {
    Platform.writeStandardOutput(bytes)
}

/// What became of this process's standard output.
enum StandardOutput {
    /// The exit status after `status`: 1 with a message when a write to standard output failed
    /// (or fails now, flushing what `print` buffered), else `status`.
    static func finish(_ status: Int32) -> Int32 {
        guard let e = Platform.finishStandardOutput() else { return status }
        printError("notepress: standard output: cannot write: \(e.text)")
        return status == 0 ? 1 : status
    }
}
