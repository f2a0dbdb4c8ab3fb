import Foundation
import NotepressAST

/// The one highlighting policy of every writer: which code blocks are highlighted and how. A
/// fenced block whose info string names a language (``CodeInfo/language(_:)``) that the library
/// knows gets ``Block/highlight``; any other block stays as it is. The library is loaded on the
/// first block with a language (``SyntaxLibrary/shared``), so documents without one pay nothing;
/// a block highlighted by an earlier run comes from ``HighlightCache`` without loading it.
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

    /// The warning that the library is missing, given once per run, not once per file: a run
    /// (its ``DocumentLoader``, shared by the copies of the run's threads) owns one, and a
    /// `--watch` rebuild, a new run, warns again.
    package final class UnavailableWarning: @unchecked Sendable {
        private let lock = NSLock()
        private var done = false

        /// Not yet given.
        package init() {}

        /// Whether the caller is the first of its run to meet a missing library.
        package func claim() -> Bool {
            lock.lock()
            defer { lock.unlock() }
            if done { return false }
            done = true
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
        let cache = HighlightCache.shared
        if let hit = cache?.lookup(language: language, text: literal, maxLine: Self.maxLineBytes) {
            guard let definition = hit.definition else {
                findings.unknown.append(Unknown(language: language, position: block.position))
                return nil
            }
            var b = block
            b.highlight = CodeHighlight(language: definition, runs: hit.runs)
            return b
        }
        let library: SyntaxLibrary
        switch SyntaxLibrary.shared {
        case .success(let l): library = l
        case .failure(let e):
            findings.unavailable = e
            return nil
        }
        guard let definition = library.definition(for: language) else {
            findings.unknown.append(Unknown(language: language, position: block.position))
            cache?.store(language: language, text: literal, maxLine: Self.maxLineBytes, definition: nil, runs: [], library: library)
            return nil
        }
        let runs = library.highlight(literal, definition: definition, maxLine: Self.maxLineBytes)
        cache?.store(language: language, text: literal, maxLine: Self.maxLineBytes, definition: definition, runs: runs, library: library)
        var b = block
        b.highlight = CodeHighlight(language: definition, runs: runs)
        return b
    }
}
