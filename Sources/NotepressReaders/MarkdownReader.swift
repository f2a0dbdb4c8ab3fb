import CCmarkGFM
import Foundation
import NotepressAST

/// The GFM syntax extensions of libcmark-gfm, by the names cmark-gfm registers them under.
package enum GFMExtension: String, Sendable, CaseIterable, Hashable {
    case table, strikethrough, autolink, tagfilter, tasklist
    /// Footnotes are a parser option in libcmark-gfm (`CMARK_OPT_FOOTNOTES`), not an extension
    /// object, but users and the spec-test format name them like one.
    case footnotes
}

/// Reads CommonMark or GFM with libcmark-gfm and copies cmark's tree into a ``Document`` once,
/// then frees it: nothing downstream touches a C pointer.
///
/// - GFM (`.gfm`) turns on all six extensions; `.commonmark` none. ``extensions`` overrides.
/// - Extension nodes are recognised by their type string (`table`, `strikethrough`, `tasklist`…);
///   any other node becomes ``Block/Kind/unknown(typeName:blocks:)`` (or its inline content) with
///   a warning.
/// - Containers deeper than ``ASTLimits/maxNestingDepth`` are flattened into their ancestor,
///   with one warning, so that later stages can recurse safely.
/// - In GFM, a top-level block quote that starts with a GitHub alert marker (`[!NOTE]`, …)
///   becomes an ``Alert`` block (the rule is documented there).
package struct MarkdownReader: Sendable {
    package var format: SourceFormat
    package var extensions: Set<GFMExtension>
    /// `CMARK_OPT_SMART`: curly quotes, dashes, ellipses.
    package var smart = false
    /// Allocate cmark's tree in libcmark-gfm's arena (`cmark_get_arena_mem_allocator`, as the
    /// `cmark-gfm` program does) and release it in one `cmark_arena_reset` once it is copied,
    /// instead of one `calloc` and `free` per node. The arena is one per process, so with it the
    /// parse, the copy and the release all run under the cmark lock: meant for a process that
    /// reads one document at a time (the single-file command line), not for parallel batches.
    package var arena = false
    /// Read wiki links (``WikiLinkSyntax``: `[[Note]]`, `[[Note|label]]`, `![[image.png]]`) in
    /// text outside code and links, as links with ``Link/Syntax/wiki``. `[[note]]` where a link
    /// reference definition `[note]: …` exists (Foam writes them for other Markdown readers) is a
    /// wiki link too, not a bracketed reference link. Off: cmark-gfm's reading, byte for byte.
    package var wikilinks = false
    /// Refuse documents past these bounds (``InputLimits``): nil reads every document, as
    /// libcmark-gfm does.
    package var limits: InputLimits?
    /// Which side of a wiki link's `|` is the target (``WikiLinkSyntax/Order``): label first in
    /// TiddlyWiki files.
    package var wikiLinkOrder = WikiLinkSyntax.Order.targetFirst
    /// Read math, `%%comments%%` and `==highlights==` (``VaultSyntax``); `nil` (the default):
    /// cmark-gfm's reading, byte for byte.
    package var vaultSyntax: VaultSyntax.Features?
    /// The source line (1-based) of each line of the text given to ``parse(bytes:path:lineOffset:topLevelBlock:retainBlocks:)``
    /// counted from the file's first line (front matter included), when a text pass before the
    /// parse added lines (mdBook's `{{#include}}` in a site: NotepressSite's `BookDirectives`):
    /// positions and warnings then name the source's lines. `nil`: the same lines.
    package var lineMap: [Int32]?
    /// The MkDocs Markdown extensions to read (``MkDocsExtension``, from `mkdocs.yml`); empty
    /// (the default): cmark-gfm's reading, byte for byte.
    package var mkdocs: Set<MkDocsExtension> = []
    /// Whether ``MkDocsBlocks`` already rewrote the text (its block quotes are read as admonitions).
    var mkdocsBlocksRewritten = false
    /// How many definitions deep this reader reads a definition's indented text again: past 8
    /// that text is read without `def_list` (so nesting, and the stack, stay bounded).
    var mkdocsNesting = 0

    package init(format: SourceFormat = .gfm, extensions: Set<GFMExtension>? = nil) {
        self.format = format
        self.extensions = extensions ?? (format == .gfm ? Set(GFMExtension.allCases) : [])
    }

    /// Parses `text` (UTF-8). `lineOffset` is added to every reported line (front matter removed
    /// before parsing). Never fails: every byte sequence is some Markdown.
    ///
    /// `topLevelBlock`, when given, is called with each top-level block as soon as it is built, in
    /// document order (the blocks of the result, one by one), so that a writer on another thread
    /// can start before the whole tree is copied (``HTMLFragmentStream`` in NotepressHTML).
    /// With `retainBlocks` false the blocks go only to `topLevelBlock` and the result's document
    /// has none (its diagnostics are complete).
    package func parse(_ text: String, path: String? = nil, lineOffset: Int = 0,
                      topLevelBlock: ((Block) -> Void)? = nil, retainBlocks: Bool = true) -> ReadResult {
        var text = text
        return text.withUTF8 {
            parse(bytes: $0, path: path, lineOffset: lineOffset, topLevelBlock: topLevelBlock, retainBlocks: retainBlocks)
        }
    }

    /// Parses raw UTF-8 bytes (see ``parse(_:path:lineOffset:topLevelBlock:retainBlocks:)``).
    package func parse(bytes: UnsafeBufferPointer<UInt8>, path: String? = nil, lineOffset: Int = 0,
                      topLevelBlock: ((Block) -> Void)? = nil, retainBlocks: Bool = true) -> ReadResult {
        if let limits, let v = limits.check(bytes) {
            return refusal(InputLimits.Violation(line: v.line + lineOffset, column: v.column, message: v.message), path: path)
        }
        if !mkdocs.isEmpty, !mkdocsBlocksRewritten {
            let (text, literal) = MkDocsBlocks.rewrite(bytes, extensions: mkdocs)
            var rewritten = self
            rewritten.mkdocsBlocksRewritten = true
            var read = text.map { t in
                t.withUnsafeBufferPointer {
                    rewritten.parse(bytes: $0, path: path, lineOffset: lineOffset, topLevelBlock: topLevelBlock, retainBlocks: retainBlocks)
                }
            } ?? rewritten.parse(bytes: bytes, path: path, lineOffset: lineOffset, topLevelBlock: topLevelBlock, retainBlocks: retainBlocks)
            read.diagnostics += literal.map { l in
                let line = l.line + lineOffset
                let source = lineMap.flatMap { line <= $0.count ? Int($0[line - 1]) : nil } ?? line
                var d = Diagnostic(.warning, "'\(l.text)' is not a marker line MkDocs reads (`!!! type \"Title\"`, `??? type`, `=== \"Tab\"`); kept as text",
                                   file: path, position: SourcePosition(line: source, column: l.column))
                d.notConverted = true
                return d
            }
            return read
        }
        var vaultSyntax = self.vaultSyntax
        if mkdocs.contains(.mark), vaultSyntax?.highlights != true {
            // pymdownx.mark's `==text==` is the vault's highlight.
            var f = vaultSyntax ?? VaultSyntax.Features(math: false, comments: false, highlights: false)
            f.highlights = true
            vaultSyntax = f
        }
        var result: ReadResult
        if let features = vaultSyntax, let vault = VaultSyntax.prescan(bytes, features: features) {
            result = vault.text.withUnsafeBufferPointer {
                parseChecked(bytes: $0, path: path, lineOffset: lineOffset, topLevelBlock: topLevelBlock,
                             retainBlocks: retainBlocks, vault: vault, mathBlocks: features.math)
            }
        } else {
            result = parseChecked(bytes: bytes, path: path, lineOffset: lineOffset, topLevelBlock: topLevelBlock,
                                  retainBlocks: retainBlocks, vault: nil, mathBlocks: vaultSyntax?.math == true)
        }
        guard !mkdocs.isEmpty, result.refused == nil else { return result }
        // The MkDocs extensions, once the whole tree is read and libcmark-gfm's lock released
        // (a definition's indented continuation is read again with this reader).
        var inner = self
        inner.lineMap = nil
        inner.limits = nil
        inner.mkdocsNesting += 1
        if inner.mkdocsNesting > 8 { inner.mkdocs.remove(.defList) }
        var syntax = MkDocsSyntax(extensions: mkdocs, path: path) { inner.parse($0, path: path).document.blocks }
        let blocks = syntax.apply(result.document.blocks)
        result.diagnostics += syntax.findings.diagnostics
        if let topLevelBlock { for b in blocks { topLevelBlock(b) } }
        result.document.blocks = !retainBlocks && topLevelBlock != nil ? [] : blocks
        return result
    }

    /// ``parse(bytes:path:lineOffset:topLevelBlock:retainBlocks:)`` past the input limits, of the
    /// text after the vault pre-scan (`vault`, when it replaced anything).
    func parseChecked(bytes: UnsafeBufferPointer<UInt8>, path: String?, lineOffset: Int,
                      topLevelBlock: ((Block) -> Void)?, retainBlocks: Bool, vault: VaultSyntax?, mathBlocks: Bool) -> ReadResult {
        var options: Int32 = 0
        if extensions.contains(.footnotes) { options |= 1 << 13 }  // CMARK_OPT_FOOTNOTES
        if smart { options |= 1 << 10 }  // CMARK_OPT_SMART
        // libcmark-gfm 0.29 keeps the inline parser's special-character table in a global that
        // attaching an extension sets and freeing a parser clears (for `~`, `|`, …). Two parsers
        // on two threads would change each other's results, so parsing and freeing the parser are
        // serialised; building our tree from the finished nodes is not.
        cmarkLock.lock()
        _ = cmarkCoreExtensionsRegistered
        let mem = arena ? cmark_get_arena_mem_allocator() : cmark_get_default_mem_allocator()
        guard let parser = cmark_parser_new_with_mem(options, mem) else { fatalError("cmark_parser_new: out of memory") }
        for ext in extensions where ext != .footnotes {
            if let e = cmark_find_syntax_extension(ext.rawValue) { cmark_parser_attach_syntax_extension(parser, e) }
        }
        bytes.withMemoryRebound(to: CChar.self) { buf in
            if let base = buf.baseAddress { cmark_parser_feed(parser, base, buf.count) }
        }
        let finished = cmark_parser_finish(parser)
        if !arena { cmarkLock.unlock() }
        defer {
            if arena {
                // Everything the parser allocated goes at once; the lock is still held.
                cmark_parser_free(parser)
                cmark_arena_reset()
                cmarkLock.unlock()
            } else {
                cmarkLock.lock()
                cmark_parser_free(parser)
                cmarkLock.unlock()
            }
        }
        guard let root = finished else { fatalError("cmark_parser_finish: out of memory") }
        defer { if !arena { cmark_node_free(root) } }
        if let limits, let (node, total, bound) = limits.checkExpansion(of: root, inputBytes: bytes.count) {
            return refusal(InputLimits.Violation(
                line: Int(cmark_node_get_start_line(node)) + lineOffset, column: Int(cmark_node_get_start_column(node)),
                message: "links and images repeat \(total) bytes of destinations and titles, more than \(limits.expansionPerInputByte)× the input + \(limits.expansionAllowance) (\(bound); a link reference definition used many times?); \(InputLimits.liftOption) lifts the limit"),
                path: path)
        }
        var builder = TreeBuilder(path: path, lineOffset: lineOffset, source: bytes)
        builder.wikilinks = wikilinks
        builder.wikiLinkOrder = wikiLinkOrder
        builder.alerts = format == .gfm
        builder.vault = vault
        builder.lineMap = lineMap
        builder.mathBlocks = mathBlocks
        builder.callouts = vaultSyntax != nil
        builder.admonitions = mkdocsBlocksRewritten
        builder.subscriptTilde = mkdocs.contains(.tilde)
        // MkDocs extensions read the whole tree (abbreviations defined at the end, definitions
        // across blocks): the blocks go to `topLevelBlock` once read.
        builder.topLevelBlock = mkdocs.isEmpty ? topLevelBlock : nil
        builder.retainTopLevel = retainBlocks || topLevelBlock == nil || !mkdocs.isEmpty
        let blocks = builder.build(root)
        var doc = Document(metadata: DocumentMetadata(sourcePath: path, sourceFormat: format), blocks: blocks)
        doc.knownFreeOfRawHTML = !builder.sawRawHTML
        return ReadResult(document: doc, diagnostics: builder.diagnostics)
    }
}

