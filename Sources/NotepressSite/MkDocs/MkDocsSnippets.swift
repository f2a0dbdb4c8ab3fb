import Foundation
import Notepress
import NotepressPlatform

extension BookDirectives {
    /// `pymdownx.snippets`' `--8<-- "file"` lines (PyMdown Extensions' "Snippets"), carried out
    /// by ``BookDirectives``' machinery (paths, the root, cycles, bounds, line maps): see there.
    enum Snippet {
        /// The directive kind snippet lines are carried out as.
        static let kind = "snippet"

        /// Whether `bytes` hold `8<` at all (else nothing to do).
        static func mayHold(_ bytes: [UInt8]) -> Bool { BookDirectives.holdsPair(bytes, 0x38, 0x3C) }

        /// The line `text[start..<end]` as a snippet line: its directive (kind ``kind``, the
        /// quoted path, its indentation), whether it is escaped (`;` before the marker), or
        /// `nil` (PyMdown's pattern: `[ \t]*;*-+8<-+[ \t]+("…"|'…')[ \t]*`, nothing else on the line).
        static func parse(_ text: [UInt8], start: Int, end: Int) -> (directive: Directive, escapes: Int)? {
            var j = start
            while j < end, text[j] == 0x20 || text[j] == 0x09 { j += 1 }
            let indent = String(decoding: text[start..<j], as: UTF8.self)
            var escapes = 0
            while j < end, text[j] == 0x3B { escapes += 1; j += 1 }
            var dashes = 0
            while j < end, text[j] == 0x2D { dashes += 1; j += 1 }
            guard dashes > 0, j + 1 < end, text[j] == 0x38, text[j + 1] == 0x3C else { return nil }
            j += 2
            dashes = 0
            while j < end, text[j] == 0x2D { dashes += 1; j += 1 }
            let blanks = j
            while j < end, text[j] == 0x20 || text[j] == 0x09 { j += 1 }
            guard dashes > 0, j > blanks, j < end, text[j] == 0x22 || text[j] == 0x27 else { return nil }
            let quote = text[j]
            var e = end
            while e > j, text[e - 1] == 0x20 || text[e - 1] == 0x09 || text[e - 1] == 0x0D { e -= 1 }
            guard e - j >= 3, text[e - 1] == quote, !text[(j + 1)..<(e - 1)].contains(quote) else { return nil }
            let path = String(decoding: text[(j + 1)..<(e - 1)], as: UTF8.self)
            return (Directive(kind: kind, argument: path, end: end, indent: indent), escapes)
        }

        /// The lines `selector` names: `N`, `N:M`, `N:`, `:M` (1-based, inclusive) or a section
        /// `NAME` (between `[start:NAME]` and `[end:NAME]`); section marker lines are left out.
        /// `nil` for a section the file does not have.
        static func select(_ lines: [Substring], _ selector: Substring?) -> [Substring]? {
            guard let selector, !selector.isEmpty, !selector.allSatisfy({ $0.isNumber || $0 == ":" }) else {
                return State.select(lines, selector).map { $0.filter { !isSectionLine($0) } }
            }
            var out: [Substring] = [], found = false
            for l in lines {
                if found {
                    if l.contains("[end:\(selector)]") { return out }
                    if !isSectionLine(l) { out.append(l) }
                } else if l.contains("[start:\(selector)]") && isSectionLine(l) {
                    found = true
                }
            }
            return found ? out : nil
        }

        /// Whether `line` is a block marker: dashes, `8<`, dashes, and nothing else but blanks.
        static func isBlockMarker(_ line: ArraySlice<UInt8>) -> Bool {
            var u = line.drop { $0 == 0x20 || $0 == 0x09 }
            while let l = u.last, l == 0x20 || l == 0x09 || l == 0x0D { u = u.dropLast() }
            guard let k = u.firstIndex(of: 0x38), k > u.startIndex, u.index(after: k) < u.endIndex, u[u.index(after: k)] == 0x3C,
                  u[..<k].allSatisfy({ $0 == 0x2D }) else { return false }
            let rest = u[u.index(k, offsetBy: 2)...]
            return !rest.isEmpty && rest.allSatisfy { $0 == 0x2D }
        }

        /// Whether `line` marks a section (`--8<-- [start:NAME]` or `--8<-- [end:NAME]`).
        static func isSectionLine(_ line: Substring) -> Bool {
            line.contains("8<") && (line.contains("[start:") || line.contains("[end:"))
        }
    }
}

