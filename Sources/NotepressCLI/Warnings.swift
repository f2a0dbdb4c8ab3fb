import Foundation
import Notepress

/// How much the commands print on standard error (`-q`, default, `--verbose`).
enum Verbosity: Sendable, Equatable {
    /// `-q`: errors only.
    case quiet
    /// Default: a warning summary line per file, the run's summary.
    case normal
    /// `--verbose`: every warning and every file.
    case verbose

    /// From `--quiet`/`-q` and `--verbose`/`-v`; when both are given, quiet wins (the safer
    /// for scripts).
    init(_ a: Arguments) {
        self = a.flag("--quiet") ? .quiet : a.flag("--verbose") ? .verbose : .normal
    }
}

/// The diagnostics of one input, and which step gave each: `input` for the reader (front matter,
/// nesting limits), else the writer's name (`man`, `ansi`…).
struct FileDiagnostics {
    /// The input as the user named it (`notes/x.note`, `-` for standard input).
    var file: String
    var diagnostics: [Diagnostic]
    /// One entry per diagnostic.
    var origins: [String]
}

/// What standard error shows of a file's diagnostics. Errors are always printed in full. Warnings:
/// - ``Verbosity/verbose``: each in full (`file:line:column: warning: message`);
/// - ``Verbosity/normal``: one warning in full; two or more as one line
///   `x.note: 3 warnings (man); --verbose to list`, naming the steps that gave them in order of
///   first appearance, as compilers summarise (pandoc prints none for notes that are not man
///   pages; a line per file keeps a folder's run readable);
/// - ``Verbosity/quiet``: none.
enum WarningReport {
    static func lines(_ f: FileDiagnostics, _ verbosity: Verbosity) -> [String] {
        var out: [String] = []
        var warnings: [(Diagnostic, String)] = []
        for (d, origin) in zip(f.diagnostics, f.origins) {
            if d.severity == .error { out.append(d.description) } else { warnings.append((d, origin)) }
        }
        switch verbosity {
        case .quiet:
            break
        case .verbose:
            out += warnings.map(\.0.description)
        case .normal:
            if warnings.count == 1 {
                out.append(warnings[0].0.description)
            } else if warnings.count > 1 {
                var steps: [String] = []
                for (_, o) in warnings where !steps.contains(o) { steps.append(o) }
                let name = f.file == "-" ? "<stdin>" : PathText.oneLine(f.file)
                out.append("\(name): \(warnings.count) warnings (\(steps.joined(separator: ", "))); --verbose to list")
            }
        }
        return out
    }

    /// Prints ``lines(_:_:)`` to standard error.
    static func print(_ f: FileDiagnostics, _ verbosity: Verbosity) {
        for l in lines(f, verbosity) { printError(l) }
    }
}
