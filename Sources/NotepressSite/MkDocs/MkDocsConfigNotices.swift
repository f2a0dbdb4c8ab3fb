import Foundation
import Notepress
import NotepressAST
import NotepressReaders

/// What `mkdocs.yml` asks for that a folder run does not carry out, said once each at
/// `mkdocs.yml:LINE:COLUMN` instead of left silent: `INHERIT:` (a parent configuration), `!ENV`
/// tags (environment variables), YAML merge keys (`<<:`) and aliases of collections, and each
/// plugin of `plugins:` other than those the site engine does itself (``builtInPlugins``).
extension MkDocsFolder {
    /// Plugins whose work every site does anyway: `search` (the site's search page and index).
    static let builtInPlugins: Set<String> = ["search"]

    /// The notices for `bytes` (`config`'s text) and its parsed form `yaml`.
    static func notices(_ bytes: [UInt8], config: String, yaml: FrontMatter) -> [String] {
        var out: [String] = yaml.warnings.map { d in
            "\(config):\(d.position?.line ?? 1):\(d.position?.column ?? 1): warning: \(d.message)"
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for (n, raw) in lines.enumerated() {
            let line = uncommented(raw)
            if line.hasPrefix("INHERIT:") {
                out.append("\(config):\(n + 1):1: warning: INHERIT: (a parent configuration) is not read; only this file's keys are used")
            }
            if let r = line.range(of: "!ENV") {
                out.append("\(config):\(n + 1):\(column(line, r.lowerBound)): warning: !ENV (an environment variable) is not read; the default written after it, if any, is used as text")
            }
            if let r = line.range(of: "<<:") {
                out.append("\(config):\(n + 1):\(column(line, r.lowerBound)): warning: a YAML merge key (<<) is not read; the keys it would bring in are left out")
            }
        }
        out += pluginNotices(yaml, lines: lines, config: config)
        return out
    }

    /// One warning per plugin `plugins:` lists (a list of names or one-key maps, or a map) that
    /// the site engine does not do itself, at the line and column its name is written.
    static func pluginNotices(_ yaml: FrontMatter, lines: [Substring], config: String) -> [String] {
        var names: [String] = []
        switch yaml.collections["plugins"] {
        case .list(let items)?:
            for item in items {
                switch item {
                case .string(let n): names.append(n)
                case .map(let m): names += m.keys.sorted()
                default: continue
                }
            }
        case .map(let m)?: names = m.keys.sorted()
        default:
            if let s = yaml.fields["plugins"], !s.isEmpty { names = [s] }
        }
        let start = lines.firstIndex { uncommented($0).hasPrefix("plugins:") } ?? 0
        var out: [String] = [], seen = Set<String>()
        for name in names where !builtInPlugins.contains(name) && seen.insert(name).inserted {
            var at = (line: start + 1, column: 1)
            for k in start..<lines.count {
                let l = uncommented(lines[k])
                let t = l.drop { $0 == " " || $0 == "-" }
                if t == name[...] || t.hasPrefix(name + ":") || (k == start && l.contains(name)) {
                    let idx = l.range(of: name).map { l.distance(from: l.startIndex, to: $0.lowerBound) } ?? 0
                    at = (k + 1, idx + 1)
                    break
                }
            }
            out.append("\(config):\(at.line):\(at.column): warning: plugin '\(name)' is not run; the site is built without it")
        }
        return out
    }

    /// A line without its comment (`#` at the start or after a blank; quotes not read).
    static func uncommented(_ line: Substring) -> Substring {
        var previous: Character = " "
        for i in line.indices {
            if line[i] == "#" && (previous == " " || previous == "\t") { return line[..<i] }
            previous = line[i]
        }
        return line
    }

    /// The 1-based column of `index` in `line` (in characters).
    static func column(_ line: Substring, _ index: Substring.Index) -> Int { line.distance(from: line.startIndex, to: index) + 1 }
}
