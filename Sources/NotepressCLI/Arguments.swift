import Foundation

/// A usage error: bad option, missing value, unknown command. Exit status 2.
struct UsageError: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// One option of a command: its names, whether it takes a value, and its help.
struct OptionSpec: Sendable {
    /// Every spelling, long ones first (`["--to", "-t"]`); the first is the key ``Arguments`` uses.
    var names: [String]
    /// The value's placeholder in help (`FORMAT`); `nil` for a flag.
    var value: String?
    /// The values the option accepts, for help and shell completion (`nil`: any).
    var choices: [String]?
    /// What completes the value in a shell: a file, a folder, or ``choices``.
    var completes: Completion = .choices
    /// Help text, one or more lines (already wrapped to fit the help's second column).
    var help: String
    /// Left out of help and completion (an alias kept for old command lines).
    var hidden = false
    /// What the option does to the files a `convert` run writes (``Effect``): the build
    /// configuration of the manifest hashes every ``Effect/output`` option of ``Commands/convert``
    /// as given (``ConvertPlan/fingerprintedOptions``), so an option is fingerprinted unless it
    /// says otherwise here, and a new one cannot be forgotten. `OptionTableTests` walks the table:
    /// each `output` option with two values rewrites the output with other bytes, each `run`
    /// option leaves every byte as it was and the re-run skips, each `selection` option's re-run
    /// writes what a fresh build writes.
    var effect: Effect = .output

    enum Completion: Sendable { case choices, file, folder, theme }

    /// What an option does to the bytes of a `convert` run (see ``effect``).
    enum Effect: Sendable {
        /// Changes what is written (the default): hashed into the manifest's build configuration,
        /// so a re-run with another value converts again.
        case output
        /// Changes how the run goes, never a byte it writes (`-j`, `-q`, `--force`, `--depfile`, `-o`…):
        /// not hashed, so changing it converts nothing again.
        case run
        /// Chooses which files are inputs (`--include`, `--exclude`, `--follow-symlinks`), not what
        /// an input becomes: not hashed, because a page whose links, backlinks or lists change with
        /// the selection is converted again by its site digest, and the rest need not be.
        case selection
        /// Chooses which share of a sharded site a process converts (`--shard`, `--site-table`,
        /// `--files-from`, `--root`, `-0`): every share of one site must have one build
        /// configuration (`notepress index` checks it), so these are not hashed.
        case partition
    }

    init(_ names: [String], value: String? = nil, choices: [String]? = nil, completes: Completion = .choices,
         hidden: Bool = false, effect: Effect = .output, _ help: String) {
        self.names = names
        self.value = value
        self.choices = choices
        self.completes = completes
        self.help = help
        self.hidden = hidden
        self.effect = effect
    }

    var key: String { names[0] }
    var takesValue: Bool { value != nil }
}

