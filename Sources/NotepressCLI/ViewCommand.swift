import Foundation
import NotepressPlatform
import Notepress
import NotepressANSI
import NotepressAST
import NotepressReaders
import NotepressResources
import NotepressThemes

/// `notepress view [--width N] [--color auto|always|never] [--hyperlinks auto|always|never]
/// [--ascii] [--theme NAME|PATH] [--size-category CAT] [--bold-text] FILE|-`
///
/// Renders one document for the terminal (``ANSIWriter``). Width: `--width`, else the terminal's
/// (``TerminalSize/columns(environment:fd:)`` on standard output). Colour: ``ColorPolicy``;
/// hyperlinks: ``ColorPolicy/hyperlinks(mode:colorDepth:isTTY:)``. When standard output is a
/// terminal and the output has more lines than the screen, it is piped through `$PAGER` (run by
/// `/bin/sh -c`) or else `less -R`; otherwise it is written directly.
///
/// Input: ``DocumentLoader`` (`.note`/`.txt` note markup, otherwise GFM; `-` is standard input).
/// Exit status: 0 ok, 1 the input cannot be read, 2 usage error.
func runViewCommand(_ args: [String]) -> Int32 {
    let usage = "usage: notepress view [--width N] [--color auto|always|never] [--hyperlinks auto|always|never] "
        + "[--ascii] [--theme NAME] [--size-category CAT] [--bold-text] FILE|-"
    let parsed: Arguments
    var width: Int?
    do {
        parsed = try Arguments(
            args,
            valueOptions: [["--width", "-w"], ["--color", "--colour"], ["--hyperlinks"], ["--theme"],
                           ["--size-category"], ["--data-dir"]],
            flagOptions: [["--ascii"], ["--bold-text"], ["--help", "-h"]])
        width = try parsed.int("--width", in: 1...10_000)
    } catch {
        printError("notepress view: \(error)\n\(usage)")
        return 2
    }
    if parsed.flag("--help") { print(usage); return 0 }
    guard parsed.positionals.count == 1 else {
        printError("notepress view: expected one FILE or '-'\n\(usage)")
        return 2
    }
    let modes = ["auto", "always", "never"]
    let colorMode = parsed.value("--color") ?? "auto"
    let linkMode = parsed.value("--hyperlinks") ?? "auto"
    guard modes.contains(colorMode), modes.contains(linkMode) else {
        printError("notepress view: --color and --hyperlinks take auto, always or never\n\(usage)")
        return 2
    }
    var category = SizeCategory.large
    if let c = parsed.value("--size-category") {
        guard let sc = SizeCategory(name: c) else {
            printError("notepress view: unknown size category '\(c)'\n\(usage)")
            return 2
        }
        category = sc
    }
    let store = TemplateStore(dataDirectory: parsed.value("--data-dir").map { URL(fileURLWithPath: $0) })
    var theme = Theme.standard
    if let name = parsed.value("--theme") {
        do { theme = try ThemeLoader(store: store).load(name) } catch {
            printError("notepress view: \(error)")
            return 2
        }
    }

    let input = parsed.positionals[0]
    let document: Document
    var diagnostics: [Diagnostic] = []
    do {
        let r = try viewReadDocument(input)
        document = r.document
        diagnostics = r.diagnostics
    } catch {
        printError("notepress view: \(error)")
        return 1
    }

    let env = ProcessInfo.processInfo.environment
    let isTTY = Platform.isTerminal(1)
    let depth = ColorPolicy.depth(mode: colorMode, isTTY: isTTY, environment: env)
    var options = ConversionOptions(theme: theme.resolved(category: category, boldText: parsed.flag("--bold-text")),
                                    templates: store)
    options.width = width ?? TerminalSize.columns(environment: env, fd: 1)
    options.colorDepth = ANSIWriter.colorDepth(depth)
    options.hyperlinks = ColorPolicy.hyperlinks(mode: linkMode, colorDepth: depth, isTTY: isTTY)
    options.ascii = parsed.flag("--ascii")
    let bytes: [UInt8]
    do {
        bytes = try ANSIWriter().write(document, options: options, diagnostics: &diagnostics)
    } catch {
        printError("notepress view: \(error)")
        return 1
    }
    for d in diagnostics { printError(d.description) }

    let lineCount = bytes.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    if isTTY && lineCount > TerminalSize.rows(environment: env, fd: 1), page(bytes, environment: env) {
        return 0
    }
    FileHandle.standardOutput.write(Data(bytes))
    return 0
}

/// Reads `path` (`-` = standard input) with the library's ``DocumentLoader`` (syntax from the
/// file extension, front matter, title and date defaults, `SOURCE_DATE_EPOCH`).
/// - Throws: ``ConversionError`` naming the file.
private func viewReadDocument(_ path: String) throws -> ReadResult {
    let loader = DocumentLoader(sourceDateEpoch: DocumentLoader.sourceDateEpoch(from: ProcessInfo.processInfo.environment))
    if path == "-" {
        return try loader.load(data: FileHandle.standardInput.readDataToEndOfFile(), path: nil, modified: nil)
    }
    return try loader.load(path: path)
}

/// Pipes `bytes` through `$PAGER` (via `/bin/sh -c`) or `less -R`. Returns false when no pager
/// could be started (the caller then writes directly).
private func page(_ bytes: [UInt8], environment: [String: String]) -> Bool {
    let p = Process()
    if let pager = environment["PAGER"], !pager.trimmingCharacters(in: .whitespaces).isEmpty {
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", pager]
    } else {
        let dirs = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let less = dirs.map({ "\($0)/less" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return false
        }
        p.executableURL = URL(fileURLWithPath: less)
        p.arguments = ["-R"]
    }
    let pipe = Pipe()
    p.standardInput = pipe
    do { try p.run() } catch { return false }
    signal(SIGPIPE, SIG_IGN)
    pipe.fileHandleForWriting.write(Data(bytes))
    try? pipe.fileHandleForWriting.close()
    p.waitUntilExit()
    return true
}