extension BookDirectives.State {
    /// Copies the line of `text` starting at `i` into `out`, carrying out a snippet line; `i`
    /// ends at the line's end.
    mutating func snippetLine(_ text: [UInt8], at i: inout Int, lineStart: Int, line: Int32, file: String, name: String,
                              depth: Int, into out: inout BookDirectives.Expansion, topLine: Int32?, changed: inout Bool) {
        let lineEnd = text[i...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? text.count
        defer { i = lineEnd }
        // PyMdown's block form: a line of `--8<--` alone, one file per line, `--8<--` again
        // (the marker lines become empty lines; a blank line or one starting `;` names no file).
        if BookDirectives.Snippet.isBlockMarker(text[i..<lineEnd]) {
            snippetBlock = snippetBlock == depth ? nil : (snippetBlock ?? depth)
            changed = true
            return
        }
        if snippetBlock == depth {
            var s = i, e = lineEnd
            while s < e, text[s] == 0x20 || text[s] == 0x09 { s += 1 }
            while e > s, text[e - 1] == 0x20 || text[e - 1] == 0x09 { e -= 1 }
            changed = true
            guard s < e, text[s] != 0x3B else { return }
            let d = BookDirectives.Directive(kind: BookDirectives.Snippet.kind, argument: String(decoding: text[s..<e], as: UTF8.self),
                                             end: lineEnd, indent: String(decoding: text[i..<s], as: UTF8.self))
            include(d, text[i..<lineEnd], at: SourcePosition(line: Int(line), column: s - i + 1), file: file, name: name, depth: depth,
                    into: &out, topLine: topLine ?? line, changed: &changed)
            return
        }
        guard let (d, escapes) = BookDirectives.Snippet.parse(text, start: i, end: lineEnd) else {
            out.bytes.append(contentsOf: text[i..<lineEnd])
            return
        }
        if escapes > 0 {
            // `;--8<-- …`: the line as text, less one `;`.
            let at = text[i..<lineEnd].firstIndex(of: 0x3B) ?? i
            out.bytes.append(contentsOf: text[i..<at])
            out.bytes.append(contentsOf: text[(at + 1)..<lineEnd])
            changed = true
            return
        }
        include(d, text[i..<lineEnd], at: SourcePosition(line: Int(line), column: d.indent.utf8.count + 1), file: file, name: name,
                depth: depth, into: &out, topLine: topLine ?? line, changed: &changed)
    }

    /// Carries out snippet `d` written as `written` (kept as text when it cannot be included).
    mutating func include(_ d: BookDirectives.Directive, _ written: ArraySlice<UInt8>, at: SourcePosition, file: String, name: String,
                          depth: Int, into out: inout BookDirectives.Expansion, topLine: Int32, changed: inout Bool) {
        guard let replacement = carryOut(d, file: file, name: name, at: at, depth: depth, out: &out),
              let content = replacement.content, let target = replacement.file else {
            out.bytes.append(contentsOf: written)
            return
        }
        changed = true
        chain.append(replacement.real ?? target)
        pass(content, file: target, name: target, depth: depth + 1, into: &out, topLine: topLine, changed: &changed)
        chain.removeLast()
        if snippetBlock == depth + 1 { snippetBlock = nil }  // a block the included file left open
    }
}

extension BookDirectives {
    /// `pymdownx.snippets` on a file converted on its own (`--markdown-extension
    /// pymdownx.snippets`, no `mkdocs.yml`): its snippet lines carried out from PyMdown's default
    /// `base_path` `.`, the working folder, as `mkdocs build` run there would (a file outside the
    /// working folder: from its own folder), which snippets may not leave. `nil` when the file
    /// holds no snippet line or cannot be read (the reader then says why).
    package static func expandSnippets(inFile path: String, limited: Bool) -> Expansion? {
        guard case .success(let bytes) = Platform.readFile(path), Snippet.mayHold(bytes) else { return nil }
        let cwd = InputScanner.realPath(".")
        let inside = InputScanner.realPath(path).hasPrefix(cwd == "/" ? "/" : cwd + "/")
        let folder = PathText.deletingLastComponent(path)
        let root = inside || folder.isEmpty ? "." : folder
        let book = BookFolder(root: root, rootReal: InputScanner.realPath(root), source: root, title: nil, configFile: nil)
        return expand(bytes, file: path, name: path, book: book, limited: limited, syntax: .snippets)
    }
}
