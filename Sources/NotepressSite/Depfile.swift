import Foundation
import Notepress
import NotepressPlatform

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

    /// The stamp a folder run with `--depfile` writes in the output folder when it succeeds (and
    /// removes when it fails): `OUT/.notepress-stamp`, the depfile's last rule's target, naming
    /// every input. The one make target of a site whatever its pages are called.
    package static let stampName = ".notepress-stamp"

    /// The depfile text: rules in the order given, each `targets: prerequisites` on one line.
    /// `phonyPrerequisites` (gcc's `-MP`): then one empty rule per prerequisite that is no target,
    /// so that make does not stop ("No rule to make target") when an input is deleted or renamed.
    /// - Throws: ``NotepressError`` for a path that cannot be escaped.
    package static func render(_ rules: [Rule], phonyPrerequisites: Bool = false) throws -> String {
        var out = ""
        for r in rules where !r.targets.isEmpty {
            out += try r.targets.map(escape).joined(separator: " ")
            out += ":"
            for p in r.prerequisites { out += " " + (try escape(p)) }
            out += "\n"
        }
        if phonyPrerequisites {
            var seen = Set(rules.flatMap(\.targets))
            for r in rules where !r.targets.isEmpty {
                for p in r.prerequisites where seen.insert(p).inserted { out += try escape(p) + ":\n" }
            }
        }
        return out
    }

    /// Sets the modification time of every file of `targets` that is newer than the oldest of
    /// `failed` (files that exist) to one second before it (to 1970 when none exists), so that
    /// make, which rebuilds a target older than a prerequisite, runs a failed build again.
    package static func backdate(_ targets: [String], before failed: [String]) {
        let times = failed.compactMap { Platform.status($0)?.modifiedNanoseconds }
        let limit = max(0, (times.min() ?? 1_000_000_000) - 1_000_000_000)
        for t in targets {
            if let st = Platform.status(t, followLinks: false), st.kind == .regular, st.modifiedNanoseconds > limit {
                Platform.setModificationTime(t, nanoseconds: limit)
            }
        }
    }
}
