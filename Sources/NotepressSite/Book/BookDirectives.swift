import Foundation
import Notepress
import NotepressAST
import NotepressPlatform

/// mdBook's link preprocessor (mdBook's guide, "mdBook-specific features"): a text pass over a
/// chapter before libcmark-gfm parses it, as mdBook runs it before its Markdown parser, so a
/// directive works anywhere, inside fenced code too (its usual place).
///
/// - `{{#include FILE}}`: the file's text; `FILE:N` line N only; `FILE:N:` from line N;
///   `FILE::M` lines 1 to M; `FILE:N:M` lines N to M; `FILE:NAME` the lines between
///   `ANCHOR: NAME` and `ANCHOR_END: NAME`. Lines holding `ANCHOR:` or `ANCHOR_END:` are left
///   out of every include.
/// - `{{#rustdoc_include FILE…}}`: the same lines, less the lines rustdoc hides (`# …`, `#`):
///   mdBook keeps the rest of the file as hidden lines, which a page without mdBook's script
///   never shows, so they are left out.
/// - `{{#playground FILE ATTR…}}`: the file in a ```` ```rust,ATTR ```` fence.
/// - `{{#title TEXT}}`: the chapter's title; the directive itself is removed.
/// - `\{{#…}}`: kept as text, without the backslash. Other `{{#name …}}` are left as written.
///
/// `FILE` is relative to the folder of the file the directive is in; included text is read for
/// directives in turn (at most ``maxDepth`` deep). A file outside the book's root (symbolic
/// links resolved), a missing file or anchor, or a file that is not UTF-8 text is not included:
/// a warning at the directive's file:line:column, the directive kept as text. A directive is
/// one line long.
///
/// Positions: ``Expansion/lineMap`` gives each line of the expanded text the chapter's line it
/// came from (an included line: the directive's), for ``DocumentLoader/lineMap``.
package enum BookDirectives {
    /// How deep included files are read for directives (mdBook's limit).
    package static let maxDepth = 10

    /// A chapter after the pass.
    package struct Expansion: Sendable {
        /// The text to parse.
        package var bytes: [UInt8] = []
        /// The chapter's line (1-based) of each line of ``bytes``.
        package var lineMap: [Int32] = []
        /// The files included, as the command line reaches them (no duplicates, in order).
        package var includes: [String] = []
        /// Each included file's SHA-256 (hex), as ``includes``.
        package var includeHashes: [String] = []
        /// Warnings: directives not carried out.
        package var diagnostics: [Diagnostic] = []
        /// `{{#title}}`'s text, when given.
        package var title: String?
    }

    /// Whether `bytes` hold `{{` at all (else nothing to do: `memchr` from `{` to `{`).
    static func mayHoldDirective(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { b in
            guard let base = b.baseAddress, b.count >= 2 else { return false }
            var at = 0
            while at < b.count - 1, let p = memchr(base + at, 0x7B, b.count - 1 - at) {
                let i = base.distance(to: p.assumingMemoryBound(to: UInt8.self))
                if b[i + 1] == 0x7B { return true }
                at = i + 1
            }
            return false
        }
    }

    /// The pass over chapter `bytes` read from `file` (its path as the command line reached it;
    /// `name`: the path messages give it); `nil` when it holds no directive.
    package static func expand(_ bytes: [UInt8], file: String, name: String, book: BookFolder) -> Expansion? {
        guard mayHoldDirective(bytes) else { return nil }
        var state = State(book: book)
        var out = Expansion()
        out.lineMap = [1]
        var changed = false
        state.pass(bytes, file: file, name: name, depth: 0, into: &out, topLine: nil, changed: &changed)
        return changed || !out.diagnostics.isEmpty ? out : nil
    }

    struct State {
        let book: BookFolder
        var seen = Set<String>()

        /// Copies `text` into `out`, carrying out directives. `topLine`: the chapter line every
        /// output line maps to (inside an include), `nil` for the chapter itself.
        mutating func pass(_ text: [UInt8], file: String, name: String, depth: Int, into out: inout Expansion,
                           topLine: Int32?, changed: inout Bool) {
            var line: Int32 = 1
            var i = 0
            let n = text.count
            func newline() { out.lineMap.append(topLine ?? line) }
            var lineStart = 0
            while i < n {
                let c = text[i]
                if c == 0x0A {
                    out.bytes.append(c)
                    line += 1
                    lineStart = i + 1
                    newline()
                    i += 1
                    continue
                }
                guard c == 0x7B, i + 1 < n, text[i + 1] == 0x7B else { out.bytes.append(c); i += 1; continue }
                let lineEnd = text[i...].firstIndex(of: 0x0A) ?? n
                // `\{{#…}}`: the text to the line's last `}}`, without the backslash.
                if i > lineStart, text[i - 1] == 0x5C, i + 2 < lineEnd, text[i + 2] == 0x23,
                   let close = Self.lastClose(text, from: i + 3, to: lineEnd) {
                    out.bytes.removeLast()
                    out.bytes.append(contentsOf: text[i..<close])
                    changed = true
                    i = close
                    continue
                }
                guard let d = Directive.parse(text, at: i, lineEnd: lineEnd) else { out.bytes.append(c); i += 1; continue }
                let column = i - lineStart + 1
                let at = SourcePosition(line: Int(line), column: column)
                if let replacement = carryOut(d, file: file, name: name, at: at, depth: depth, out: &out) {
                    changed = true
                    if let title = replacement.title { out.title = title }
                    if let content = replacement.content, let target = replacement.file {
                        pass(content, file: target, name: target, depth: depth + 1, into: &out,
                             topLine: topLine ?? line, changed: &changed)
                    } else if let content = replacement.content {
                        for b in content { out.bytes.append(b); if b == 0x0A { newline() } }
                    }
                } else {
                    out.bytes.append(contentsOf: text[i..<d.end])
                }
                i = d.end
            }
        }

        /// The end of the last `}}` in `text[from..<to]`.
        static func lastClose(_ text: [UInt8], from: Int, to: Int) -> Int? {
            var j = to - 1
            while j > from { if text[j] == 0x7D && text[j - 1] == 0x7D { return j + 1 }; j -= 1 }
            return nil
        }

        /// What a directive is replaced with (`nil`: kept as text, warned).
        struct Replacement {
            var content: [UInt8]?
            /// The included file, whose content is read for directives in turn.
            var file: String?
            var title: String?
        }

        mutating func carryOut(_ d: Directive, file: String, name: String, at: SourcePosition, depth: Int,
                               out: inout Expansion) -> Replacement? {
            func warn(_ message: String) -> Replacement? {
                var d = Diagnostic(.warning, "{{#\(d.kind) \(d.argument)}}: \(message); kept as text", file: name, position: at)
                d.notConverted = true
                out.diagnostics.append(d)
                return nil
            }
            switch d.kind {
            case "title":
                return Replacement(content: [], title: d.argument)
            case "include", "rustdoc_include", "playground", "playpen":
                break
            default:
                return nil  // not mdBook's: left as written, as mdBook leaves it
            }
            if depth >= BookDirectives.maxDepth { return warn("included \(BookDirectives.maxDepth) levels deep (an include that includes itself?)") }
            let playground = d.kind == "playground" || d.kind == "playpen"
            // The path, then (include, rustdoc_include) `:range` or `:anchor`; (playground) attributes.
            var pathText = d.argument, selector: Substring?
            var attributes: [Substring] = []
            if playground {
                let words = d.argument.split(separator: " ", omittingEmptySubsequences: true)
                pathText = words.first.map(String.init) ?? ""
                attributes = Array(words.dropFirst())
            } else if let colon = d.argument.firstIndex(of: ":") {
                pathText = String(d.argument[..<colon])
                selector = d.argument[d.argument.index(after: colon)...]
            }
            let folder = PathText.deletingLastComponent(file)
            let target = pathText.hasPrefix("/") ? pathText : Self.normalized(folder.isEmpty ? pathText : PathText.join(folder, pathText))
            guard let st = Platform.status(target), st.kind == .regular else {
                return warn("no such file \(target)")
            }
            let real = InputScanner.realPath(target)
            let root = book.rootReal
            guard real.hasPrefix(root == "/" ? "/" : root + "/") else {
                return warn("\(target) is outside the book's root \(book.root); not included")
            }
            guard case .success(let bytes) = Platform.readFile(target) else { return warn("cannot read \(target)") }
            guard let text = String(bytes: bytes, encoding: .utf8), !bytes.contains(0) else {
                return warn("\(target) is not UTF-8 text")
            }
            if !out.includes.contains(target) {
                out.includes.append(target)
                out.includeHashes.append(SHA256.hex(bytes))
            }
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
            if text.hasSuffix("\n") { lines.removeLast() }
            guard let taken = Self.select(lines, selector) else {
                return warn("no anchor '\(selector ?? "")' in \(target)")
            }
            var kept = taken
            if d.kind == "rustdoc_include" { kept = kept.filter { !Self.isHiddenRustLine($0) } }
            var content = kept.joined(separator: "\n")
            if playground {
                content = "```rust" + (attributes.isEmpty ? "" : "," + attributes.joined(separator: ",")) + "\n" + content + "\n```\n"
            }
            return Replacement(content: Array(content.utf8), file: target)
        }

        /// `path` with `.` and `a/..` parts taken out (lexically; the root check resolves links).
        static func normalized(_ path: String) -> String {
            var parts: [Substring] = []
            let absolute = path.hasPrefix("/")
            for p in path.split(separator: "/") {
                if p == "." { continue }
                if p == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
                parts.append(p)
            }
            let joined = parts.joined(separator: "/")
            return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
        }

        /// Whether rustdoc hides `line` in a Rust code block: `#` alone or `# ` then code (after indentation).
        static func isHiddenRustLine(_ line: Substring) -> Bool {
            let t = line.drop { $0 == " " || $0 == "\t" }
            return t == "#" || t.hasPrefix("# ")
        }

        /// The lines `selector` names (mdBook's `parse_range_or_anchor`), anchor lines left out;
        /// `nil` for an anchor the file does not have.
        static func select(_ lines: [Substring], _ selector: Substring?) -> [Substring]? {
            guard let selector, !selector.isEmpty else { return lines.filter { !isAnchorLine($0) } }
            let parts = selector.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let first = parts[0]
            let start: Int?
            if let v = Int(first) {
                start = max(v - 1, 0)
            } else if first.isEmpty {
                start = nil
            } else {
                return anchored(lines, String(first))
            }
            let end: Int?? = parts.count > 1 ? .some(Int(parts[1])) : .none
            var range: Range<Int>
            switch (start, end) {
            case (let s?, .some(let e?)): range = s..<max(s, e)
            case (let s?, .some(nil)): range = s..<lines.count
            case (let s?, .none): range = s..<(s + 1)
            case (nil, .some(let e?)): range = 0..<e
            case (nil, _): range = 0..<lines.count
            }
            range = range.clamped(to: 0..<lines.count)
            return lines[range].filter { !isAnchorLine($0) }
        }

        /// The lines between `ANCHOR: name` and `ANCHOR_END: name`, other anchor lines left out.
        static func anchored(_ lines: [Substring], _ name: String) -> [Substring]? {
            var found = false
            var out: [Substring] = []
            for l in lines {
                if found {
                    if anchorName(l, "ANCHOR_END:") == name { return out }
                    if !isAnchorLine(l) { out.append(l) }
                } else if anchorName(l, "ANCHOR:") == name {
                    found = true
                }
            }
            return found ? out : nil
        }

        /// Whether `line` marks an anchor's start or end (`ANCHOR:\s*[\w_-]+`).
        static func isAnchorLine(_ line: Substring) -> Bool {
            anchorName(line, "ANCHOR:") != nil || anchorName(line, "ANCHOR_END:") != nil
        }

        /// The name after `marker` in `line` (`ANCHOR:\s*([\w_-]+)`), if any.
        static func anchorName(_ line: Substring, _ marker: String) -> String? {
            guard let r = line.range(of: marker) else { return nil }
            if marker == "ANCHOR:", r.lowerBound > line.startIndex, line[line.index(before: r.lowerBound)] == "_" { return nil }
            let name = line[r.upperBound...].drop { $0 == " " || $0 == "\t" }
                .prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
            return name.isEmpty ? nil : String(name)
        }
    }

    /// One `{{#kind argument}}` (mdBook's regex: `\{\{\s*#([a-zA-Z0-9_]+)\s+([^}]+)\}\}`).
    struct Directive {
        var kind: String
        var argument: String
        /// The byte after the closing `}}`.
        var end: Int

        /// The directive at `text[i]` (`{{`), within one line.
        static func parse(_ text: [UInt8], at i: Int, lineEnd: Int) -> Directive? {
            var j = i + 2
            func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D }
            while j < lineEnd, isSpace(text[j]) { j += 1 }
            guard j < lineEnd, text[j] == 0x23 else { return nil }
            j += 1
            let kindStart = j
            while j < lineEnd, text[j] == 0x5F || (text[j] >= 0x30 && text[j] <= 0x39) || ((text[j] | 0x20) >= 0x61 && (text[j] | 0x20) <= 0x7A) { j += 1 }
            guard j > kindStart, j < lineEnd, isSpace(text[j]) else { return nil }
            let kind = String(decoding: text[kindStart..<j], as: UTF8.self)
            while j < lineEnd, isSpace(text[j]) { j += 1 }
            let argStart = j
            while j < lineEnd, text[j] != 0x7D { j += 1 }
            guard j > argStart, j + 1 < lineEnd, text[j + 1] == 0x7D else { return nil }
            var argument = String(decoding: text[argStart..<j], as: UTF8.self)
            while argument.last == " " || argument.last == "\t" || argument.last == "\r" { argument.removeLast() }
            return Directive(kind: kind, argument: argument, end: j + 2)
        }
    }
}
