import Foundation
import Notepress

/// Routes `notepress COMMAND ARGS…`. An option or an existing path (or `-`) as the first argument
/// means `convert` (`notepress note.md`, `notepress -t man x.md`); any other word that is not a
/// command is a usage error that suggests the nearest command (git's "did you mean").
func dispatch(_ args: [String]) -> Int32 {
    guard let first = args.first else {
        // No arguments: standard input to standard output when it is piped in, else the help.
        if standardInputIsGiven() { return runConvertCommand([]) }
        printError(Commands.mainHelp)
        return 2
    }
    let rest = Array(args.dropFirst())
    switch first {
    case "convert": return runConvertCommand(rest)
    case "serve": return runServeCommand(rest)
    case "scan": return runScanCommand(rest)
    case "index": return runIndexCommand(rest)
    case "view": return runViewCommand(rest)
    case "validate": return runValidateCommand(rest)
    case "themes": return runThemesCommand(rest)
    case "templates": return runTemplatesCommand(rest)
    case "formats": return runFormatsCommand(rest)
    case "completions": return runCompletionsCommand(rest)
    case "help": return runHelpCommand(rest)
    case "version": return runVersionCommand(rest)
    case "-h", "--help": writeHelp(Commands.mainHelp); return 0
    case "--version", "-V": print(versionText(), terminator: ""); return 0
    case "--list-formats": return runFormatsCommand(rest)
    case "--list-themes": return runThemesCommand(["list"] + rest)
    default:
        if first.hasPrefix("-") || Platform.status(first) != nil { return runConvertCommand(args) }
        var text = "notepress: unknown command '\(first)'"
        if let s = Suggestion.closest(to: first, among: Commands.all.map(\.name)) {
            text += "; did you mean '\(s)'?"
        } else {
            text += " (and no file of that name)"
        }
        printError(text + "\ncommands: " + Commands.all.map(\.name).joined(separator: ", ")
            + "; see 'notepress help'")
        return 2
    }
}

/// Whether a command given no input reads standard input in its place: only when the user gave
/// it something on purpose, a pipe (`cat x.md |`, `<(…)`; a socket for shells that pipe with one)
/// or a regular file with content (`< x.md`). A terminal, `/dev/null` or another device, an empty
/// file or a closed descriptor is no input: a usage error (exit 2), not an empty "Untitled" page.
func standardInputIsGiven() -> Bool {
    guard let st = Platform.status(fd: STDIN_FILENO) else { return false }
    switch st.kind {
    case .fifo, .socket: return true
    case .regular: return st.size > 0
    default: return false
    }
}

/// Runs a command: parses `args` for `spec` (on `--help`: prints the command's help, exit 0), then
/// `body`. A ``UsageError`` from parsing or from `body` is printed with a pointer to the help, exit
/// 2; any other error is printed as `notepress COMMAND: error`, exit 1.
func runCommand(_ spec: CommandSpec, _ args: [String], _ body: (Arguments) throws -> Int32) -> Int32 {
    do {
        let a = try Arguments(args, options: spec.options)
        if a.flag("--help") { writeHelp(spec.help); return 0 }
        return try body(a)
    } catch let e as UsageError {
        usageError(spec, e)
        return 2
    } catch {
        printError("notepress \(spec.name): \(error)")
        return 1
    }
}

/// Prints `notepress COMMAND: message` and where the help is.
func usageError(_ spec: CommandSpec, _ error: Any) {
    printError("notepress \(spec.name): \(error)\n(see 'notepress \(spec.name) --help')")
}

/// "unknown action 'prnt'; did you mean 'print'?"
func unknownWord(_ kind: String, _ word: String, among candidates: [String]) -> UsageError {
    var text = "unknown \(kind) '\(word)'"
    if let s = Suggestion.closest(to: word, among: candidates) { text += "; did you mean '\(s)'?" }
    return UsageError(text + " (expected " + Suggestion.list(candidates) + ")")
}

/// Writes a help text to standard output as every command writes its output: write(2) with
/// SIGPIPE ignored (`| head -1` ends it quietly instead of killing the process, exit 141) and a
/// failed write remembered for the exit status (`> /dev/full`: exit 1 with a message; `print`
/// lost the error when the text was longer than stdio's buffer).
func writeHelp(_ text: String) {
    Platform.ignoringSignals([.brokenPipe]) { writeAllToStandardOutput(Array(text.utf8)) }
}

/// `notepress help [COMMAND]`.
func runHelpCommand(_ args: [String]) -> Int32 {
    runCommand(Commands.help, args) { a in
        guard let name = a.positionals.first else { writeHelp(Commands.mainHelp); return 0 }
        guard a.positionals.count == 1 else { throw UsageError("expected one COMMAND") }
        guard let spec = Commands.named(name) else { throw unknownWord("command", name, among: Commands.all.map(\.name)) }
        writeHelp(spec.help)
        return 0
    }
}

/// `notepress version`.
func runVersionCommand(_ args: [String]) -> Int32 {
    runCommand(Commands.version, args) { a in
        guard a.positionals.isEmpty else { throw UsageError("takes no arguments") }
        print(versionText(), terminator: "")
        return 0
    }
}

/// `--data-dir DIR` as a template store; the folder must exist.
/// - Throws: ``UsageError`` naming the folder and the C library's reason.
func templateStore(_ a: Arguments) throws -> TemplateStore {
    guard let dir = a.value("--data-dir") else { return TemplateStore() }
    guard let st = Platform.status(dir) else {
        throw UsageError("--data-dir \(dir): \(Platform.errorText())")
    }
    guard st.kind == .directory else { throw UsageError("--data-dir \(dir): not a folder") }
    return TemplateStore(dataDirectory: URL(fileURLWithPath: dir))
}

/// `notepress templates print FORMAT [--data-dir DIR]` and `notepress templates list`.
func runTemplatesCommand(_ args: [String]) -> Int32 {
    runCommand(Commands.templates, args) { a in
        let store = try templateStore(a)
        switch a.positionals.first {
        case "list":
            guard a.positionals.count == 1 else { throw UsageError("list takes no arguments") }
            for p in TemplateStore.embeddedPaths { print(p) }
            return 0
        case "print":
            guard a.positionals.count == 2 else { throw UsageError("print which template? (html, index or a path)") }
            let name = a.positionals[1]
            // `html`, `index`, a template's name (`sidebar`: html/sidebar.html) or a path.
            var path = ["html": "html/page.html", "index": "html/index.html"][name] ?? name
            if !path.contains("/"), TemplateStore.embedded("html/" + path) != nil { path = "html/" + path }
            else if !path.contains("/"), TemplateStore.embedded("html/" + path + ".html") != nil { path = "html/" + path + ".html" }
            do {
                let bytes = [UInt8](try store.data(path).data)
                Platform.ignoringSignals([.brokenPipe]) { writeAllToStandardOutput(bytes) }
                return 0
            } catch {
                throw UsageError("\(error)")
            }
        case nil:
            throw UsageError("print or list?")
        case let other?:
            throw unknownWord("action", other, among: Commands.templates.actions)
        }
    }
}
