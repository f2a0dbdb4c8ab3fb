import Foundation
import Notepress
import NotepressSite

// `convert`'s options (and those `scan`, `index` and `serve` share with it), in typed groups, each
// built and checked once from the parsed command line (``Arguments``) by ``ConvertPlan``. Nothing
// past these groups reads the command line: the site build gets a ``SiteBuildRequest``.

/// How the run talks to the terminal: `-q`/`--verbose`, `--width`, `--color`, `--hyperlinks`.
struct TerminalOptions {
    var verbosity: Verbosity
    /// `--width N` (`nil`: the terminal's, or 80 for a file).
    var width: Int?
    /// `--color WHEN` and `--hyperlinks WHEN` (`auto`, `always`, `never`).
    var colorMode: String
    var linkMode: String

    /// - Throws: ``UsageError`` for a width out of range or an unknown WHEN.
    init(_ a: Arguments) throws {
        verbosity = Verbosity(a)
        width = try a.int("--width", in: 10...10_000)
        colorMode = try a.choice("--color", colorModes) ?? "auto"
        linkMode = try a.choice("--hyperlinks", colorModes) ?? "auto"
    }
}

/// How a folder run goes, never a byte it writes: `-j`, `--force`, `--prune`, `--copy-all`,
/// `--strict-links`, and whether wiki links are read in a site (`--no-wikilinks`).
struct RunOptions {
    var jobs: Int
    var force: Bool
    var prune: Bool
    var copyAll: Bool
    var strictLinks: Bool
    /// Wiki links in a site's Markdown: on unless `--no-wikilinks`.
    var siteWikilinks: Bool
    /// Pages' dates from git history in a folder run: on unless `--no-git-dates`.
    var gitDates: Bool

    /// - Throws: ``UsageError`` for a job count out of range.
    init(_ a: Arguments) throws {
        jobs = try a.int("--jobs", in: 1...1024) ?? ProcessInfo.processInfo.activeProcessorCount
        force = a.flag("--force")
        prune = a.flag("--prune")
        copyAll = a.flag("--copy-all")
        strictLinks = a.flag("--strict-links")
        siteWikilinks = !a.flag("--no-wikilinks")
        gitDates = !a.flag("--no-git-dates")
    }
}

/// What is read: INPUTs (or standard input, or a book's source folder), `-f`, `--encoding`, and
/// which files of folders are inputs (`--include`, `--exclude`, `--follow-symlinks`).
struct InputOptions {
    /// `-f FORMAT` (`nil`: by each file's extension).
    var format: SourceFormat?
    /// `--encoding NAME` (`nil`: UTF-8).
    var encoding: String?
    var selection: InputSelection
    /// The INPUTs; `["-"]` for standard input; a book's source folder for a book.
    var inputs: [String]
    /// The mdBook book the only input is (``BookFolder``).
    var book: BookFolder?
    /// The MkDocs project the only input is (``MkDocsFolder``): its Markdown extensions.
    var mkdocs: MkDocsFolder?
    /// `--files-from LIST`.
    var filesFrom: String?

    /// The only input, when there is one.
    var onlyInput: String? { inputs.count == 1 ? inputs[0] : nil }
    /// Whether the only input is a folder.
    var isFolder: Bool { onlyInput.map { $0 != "-" && Platform.status($0)?.kind == .directory } ?? false }

    /// - Throws: ``UsageError`` for an unknown format or encoding, a pattern that is none, or no
    ///   input at all (`convert`).
    init(_ a: Arguments, mode: ConvertPlan.Mode) throws {
        format = try a.value("--from").map(parseFormat)
        encoding = try parseEncoding(a)
        filesFrom = a.value("--files-from")
        var selection = InputSelection(allTextFiles: format != nil)
        // Command-line patterns have no comments or negation: `#x` and `!x` are literal names.
        func patterns(_ option: String) throws -> [GlobPattern] {
            try a.allValues(option).map { text in
                let literal = text.hasPrefix("#") ? "\\" + text : text
                guard let p = GlobPattern(literal, allowNegation: false) else {
                    throw UsageError("\(option) needs a pattern (gitignore syntax), got '\(text)'")
                }
                return p
            }
        }
        selection.include = try patterns("--include")
        selection.exclude = try patterns("--exclude")
        selection.nulBytesAreText = encoding.map(DocumentLoader.encodingHasNULBytes) ?? false
        selection.followSymlinks = a.flag("--follow-symlinks")

        // Inputs: standard input when none is given and it is piped or redirected from a file
        // with content (pandoc, cmark-gfm read it when it is not a terminal; `< /dev/null` made
        // an empty page). A list (--files-from), scan and index: no standard input in place of inputs.
        var inputs = mode == .index ? [] : a.positionals
        if inputs.isEmpty && mode == .convert && filesFrom == nil {
            guard standardInputIsGiven() else { throw UsageError("no input given (FILE..., or - for standard input)") }
            inputs = ["-"]
        }
        // An mdBook book (a folder with book.toml): its source folder is the input (BookFolder);
        // else a MkDocs project (a folder with mkdocs.yml): its docs_dir (MkDocsFolder).
        let bookOrProject = mode == .index || inputs.count != 1 || inputs[0] == "-" ? nil : inputs[0]
        let bookFolder = bookOrProject.flatMap(BookFolder.find)
        let mkdocs = bookFolder == nil ? bookOrProject.flatMap(MkDocsFolder.find) : nil
        let book = bookFolder ?? mkdocs?.book
        if let book { inputs = [book.source] }
        // What a MkDocs project leaves out of its site (`exclude_docs`, `draft_docs`).
        for pattern in mkdocs?.excludeDocs ?? [] {
            let literal = pattern.hasPrefix("#") ? "\\" + pattern : pattern
            if let p = GlobPattern(literal, allowNegation: false) { selection.exclude.append(p) }
        }
        // A MkDocs project's pages are its Markdown files; every other file is copied as it is.
        if mkdocs != nil, format == nil { selection.pageExtensions = MkDocsFolder.pageExtensions }
        self.selection = selection
        self.book = book
        self.mkdocs = mkdocs
        self.inputs = inputs
    }
}

