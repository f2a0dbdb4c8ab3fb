import Foundation
import Notepress

/// `notepress validate [--schema PATH] [--data-dir DIR] FILE.xml…`: checks XML files against the
/// TEI schema (default: `tei/notepress-tei.rng` from `--data-dir` or built in) with libxml2.
/// Every error is printed once to standard error as `file:line:col: error: element NAME: message`
/// (``TEIValidator``: libxml2's message and the element xmllint names; column 1 when libxml2
/// gives none). DOCTYPEs and entities are refused, never loaded. `-` reads standard input; a file
/// that cannot be read is reported with the C library's reason (`strerror(3)`).
/// Exit status: 0 all valid, 1 any file invalid or unreadable, 2 usage error or unusable schema.
func runValidateCommand(_ args: [String]) -> Int32 {
    runCommand(Commands.validate, args) { a in
        guard !a.positionals.isEmpty else { throw UsageError("which files? (FILE.xml..., or - for standard input)") }
        let store = try templateStore(a)
        if let schema = a.value("--schema"), Platform.status(schema) == nil {
            throw UsageError("--schema \(schema): \(Platform.errorText())")
        }
        let validator: TEIWriter.Validator
        do {
            validator = try TEIWriter.validator(schemaFile: a.value("--schema"), templates: store)
        } catch {
            printError("notepress validate: \(error)")
            return 2
        }
        let quiet = a.flag("--quiet")
        var status: Int32 = 0
        for file in a.positionals {
            let data: Data
            if file == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                switch Platform.readFile(file) {
                case .success(let bytes): data = Data(bytes)
                case .failure(let e):
                    printError("\(file): error: cannot read: \(e)")
                    status = 1
                    continue
                }
            }
            let diagnostics = validator.validate(data, name: file == "-" ? "<stdin>" : file)
            for d in diagnostics where !quiet || d.severity == .error { printError(d.description) }
            if diagnostics.contains(where: { $0.severity == .error }) { status = 1 }
        }
        return status
    }
}
