import Foundation

/// A usage error: bad option, missing value. Exit status 2.
struct UsageError: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// A small getopt-style parser: `--name value`, `--name=value`, `-x value`, flags, `--` ends
/// options, `-` alone is a positional (stdin/stdout).
struct Arguments {
    private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// - Parameters:
    ///   - args: the arguments after the subcommand.
    ///   - valueOptions: options that take a value, each with its aliases, e.g. `["--to", "-t"]`;
    ///     the first name is the key.
    ///   - flagOptions: options without a value, with aliases.
    /// - Throws: ``UsageError`` for an unknown option or a missing value.
    init(_ args: [String], valueOptions: [[String]], flagOptions: [[String]]) throws {
        var key: [String: String] = [:]
        var isValue: [String: Bool] = [:]
        for names in valueOptions { for n in names { key[n] = names[0]; isValue[n] = true } }
        for names in flagOptions { for n in names { key[n] = names[0]; isValue[n] = false } }
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            let a = args[i]
            i += 1
            if onlyPositionals || a == "-" || !a.hasPrefix("-") { positionals.append(a); continue }
            if a == "--" { onlyPositionals = true; continue }
            var name = a
            var inline: String?
            if a.hasPrefix("--"), let eq = a.firstIndex(of: "=") {
                name = String(a[..<eq]); inline = String(a[a.index(after: eq)...])
            }
            guard let k = key[name], let takesValue = isValue[name] else { throw UsageError("unknown option '\(name)'") }
            if takesValue {
                if let inline { values[k, default: []].append(inline); continue }
                guard i < args.count else { throw UsageError("option '\(name)' needs a value") }
                values[k, default: []].append(args[i]); i += 1
            } else {
                if inline != nil { throw UsageError("option '\(name)' takes no value") }
                flags.insert(k)
            }
        }
    }

    /// The last value given for `name` (its first alias), or `nil`.
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
}

/// Writes to standard error.
func printError(_ s: String) {
    FileHandle.standardError.write((s + "\n").data(using: .utf8)!)
}
