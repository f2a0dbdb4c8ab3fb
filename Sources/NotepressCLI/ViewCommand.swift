import Foundation
import Notepress

/// `notepress view [options] [FILE|-]` (``Commands/view``).
///
/// Renders one document for the terminal (``ANSIWriter``). Width: `--width`, else the terminal's
/// (``TerminalSize/columns(environment:fd:)`` on standard output). Colour: ``ColorPolicy/depth(mode:isTTY:environment:)``
/// (the terminal rule); hyperlinks: ``ColorPolicy/hyperlinks(mode:colorDepth:isTTY:environment:)``.
/// When standard output is a terminal and the output has more lines than the screen, it goes
/// through the ``Pager``; otherwise it is written directly.
///
/// Input: ``DocumentLoader`` (`.note`/`.txt` note markup, otherwise GFM, or `-f`; `-` or no FILE
/// with standard input not a terminal: standard input).
/// Exit status: 0 ok, 1 the input cannot be read, 2 usage error.
func runViewCommand(_ args: [String]) -> Int32 {
    runCommand(Commands.view, args) { a in
        let width = try a.int("--width", in: 1...10_000)
        let colorMode = try a.choice("--color", colorModes) ?? "auto"
        let linkMode = try a.choice("--hyperlinks", colorModes) ?? "auto"
        let tocMaxLevel = try a.int("--toc-depth", in: 1...6) ?? TableOfContents.defaultMaxLevel
        let (theme, store) = try ThemeArguments.resolve(a)
        let format = try a.value("--from").map(parseFormat)
        let verbosity = Verbosity(a)
        var inputs = a.positionals
        if inputs.isEmpty && standardInputIsGiven() { inputs = ["-"] }
        guard inputs.count == 1 else {
            throw UsageError(inputs.isEmpty ? "which file? (FILE, or - for standard input)" : "expected one FILE or '-'")
        }
        let input = inputs[0]
        let env = ProcessInfo.processInfo.environment
        var loader = DocumentLoader(format: format, sourceDateEpoch: DocumentLoader.sourceDateEpoch(from: env))
        loader.encoding = try parseEncoding(a)
        loader.hashtags = a.flag("--hashtags")
        loader.vaultSyntax = true
        if a.flag("--no-input-limits") { loader.inputLimits = nil }
        // Checked before anything is read: a bad --highlight-style is a usage error.
        var options = ConversionOptions(theme: theme, templates: store)
        try HighlightArguments.apply(a, to: &options)
        loader.highlightCode = options.highlight
        var read: ReadResult
        do {
            read = try input == "-"
                ? loader.load(data: FileHandle.standardInput.readDataToEndOfFile(), path: nil, modified: nil)
                : loader.load(path: input)
            // Heading ids and wiki links as a single file has them (convert does the same).
            read.document = SingleDocumentPreparer(wikilinks: read.document.metadata.sourceFormat == .note).prepare(read.document)
        } catch {
            printError("\(error)")
            return 1
        }

        let isTTY = Platform.isTerminal(STDOUT_FILENO)
        let depth = ColorPolicy.depth(mode: colorMode, isTTY: isTTY, environment: env)
        options.width = width ?? TerminalSize.columns(environment: env, fd: STDOUT_FILENO)
        options.colorDepth = depth
        options.darkTerminal = ColorPolicy.darkBackground(env)
        options.hyperlinks = ColorPolicy.hyperlinks(mode: linkMode, colorDepth: depth, isTTY: isTTY, environment: env)
        options.ascii = a.flag("--ascii")
        options.tableOfContents = a.flag("--toc")
        options.tableOfContentsMaxLevel = tocMaxLevel
        if verbosity == .verbose { for n in read.notes { printError(n.description) } }
        var diagnostics = read.diagnostics
        let origins = Array(repeating: "input", count: diagnostics.count)
        let bytes: [UInt8]
        do {
            bytes = try ANSIWriter().write(read.document, options: options, diagnostics: &diagnostics)
        } catch {
            printError("\(error)")
            return 1
        }
        WarningReport.print(FileDiagnostics(file: input, diagnostics: diagnostics,
                                            origins: origins + Array(repeating: "ansi", count: diagnostics.count - origins.count)),
                            verbosity)

        let lineCount = bytes.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        if isTTY && lineCount > TerminalSize.rows(environment: env, fd: STDOUT_FILENO), Pager.page(bytes, environment: env) {
            return 0
        }
        Platform.ignoringSignals([.brokenPipe]) { writeAllToStandardOutput(bytes) }
        return 0
    }
}
