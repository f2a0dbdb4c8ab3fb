import Foundation
import Notepress
import NotepressAST
import NotepressPlatform
import NotepressReaders

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
/// links resolved), a missing file or anchor, a folder or other file that is not a regular file
/// (never opened: a FIFO would block), or a file that is not UTF-8 text is not included:
/// a warning at the directive's file:line:column, the directive kept as text. A directive is
/// one line long. Lines end at LF, CRLF or CR, as in CommonMark.
///
/// Include bombs: a file already on the chain of includes being read (a file that includes
/// itself, two that include each other) is a cycle, not included; nesting past ``maxDepth`` is
/// not included; and the expanded chapter may grow to at most ``bytesPerInputByte`` × its own
/// bytes + ``bytesAllowance`` (README, "Limits"; `--no-input-limits` lifts it): the include that
/// would cross the bound and every later one are kept as text. Each warning is given once
/// (a file included many times repeats none of its warnings), and each file is read once per
/// chapter, so time and memory stay linear in the expanded text.
///
/// Positions: ``Expansion/lineMap`` gives each line of the expanded text the chapter's line it
/// came from (an included line: the directive's), for ``DocumentLoader/lineMap``.
///
/// The same machinery carries out `pymdownx.snippets`' lines in an MkDocs project (``Syntax/snippets``):
/// a line `--8<-- "FILE"` (or `'FILE'`; any run of `-` around `8<`), alone on its line after
/// indentation, is FILE's text, each line indented as the snippet line was; `FILE:N:M` lines N
/// to M, `FILE:N` line N, `FILE:NAME` the lines between `--8<-- [start:NAME]` and
/// `--8<-- [end:NAME]` (such marker lines are left out of every snippet); `;--8<-- …` is kept
/// as text without the `;`. FILE is relative to the project's folder (the one holding
/// `mkdocs.yml`, PyMdown's default `base_path`), and may not leave it; `{{#…}}` is not read then.
package enum BookDirectives {
    /// The directive syntax a folder's pages use.
    package enum Syntax: Sendable, Equatable {
        /// mdBook's `{{#include …}}` and the others.
        case mdBook
        /// `pymdownx.snippets`' `--8<-- "file"` lines.
        case snippets
    }

    /// How deep included files are read for directives (mdBook's limit).
    package static let maxDepth = 10
    /// Most bytes the expanded chapter may have per byte of the chapter (see ``bytesAllowance``).
    package static let bytesPerInputByte = 10
    /// Bytes the expanded chapter may have beyond ``bytesPerInputByte`` × the chapter's (16 MB).
    package static let bytesAllowance = 16 << 20

    /// The bound on a chapter of `count` bytes once expanded.
    package static func byteLimit(forInput count: Int) -> Int { count * bytesPerInputByte + bytesAllowance }

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

    /// Whether `bytes` hold `{{` at all (else nothing to do).
    static func mayHoldDirective(_ bytes: [UInt8]) -> Bool { holdsPair(bytes, 0x7B, 0x7B) }

    /// Whether `bytes` hold the byte `first` right before `second` (`memchr` from one `first` to
    /// the next): the quick test before a directive pass.
    static func holdsPair(_ bytes: [UInt8], _ first: UInt8, _ second: UInt8) -> Bool {
        bytes.withUnsafeBufferPointer { b in
            guard let base = b.baseAddress, b.count >= 2 else { return false }
            var at = 0
            while at < b.count - 1, let p = memchr(base + at, Int32(first), b.count - 1 - at) {
                let i = base.distance(to: p.assumingMemoryBound(to: UInt8.self))
                if b[i + 1] == second { return true }
                at = i + 1
            }
            return false
        }
    }

    /// The pass over chapter `bytes` read from `file` (its path as the command line reached it;
    /// `name`: the path messages give it); `nil` when it holds no directive.
    /// `limited`: whether the expansion is bounded (``byteLimit(forInput:)``; off with `--no-input-limits`).
    package static func expand(_ bytes: [UInt8], file: String, name: String, book: BookFolder,
                               limited: Bool = true, syntax: Syntax = .mdBook) -> Expansion? {
        guard syntax == .snippets ? Snippet.mayHold(bytes) : mayHoldDirective(bytes) else { return nil }
        var state = State(book: book)
        state.syntax = syntax
        state.limit = limited ? byteLimit(forInput: bytes.count) : nil
        state.chain = [InputScanner.realPath(file)]
        var out = Expansion()
        out.lineMap = [1]
        var changed = false
        state.pass(bytes, file: file, name: name, depth: 0, into: &out, topLine: nil, changed: &changed)
        return changed || !out.diagnostics.isEmpty ? out : nil
    }

    struct State {
        let book: BookFolder
        /// The directives read.
        var syntax = Syntax.mdBook
        /// The real paths of the files being read, the chapter first (a cycle's test).
        var chain: [String] = []
        /// Most bytes of expanded text, `nil`: unbounded.
        var limit: Int?
        /// The depth of the file whose block of snippets (`--8<--` lines around file names) is
        /// open, `nil`: none.
        var snippetBlock: Int?
        /// Whether an include was refused for ``limit`` (every later one is kept as text).
        var overLimit = false
        /// The warnings given (file, position, message), each once.
        var warned = Set<String>()
        /// Each included file as read (its lines, or why it cannot be included), by path.
        var files: [String: IncludedFile] = [:]

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
                if c == 0x0A || c == 0x0D {
                    out.bytes.append(c)
                    if c == 0x0D, i + 1 < n, text[i + 1] == 0x0A { out.bytes.append(0x0A); i += 1 }
                    line += 1
                    lineStart = i + 1
                    newline()
                    i += 1
                    continue
                }
                if syntax == .snippets {
                    snippetLine(text, at: &i, lineStart: lineStart, line: line, file: file, name: name, depth: depth,
                                into: &out, topLine: topLine, changed: &changed)
                    continue
                }
                guard c == 0x7B, i + 1 < n, text[i + 1] == 0x7B else { out.bytes.append(c); i += 1; continue }
                let lineEnd = text[i...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? n
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
                        chain.append(replacement.real ?? target)
                        pass(content, file: target, name: target, depth: depth + 1, into: &out,
                             topLine: topLine ?? line, changed: &changed)
                        chain.removeLast()
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
            /// ``file`` with symbolic links resolved (on the include chain while it is read).
            var real: String?
            var title: String?
        }

        mutating func carryOut(_ d: Directive, file: String, name: String, at: SourcePosition, depth: Int,
                               out: inout Expansion) -> Replacement? {
            func warn(_ message: String) -> Replacement? {
                let written = d.kind == Snippet.kind ? "--8<-- \"\(d.argument)\"" : "{{#\(d.kind) \(d.argument)}}"
                let text = "\(written): \(message); kept as text"
                // Once per file, position and message: a file included many times repeats none.
                guard warned.insert("\(name)\u{0}\(at.line):\(at.column)\u{0}\(text)").inserted else { return nil }
                var d = Diagnostic(.warning, text, file: name, position: at)
                d.notConverted = true
                out.diagnostics.append(d)
                return nil
            }
            switch d.kind {
            case "title":
                return Replacement(content: [], title: d.argument)
            case "include", "rustdoc_include", "playground", "playpen", Snippet.kind:
                break
            default:
                return nil  // not mdBook's: left as written, as mdBook leaves it
            }
            if overLimit { return nil }  // said once, at the include that crossed the bound
            if depth >= BookDirectives.maxDepth {
                return warn("included more than \(BookDirectives.maxDepth) levels deep (mdBook's limit); not included")
            }
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
            // Snippets: from the project's folder (PyMdown's base_path); mdBook: the chapter's.
            let folder = d.kind == Snippet.kind ? book.root : PathText.deletingLastComponent(file)
            let target = pathText.hasPrefix("/") ? pathText : Self.normalized(folder.isEmpty ? pathText : PathText.join(folder, pathText))
            let included: IncludedFile
            if let known = files[target] { included = known } else { included = read(target); files[target] = included }
            guard let lines = included.lines, let real = included.real else { return warn(included.problem ?? "cannot read \(target)") }
            if chain.contains(real) {
                return warn("\(target) is already being included (a cycle); not included")
            }
            if !out.includes.contains(target) {
                out.includes.append(target)
                out.includeHashes.append(included.sha256)
            }
            guard let taken = d.kind == Snippet.kind ? Snippet.select(lines, selector) : Self.select(lines, selector) else {
                return warn("no anchor '\(selector ?? "")' in \(target)")
            }
            var kept = taken
            if d.kind == "rustdoc_include" { kept = kept.filter { !Self.isHiddenRustLine($0) } }
            var content = kept.joined(separator: "\n")
            if d.kind == Snippet.kind, !d.indent.isEmpty { content = kept.map { $0.isEmpty ? "" : d.indent + $0 }.joined(separator: "\n") }
            if playground {
                content = "```rust" + (attributes.isEmpty ? "" : "," + attributes.joined(separator: ",")) + "\n" + content + "\n```\n"
            }
            if let limit, out.bytes.count + content.utf8.count > limit {
                let r = warn("the expanded chapter would pass \(limit) bytes (\(BookDirectives.bytesPerInputByte) × the chapter's bytes + \(BookDirectives.bytesAllowance): an include bomb?); this include and every later one are not included; \(InputLimits.liftOption) lifts the limit")
                overLimit = true
                return r
            }
            return Replacement(content: Array(content.utf8), file: target, real: real)
        }

        /// A file an include names, as read once per chapter.
        struct IncludedFile {
            /// Its lines (ends taken off), `nil` when it cannot be included.
            var lines: [Substring]?
            /// Its path with symbolic links resolved.
            var real: String?
            /// Its bytes' SHA-256 (hex).
            var sha256 = ""
            /// Why it cannot be included.
            var problem: String?
        }

        /// `target` read for an include: a regular UTF-8 text file inside the book's root.
        func read(_ target: String) -> IncludedFile {
            func problem(_ text: String) -> IncludedFile { IncludedFile(problem: text) }
            guard let st = Platform.status(target) else { return problem("no such file \(target)") }
            switch st.kind {
            case .regular: break
            case .directory: return problem("\(target) is a folder")
            default: return problem("\(target) is not a regular file")  // a FIFO is never opened: it would block
            }
            let real = InputScanner.realPath(target)
            let root = book.rootReal
            guard real.hasPrefix(root == "/" ? "/" : root + "/") else {
                let shown = book.root == "." || book.root.isEmpty ? "\(root) (the input folder)" : book.root
                return problem("\(target) is outside the book's root \(shown); not included")
            }
            guard case .success(let bytes) = Platform.readFile(target) else { return problem("cannot read \(target)") }
            guard let text = String(bytes: bytes, encoding: .utf8), !bytes.contains(0) else {
                return problem("\(target) is not UTF-8 text")
            }
            return IncludedFile(lines: Self.lines(text), real: real, sha256: SHA256.hex(bytes))
        }

        /// `text`'s lines, split at LF, CRLF or CR (CommonMark's line endings), without their ends;
        /// no empty last line for a text that ends with a line ending.
        static func lines(_ text: String) -> [Substring] {
            var lines: [Substring] = []
            let u = text.utf8
            var start = u.startIndex
            var i = u.startIndex
            while i != u.endIndex {
                let b = u[i]
                guard b == 0x0A || b == 0x0D else { i = u.index(after: i); continue }
                lines.append(text[start..<i])
                var next = u.index(after: i)
                if b == 0x0D, next != u.endIndex, u[next] == 0x0A { next = u.index(after: next) }
                start = next
                i = next
            }
            if start != u.endIndex { lines.append(text[start..<u.endIndex]) }
            return lines
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
        /// A snippet line's indentation (each included line gets it).
        var indent = ""

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