/// What is written and where: `-t`, `-o`, `--layout`, `--depfile`, and the files that decide
/// outputs besides the inputs (`--template`, `--theme FILE`, `--data-dir`).
struct OutputOptions {
    var writers: [any DocumentWriter]
    /// `-o`, `nil` for standard output.
    var output: String?
    /// One input written to one file or standard output (else: into the output folder).
    var single: Bool
    /// A folder written as one book (`convert book/ -o book.epub` or `book.pdf`: NotepressSite's
    /// `EPUBBook`, `PDFBook`).
    var book = false
    var depfile: String?
    var layout: OutputLayout
    /// `--template FILE`.
    var template: String?
    /// The theme file `--theme` names, when it is a path (a `.json` file) rather than a theme name.
    var themeFile: String?
    /// `--data-dir DIR`.
    var dataDirectory: String?

    /// - Throws: ``UsageError`` for an unknown format or layout, or outputs that cannot be written
    ///   (checked now, so that nothing is converted when they cannot).
    init(_ a: Arguments, mode: ConvertPlan.Mode, input: InputOptions, verbosity: Verbosity) throws {
        layout = try a.choice("--layout", OutputLayout.allCases.map(\.rawValue)).flatMap(OutputLayout.init) ?? .flat
        // `notepress index OUT`: the output folder is the positional.
        let output = (mode == .index ? a.positionals.first : nil) ?? a.value("--output").flatMap { $0 == "-" ? nil : $0 }
        self.output = output
        depfile = a.value("--depfile")
        template = a.value("--template")
        dataDirectory = a.value("--data-dir")
        themeFile = a.value("--theme").flatMap { $0.hasSuffix(".json") || $0.contains("/") ? $0 : nil }
        // What `-o` names (one file, one book, a folder): NotepressSite's ``OutputTarget``.
        let given = try Self.formatNames(a)
        let target: OutputTarget
        do {
            target = mode == .convert
                ? try OutputTarget.of(inputs: input.inputs, folderInput: input.isFolder, listed: input.filesFrom != nil,
                                      output: output, formats: given.map { $0.compactMap(OutputFormat.init(rawValue:)) })
                : .folder
        } catch let refusal as SiteBuildRefusal {
            throw UsageError(refusal.message)
        }
        writers = try Self.writers(given, fileOutput: target != .folder ? output : nil, verbosity: verbosity)
        book = target == .book
        single = target == .file
        try checkDestinations(a, mode: mode, input: input)
    }

    /// The format names `-t` gives, each once (`tree` is `json`), `nil` without `-t`.
    /// - Throws: ``UsageError`` for `-t` without a name.
    private static func formatNames(_ a: Arguments) throws -> [String]? {
        guard let value = a.value("--to") else { return nil }
        var names: [String] = []
        for n in value.split(separator: ",") {
            let name = n.trimmingCharacters(in: .whitespaces).lowercased()
            if !name.isEmpty && !names.contains(name) { names.append(name == "tree" ? "json" : name) }
        }
        if names.isEmpty { throw UsageError("-t needs a format: " + Suggestion.list(Commands.outputFormats)) }
        return names
    }

