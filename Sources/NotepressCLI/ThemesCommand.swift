import Foundation
import Notepress

/// `notepress themes [list] [--data-dir DIR]`: one line per theme, `NAME<TAB>ORIGIN` (a path in
/// the data folder, or `(built-in)/themes/NAME.json`).
/// `notepress themes print NAME|PATH [--data-dir DIR]`: the resolved theme (everything it
/// inherits filled in) as a complete JSON theme file.
/// `notepress themes highlight-styles`: the highlighting library's theme names, one a line.
/// Exit status: 0 ok, 1 the theme (or the highlighting library) cannot be loaded, 2 usage error.
func runThemesCommand(_ args: [String]) -> Int32 {
    runCommand(Commands.themes, args) { a in
        let loader = ThemeLoader(store: try templateStore(a))
        let pos = a.positionals
        switch pos.first {
        case nil, "list":
            guard pos.count <= 1 else { throw UsageError("list takes no arguments") }
            for name in loader.availableThemes() {
                let origin = (try? loader.origin(of: name)) ?? "?"
                print("\(name)\t\(origin)")
            }
            return 0
        case "print":
            guard pos.count == 2 else { throw UsageError("print which theme? (a name from 'notepress themes', or a .json file)") }
            do {
                let theme = try loader.load(pos[1])
                let bytes = Array(theme.jsonText().utf8)
                Platform.ignoringSignals([.brokenPipe]) { writeAllToStandardOutput(bytes) }
                return 0
            } catch {
                printError("notepress themes: \(error)")
                return 1
            }
        case "highlight-styles":
            guard pos.count == 1 else { throw UsageError("highlight-styles takes no arguments") }
            if let why = Notepress.highlightingUnavailableReason {
                printError("notepress themes: \(why)")
                return 1
            }
            for name in Notepress.highlightStyles { print(name) }
            return 0
        case let other?:
            throw unknownWord("action", other, among: Commands.themes.actions)
        }
    }
}
