import Foundation
import NotepressAST

/// The one highlighting policy of every writer: which code blocks are highlighted and how. A
/// fenced block whose info string names a language (``CodeInfo/language(_:)``) that the library
/// knows gets ``Block/highlight``; any other block stays as it is. The library is loaded on the
/// first block with a language (``SyntaxLibrary/shared``), so documents without one pay nothing.
package struct CodeHighlighter: Sendable {
    /// Lines longer than this many bytes stay plain: the library's rules run per line, and some
    /// are not linear in the line's length, so one huge line (a minified file) is bounded.
    package static let maxLineBytes = 20_000

    /// A block with a language: where it is and what it asked for.
    package struct Unknown: Sendable, Equatable {
        /// The language as written in the info string.
        package var language: String
        /// Where the block starts.
        package var position: SourcePosition?
    }

    /// What a pass over a document found besides the highlighted blocks.
    package struct Findings: Sendable {
        /// Blocks whose language the library does not know (plain, no warning; `--verbose`
        /// lists them).
        package var unknown: [Unknown] = []
        /// Why the library could not be loaded, when a block needed it.
        package var unavailable: SyntaxLibraryUnavailable?
        package init() {}
    }

    package init() {}

    /// Whether the caller is the first of this process to meet a missing library: the warning
    /// is given once per run, not once per file.
    package static func claimUnavailableWarning() -> Bool {
        warned.lock.lock()
        defer { warned.lock.unlock() }
        if warned.done { return false }
        warned.done = true
        return true
    }

    private static let warned = Once()
    private final class Once: @unchecked Sendable {
        let lock = NSLock()
        var done = false
    }

    /// Starts the library on another thread when `text` has a fence that names a language, and
    /// loads those languages' definitions there, so that the library's start (dlopen of Qt, the
    /// repository, each definition's rules) overlaps with reading the document instead of
    /// following it. The first highlighted block waits for it (the library serialises its calls).
    /// Text without such a fence starts nothing. At most one start per process.
    package static func prewarm(for text: String) {
        let languages = fencedLanguages(in: text, limit: 8)
        guard !languages.isEmpty, Prewarm.claim() else { return }
        Thread.detachNewThread {
            guard case .success(let library) = SyntaxLibrary.shared else { return }
            for language in languages {
                if let d = library.definition(for: language) { _ = library.highlight("x\n", definition: d, maxLine: maxLineBytes) }
            }
        }
    }

    /// The languages of up to `limit` fences (a line of at most three spaces, then ```` ``` ```` or
    /// `~~~` and an info string), in order of first appearance: a quick look, not a parse.
    static func fencedLanguages(in text: String, limit: Int) -> [String] {
        var found: [String] = []
        var bytes = text.utf8[...]
        while !bytes.isEmpty, found.count < limit {
            let line = bytes.prefix { $0 != 0x0A }
            bytes = bytes.dropFirst(line.count + 1)
            var l = line.drop { $0 == 0x20 }
            guard line.count - l.count <= 3, let c = l.first, c == 0x60 || c == 0x7E else { continue }
            let fence = l.prefix { $0 == c }
            guard fence.count >= 3 else { continue }
            l = l.dropFirst(fence.count)
            if let lang = CodeInfo.language(String(decoding: l, as: UTF8.self)), !found.contains(lang),
               !(c == 0x60 && l.contains(0x60)) {
                found.append(lang)
            }
        }
        return found
    }

    private enum Prewarm {
        static let lock = NSLock()
        nonisolated(unsafe) static var started = false
        static func claim() -> Bool {
            lock.lock()
            defer { lock.unlock() }
            if started { return false }
            started = true
            return true
        }
    }

    /// `blocks` with every code block that names a known language highlighted (at any depth),
    /// copying only what changes.
    package func highlight(_ blocks: [Block], findings: inout Findings) -> [Block] {
        Block.changing(blocks) { highlight($0, findings: &findings) } ?? blocks
    }

    /// `block` highlighted (``highlight(_:findings:)``), or `nil` when nothing in it changed.
    package func highlight(_ block: Block, findings: inout Findings) -> Block? {
        guard case .codeBlock(let info, let literal) = block.kind else {
            return block.changingChildren { highlight($0, findings: &findings) }
        }
        guard block.highlight == nil, let language = CodeInfo.language(info) else { return nil }
        let library: SyntaxLibrary
        switch SyntaxLibrary.shared {
        case .success(let l): library = l
        case .failure(let e):
            findings.unavailable = e
            return nil
        }
        guard let definition = library.definition(for: language) else {
            findings.unknown.append(Unknown(language: language, position: block.position))
            return nil
        }
        var b = block
        b.highlight = CodeHighlight(language: definition,
                                    runs: library.highlight(literal, definition: definition, maxLine: Self.maxLineBytes))
        return b
    }
}
