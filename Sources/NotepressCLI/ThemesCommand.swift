import Foundation
import Notepress
import NotepressResources
import NotepressThemes

/// `notepress themes [list] [--data-dir DIR]`: one line per theme, `NAME<TAB>ORIGIN` (a path in
/// the data folder, or `(built-in)/themes/NAME.json`).
/// `notepress themes print NAME|PATH [--data-dir DIR]`: the resolved theme (everything it
/// inherits filled in) as a complete JSON theme file.
/// Exit status: 0 ok, 1 the theme cannot be loaded, 2 usage error.
func runThemesCommand(_ args: [String]) -> Int32 {
    let usage = "usage: notepress themes [list] [--data-dir DIR]\n       notepress themes print NAME|PATH [--data-dir DIR]"
    let parsed: Arguments
    do {
        parsed = try Arguments(args, valueOptions: [["--data-dir"]], flagOptions: [["--help", "-h"]])
    } catch {
        printError("notepress themes: \(error)\n\(usage)")
        return 2
    }
    if parsed.flag("--help") {
        print(usage)
        return 0
    }
    let store = TemplateStore(dataDirectory: parsed.value("--data-dir").map { URL(fileURLWithPath: $0) })
    let loader = ThemeLoader(store: store)
    let pos = parsed.positionals
    switch pos.first {
    case nil, "list":
        guard pos.count <= 1 else { printError(usage); return 2 }
        for name in loader.availableThemes() {
            let origin = (try? loader.origin(of: name)) ?? "?"
            print("\(name)\t\(origin)")
        }
        return 0
    case "print":
        guard pos.count == 2 else { printError(usage); return 2 }
        do {
            let theme = try loader.load(pos[1])
            FileHandle.standardOutput.write(theme.jsonText().data(using: .utf8)!)
            return 0
        } catch {
            printError("notepress themes: \(error)")
            return 1
        }
    default:
        printError("notepress themes: unknown action '\(pos[0])'\n\(usage)")
        return 2
    }
}
