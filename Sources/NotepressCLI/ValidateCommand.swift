import Foundation
import Notepress
import NotepressResources

/// `notepress validate [--schema PATH] [--data-dir DIR] FILE.xml…`: checks XML files against the
/// TEI schema (default: `tei/notepress-tei.rng` from `--data-dir` or built in) with libxml2.
/// Every error is printed to standard error as `file:line:col: error: message` (libxml2's
/// message; column 1 when libxml2 gives none). DOCTYPEs and entities are refused, never loaded.
/// `-` reads standard input.
/// Exit status: 0 all valid, 1 any file invalid or unreadable, 2 usage error or unusable schema.
func runValidateCommand(_ args: [String]) -> Int32 {
    let usage = "usage: notepress validate [--schema PATH] [--data-dir DIR] FILE.xml..."
    let parsed: Arguments
    do {
        parsed = try Arguments(args, valueOptions: [["--schema"], ["--data-dir"]], flagOptions: [["--help", "-h"]])
    } catch {
        printError("notepress validate: \(error)\n\(usage)")
        return 2
    }
    if parsed.flag("--help") { print(usage); return 0 }
    guard !parsed.positionals.isEmpty else { printError(usage); return 2 }
    let store = TemplateStore(dataDirectory: parsed.value("--data-dir").map { URL(fileURLWithPath: $0) })
    let validator: TEIWriter.Validator
    do {
        validator = try TEIWriter.validator(schemaFile: parsed.value("--schema"), templates: store)
    } catch {
        printError("notepress validate: \(error)")
        return 2
    }
    var status: Int32 = 0
    for file in parsed.positionals {
        let data: Data?
        if file == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            data = FileManager.default.contents(atPath: file)
        }
        guard let data else {
            printError("\(file): error: cannot read file")
            status = 1
            continue
        }
        let diagnostics = validator.validate(data, name: file == "-" ? "<stdin>" : file)
        for d in diagnostics { printError(d.description) }
        if diagnostics.contains(where: { $0.severity == .error }) { status = 1 }
    }
    return status
}

