import Foundation
import NotepressResources

/// The version `--version` prints.
let notepressVersion = "0.1.0"

let mainUsage = """
usage: notepress COMMAND [options] ...

Commands:
  convert [options] INPUT...     convert notes and Markdown (the default command)
  view [options] FILE            show a document in the terminal, paged
  validate [--schema PATH] FILE.xml...
                                 validate TEI XML against the shipped RelaxNG schema
  themes [print NAME|PATH]       list the themes, or print one resolved
  templates print FORMAT         print the default page template (html, index)
  templates list                 list the built-in templates, themes and schemas

Run 'notepress COMMAND --help' for the options of a command.
"""

/// Routes `notepress SUBCOMMAND ARGS…`. Without a known command the arguments go to `convert`.
func dispatch(_ args: [String]) -> Int32 {
    guard let first = args.first else { printError(mainUsage); return 2 }
    let rest = Array(args.dropFirst())
    switch first {
    case "convert": return runConvertCommand(rest)
    case "view": return runViewCommand(rest)
    case "validate": return runValidateCommand(rest)
    case "themes": return runThemesCommand(rest)
    case "templates": return runTemplatesCommand(rest)
    case "-h", "--help", "help": print(mainUsage); return 0
    case "--version": print("notepress \(notepressVersion)"); return 0
    default: return runConvertCommand(args)
    }
}

/// `notepress templates print FORMAT [--data-dir DIR]` and `notepress templates list`.
func runTemplatesCommand(_ args: [String]) -> Int32 {
    let a: Arguments
    do { a = try Arguments(args, valueOptions: [["--data-dir"]], flagOptions: [["--help", "-h"]]) } catch {
        printError("notepress templates: \(error)"); return 2
    }
    if a.flag("--help") {
        print("usage: notepress templates print html|index|PATH [--data-dir DIR]\n       notepress templates list")
        return 0
    }
    let store = TemplateStore(dataDirectory: a.value("--data-dir").map { URL(fileURLWithPath: $0) })
    switch a.positionals.first {
    case "list":
        for p in TemplateStore.embeddedPaths { print(p) }
        return 0
    case "print":
        guard a.positionals.count == 2 else { printError("notepress templates print: which template? (html, index)"); return 2 }
        let name = a.positionals[1]
        let path = ["html": "html/page.html", "index": "html/index.html"][name] ?? name
        do {
            FileHandle.standardOutput.write(try store.data(path).data)
            return 0
        } catch {
            printError("notepress templates: \(error)")
            return 2
        }
    default:
        printError("usage: notepress templates print html|index|PATH, or notepress templates list")
        return 2
    }
}