/// getopt_long-style parsing (POSIX "Utility Syntax Guidelines" and GNU's extensions), as users of
/// cmark-gfm, pandoc and git expect:
/// - `--name value`, `--name=value`; an unambiguous prefix of a long name (`--verb`) is that name;
/// - `-x value`, `-xvalue` (`-thtml`), and clustered flags (`-qj4` = `-q -j 4`);
/// - `--` ends the options; `-` alone is a positional (standard input or output);
/// - options and positionals may be mixed.
/// Unknown options are usage errors that name the closest known option ("did you mean").
struct Arguments {
    private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// - Parameters:
    ///   - args: the arguments after the subcommand.
    ///   - options: the command's options.
    /// - Throws: ``UsageError`` for an unknown or ambiguous option, a missing value, or a value
    ///   given to a flag.
    init(_ args: [String], options: [OptionSpec]) throws {
        var byName: [String: OptionSpec] = [:]
        for o in options { for n in o.names { byName[n] = o } }
        let longNames = byName.keys.filter { $0.hasPrefix("--") }.sorted()
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            let a = args[i]
            i += 1
            if onlyPositionals || a == "-" || !a.hasPrefix("-") { positionals.append(a); continue }
            if a == "--" { onlyPositionals = true; continue }
            if a.hasPrefix("--") {
                var name = a
                var inline: String?
                if let eq = a.firstIndex(of: "=") { name = String(a[..<eq]); inline = String(a[a.index(after: eq)...]) }
                let spec: OptionSpec
                if let exact = byName[name] {
                    spec = exact
                } else {
                    let matches = Set(longNames.filter { $0.hasPrefix(name) }.map { byName[$0]!.key })
                    guard matches.count == 1, let only = matches.first else {
                        if matches.count > 1 {
                            throw UsageError("option '\(name)' is ambiguous: " + matches.sorted().joined(separator: ", "))
                        }
                        throw UsageError(Self.unknown(name, among: options))
                    }
                    spec = byName[only]!
                }
                if spec.takesValue {
                    if let inline { values[spec.key, default: []].append(inline); continue }
                    guard i < args.count else { throw UsageError("option '\(name)' needs a value (\(spec.value!))") }
                    values[spec.key, default: []].append(args[i]); i += 1
                } else {
                    if inline != nil { throw UsageError("option '\(name)' takes no value") }
                    flags.insert(spec.key)
                }
                continue
            }
            // Short options, possibly clustered: -qj4, -thtml, -o FILE.
            var rest = Substring(a.dropFirst())
            while let c = rest.first {
                rest = rest.dropFirst()
                let name = "-" + String(c)
                guard let spec = byName[name] else {
                    throw UsageError(Self.unknown(name, among: options, whole: a))
                }
                if spec.takesValue {
                    if !rest.isEmpty { values[spec.key, default: []].append(String(rest)); break }
                    guard i < args.count else { throw UsageError("option '\(name)' needs a value (\(spec.value!))") }
                    values[spec.key, default: []].append(args[i]); i += 1
                    break
                }
                flags.insert(spec.key)
            }
        }
    }

    /// "unknown option '--colr'; did you mean '--color'?" A short option is suggested only as the
    /// long option its whole word spells with one dash too few (`-color` → `--color`).
    private static func unknown(_ name: String, among options: [OptionSpec], whole: String? = nil) -> String {
        let known = options.filter { !$0.hidden }.flatMap(\.names)
        var text = "unknown option '\(name)'"
        var suggestion: String?
        if let whole {
            if whole != name { text += " in '\(whole)'" }
            suggestion = Suggestion.closest(to: "-" + whole, among: known.filter { $0.hasPrefix("--") })
        } else {
            suggestion = Suggestion.closest(to: name, among: known.filter { $0.hasPrefix("--") })
        }
        if let suggestion { text += "; did you mean '\(suggestion)'?" }
        return text
    }

    /// The last value given for `name` (an option's first name), or `nil`.
    func value(_ name: String) -> String? { values[name]?.last }
    /// Every value given for `name`, in order.
    func allValues(_ name: String) -> [String] { values[name] ?? [] }
    /// Whether the flag was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// An integer option. - Throws: ``UsageError`` when not an integer within `range`.
    func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let v = value(name) else { return nil }
        guard let n = Int(v), range.contains(n) else {
            throw UsageError("option '\(name)' expects a whole number in \(range.lowerBound)...\(range.upperBound), got '\(v)'")
        }
        return n
    }

    /// A value that must be one of `choices`. - Throws: ``UsageError`` naming the choices.
    func choice(_ name: String, _ choices: [String]) throws -> String? {
        guard let v = value(name) else { return nil }
        guard choices.contains(v) else {
            var text = "option '\(name)' expects " + Suggestion.list(choices) + ", got '\(v)'"
            if let s = Suggestion.closest(to: v, among: choices) { text += "; did you mean '\(s)'?" }
            throw UsageError(text)
        }
        return v
    }
}

/// "Did you mean" suggestions: the closest candidate by edit distance (Damerau–Levenshtein,
/// optimal string alignment: insertions, deletions, substitutions and swaps of neighbours cost 1),
/// as git's help.autocorrect and cargo suggest commands.
enum Suggestion {
    /// The candidate nearest to `word` when it is near enough: at most 2 edits, and fewer than
    /// half of `word`'s length; or a candidate that starts with `word`. `nil` otherwise.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let w = Array(word.lowercased())
        var best: (String, Int)?
        for c in candidates {
            let d = distance(w, Array(c.lowercased()))
            if best == nil || d < best!.1 { best = (c, d) }
        }
        if let (c, d) = best, d <= 2, d * 2 < max(w.count, 2) + 1 { return c }
        let prefixed = candidates.filter { $0.lowercased().hasPrefix(word.lowercased()) }
        return prefixed.count == 1 ? prefixed[0] : nil
    }

    /// Optimal string alignment distance; O(|a|·|b|) time, O(|b|) memory per row (three rows).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }

    /// "a, b or c".
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " or " + items.last!
    }
}

/// Writes a line to standard error.
func printError(_ s: String) {
    FileHandle.standardError.write((s + "\n").data(using: .utf8)!)
}