extension MarkdownReader {
    /// An empty document refused for `violation`.
    func refusal(_ violation: InputLimits.Violation, path: String?) -> ReadResult {
        var r = ReadResult(document: Document(metadata: DocumentMetadata(sourcePath: path, sourceFormat: format), blocks: []))
        r.refused = violation
        return r
    }
}

/// Serialises libcmark-gfm parser set-up, parsing and tear-down (see `MarkdownReader.parse`).
private let cmarkLock = NSLock()

/// Registers libcmark-gfm's core extensions once per process. In 0.29.0.gfm.6,
/// `cmark_gfm_core_extensions_ensure_registered` checks and sets a plain `static int` with no
/// lock, and registering allocates the extensions' node types (`CMARK_NODE_TABLE`, …) in
/// process globals: two threads reading their first documents at once registered twice, and
/// the second registration renumbered the node types under a parse already running on the other
/// thread (`blocks.c:282: finalize: Assertion 'b->flags & CMARK_NODE__OPEN' failed`, or a
/// segfault, in about 2 % of `scan -j 8` runs). Later cmark-gfm releases lock it themselves.
/// A Swift global is initialised exactly once (`swift_once`), and it is first touched under
/// ``cmarkLock``.
private let cmarkCoreExtensionsRegistered: Bool = {
    cmark_gfm_core_extensions_ensure_registered()
    return true
}()

extension MarkdownReader {
    /// Runs `body` holding the lock every libcmark-gfm parse in this process holds, with the core
    /// extensions registered: for code outside this reader that drives libcmark-gfm itself (a
    /// test's reference render). Parsers attach and free extensions, which changes libcmark-gfm's
    /// global special-character table under any other parse (see ``parse(bytes:path:lineOffset:topLevelBlock:retainBlocks:)``).
    package static func withLibraryLock<T>(_ body: () throws -> T) rethrows -> T {
        cmarkLock.lock()
        defer { cmarkLock.unlock() }
        _ = cmarkCoreExtensionsRegistered
        return try body()
    }
}