    /// Writers: -t, else the output file's extension (pandoc's rule), else HTML.
    private static func writers(_ names: [String]?, fileOutput: String?, verbosity: Verbosity) throws -> [any DocumentWriter] {
        var writers: [any DocumentWriter] = []
        for n in names ?? [] {
            guard let w = WriterRegistry.writer(named: n) else {
                throw unknownWord("output format", n, among: Commands.outputFormats)
            }
            if !writers.contains(where: { $0.format == w.format }) { writers.append(w) }
        }
        if writers.isEmpty {
            let implied = fileOutput.flatMap(WriterRegistry.writer(forOutputPath:))
            if let out = fileOutput, implied == nil, verbosity != .quiet,
               case let ext = (out as NSString).pathExtension, !ext.isEmpty {
                printError("notepress convert: warning: \(out): the extension .\(ext) names no output format; writing html (-t chooses one: "
                           + Commands.outputFormats.joined(separator: ", ") + ")")
            }
            writers = [implied ?? HTMLWriter()]
        } else if let out = fileOutput, writers.count == 1, let implied = WriterRegistry.writer(forOutputPath: out),
                  implied.format != writers[0].format, verbosity != .quiet {
            printError("notepress convert: warning: writing \(writers[0].name) (-t) to \(out), whose extension means \(implied.name)")
        }
        return writers
    }

    /// Where outputs go: checked now, so that nothing is converted when they cannot be written.
    /// - Throws: ``UsageError``.
    private func checkDestinations(_ a: Arguments, mode: ConvertPlan.Mode, input: InputOptions) throws {
        let inputs = input.inputs
        let outputStatus = output.flatMap { Platform.status($0) }
        if mode == .scan {
            if let output { try ConvertPlan.checkWritable(output, what: "-o") }
        } else if single || book {
            if writers.count > 1 { throw UsageError("several formats need an output folder (-o DIR)") }
            // Binary output (PDF) would garble a terminal, as gzip and pandoc refuse to.
            if output == nil, let w = writers.first, w.format.isBinary, Platform.isTerminal(STDOUT_FILENO) {
                throw UsageError("\(w.name) is binary and standard output is a terminal; write it to a file (-o FILE.\(w.fileExtension)) or a pipe")
            }
            for o in ["--site-table", "--shard", "--root"] where a.value(o) != nil {
                throw UsageError("\(o) is for folder runs (a site); one file is converted on its own")
            }
            if let output { try ConvertPlan.checkWritable(output, what: "-o") }
        } else {
            guard let output else {
                throw UsageError(input.isFolder ? "converting a folder needs an output folder (-o DIR)"
                                                : "converting several files needs an output folder (-o DIR)")
            }
            // `-o site.html` (a file name) was refused by ``OutputTarget``.
            if let st = outputStatus, st.kind != .directory {
                throw UsageError("-o \(output) exists and is not a folder; converting "
                    + (input.isFolder ? "a folder" : "several files") + " needs an output folder")
            }
            try ConvertPlan.checkWritable(output, what: "-o", folder: true)
            if inputs.contains("-") { throw UsageError("standard input (-) cannot be mixed with an output folder") }
        }
        if let depfile {
            if output == nil || inputs.contains("-") {
                throw UsageError("--depfile needs input and output files (not standard input or output)")
            }
            try ConvertPlan.checkWritable(depfile, what: "--depfile")
        }
    }
}

/// The options of sharded runs (`--files-from`, `--site-table`, `--shard K/N`, `--root`, `-0`).
enum ShardOptions {
    /// The shard selection of a folder run or `scan`, `nil` when none of its options was given.
    /// - Throws: ``UsageError`` for options that do not go together.
    static func selection(_ a: Arguments, inputs: [String]) throws -> ShardSelection? {
        guard ["--site-table", "--files-from", "--shard", "--root"].contains(where: { a.value($0) != nil }) else { return nil }
        var shard: SiteShard?
        if let s = a.value("--shard") {
            guard let parsed = SiteShard(s) else { throw UsageError("--shard expects K/N with 1 <= K <= N, got '\(s)'") }
            guard a.value("--site-table") != nil else { throw UsageError("--shard needs --site-table TABLE (made by notepress scan)") }
            shard = parsed
        }
        if a.value("--site-table") != nil && a.flag("--prune") {
            throw UsageError("--prune is for a one-process run; a shard leaves the site's other outputs alone")
        }
        let root = try root(a, inputs: inputs)
        if a.value("--files-from") == nil && a.value("--site-table") == nil {
            throw UsageError("--root needs --files-from or --site-table")
        }
        return ShardSelection(filesFrom: a.value("--files-from"), nulSeparated: a.flag("--null"),
                              siteTable: a.value("--site-table"), shard: shard, root: root)
    }

    /// `--root DIR`, else the only INPUT when it is a folder, else `.`.
    /// - Throws: ``UsageError`` when `--root` is not a folder or INPUTs are given besides a list.
    static func root(_ a: Arguments, inputs: [String]) throws -> String {
        if let r = a.value("--root") {
            guard Platform.status(r)?.kind == .directory else { throw UsageError("--root \(r): not a folder") }
            if !inputs.isEmpty { throw UsageError("--root names the input folder: give no INPUT besides it") }
            return r
        }
        if inputs.count == 1, Platform.status(inputs[0])?.kind == .directory { return inputs[0] }
        if inputs.isEmpty { return "." }
        throw UsageError("--files-from and --site-table take one input folder (INPUT or --root DIR)")
    }
}
