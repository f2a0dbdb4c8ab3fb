import Foundation
import Notepress

/// Makefile-syntax dependency files (`--depfile FILE`), as `gcc -MD` writes them, read by GNU make
/// (`-include FILE`) and by ninja (`depfile = FILE`, `deps = gcc`).
///
/// One rule per input: `OUTPUT...: INPUT THEME TEMPLATES...`, plus one for the HTML index
/// (`index.html: every input`). Paths are written as given (relative paths stay relative).
/// Escaping follows what GNU make's and ninja's depfile parsers undo: a space as `\ `, `#` as
/// `\#`, `$` as `$$`, a `:` in a path is not escaped (make cannot express it; Windows drive letters
/// do not occur here). Newlines in paths cannot be expressed and are rejected.
package enum Depfile {
    /// One dependency rule.
    package struct Rule: Sendable, Equatable {
        package var targets: [String]
        package var prerequisites: [String]
        package init(targets: [String], prerequisites: [String]) {
            self.targets = targets; self.prerequisites = prerequisites
        }
    }

    /// Escapes one path for a Makefile rule (the only way paths reach a depfile).
    /// - Throws: ``NotepressError`` for a path containing a newline.
    package static func escape(_ path: String) throws -> String {
        if path.contains("\n") || path.contains("\r") {
            throw NotepressError.outputRefused(file: path, message: "a path with a line break cannot be written to a depfile")
        }
        var out = ""
        out.reserveCapacity(path.utf8.count)
        for c in path {
            switch c {
            case " ": out += "\\ "
            case "\t": out += "\\\t"
            case "#": out += "\\#"
            case "$": out += "$$"
            default: out.append(c)
            }
        }
        return out
    }

    /// The depfile text: rules in the order given, each `targets: prerequisites` on one line.
    /// - Throws: ``NotepressError`` for a path that cannot be escaped.
    package static func render(_ rules: [Rule]) throws -> String {
        var out = ""
        for r in rules where !r.targets.isEmpty {
            out += try r.targets.map(escape).joined(separator: " ")
            out += ":"
            for p in r.prerequisites { out += " " + (try escape(p)) }
            out += "\n"
        }
        return out
    }
}
