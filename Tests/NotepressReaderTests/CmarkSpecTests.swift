import CCmarkGFM
import Foundation
import NotepressAST
import Notepress
import NotepressHTML
import NotepressReaders
import XCTest
import NotepressTestSupport
@testable import Notepress

/// The peer suite: cmark-gfm's own example files, read the way users' files are read (the
/// ``DocumentLoader``, front matter on: CommonMark example 68, `---\n---\n`, once lost its two
/// thematic breaks to an empty front matter block) and written by the HTML writer with
/// `--unsafe --fragment`, compared byte for byte (CRLF → LF) as upstream's CMake run compares
/// them (FORMAT.md).
final class CmarkSpecTests: XCTestCase {
    func run(file: String, format: SourceFormat, baseExtensions: Set<GFMExtension>, smart: Bool = false,
             preferStyle: Bool = false) throws -> (passed: Int, failed: [String], total: Int) {
        let url = TestPaths.corpus.appendingPathComponent("cmark-gfm-tests/" + file)
        let text = try String(contentsOf: url, encoding: .utf8)
        let examples = parseSpecExamples(text)
        var passed = 0
        var failed: [String] = []
        var total = 0
        for ex in examples where !ex.extensions.contains("disabled") {
            total += 1
            var exts = baseExtensions
            for e in ex.extensions { if let g = GFMExtension(rawValue: e) { exts.insert(g) } }
            // The HTML writer applies the tagfilter to GFM input (where users get it): an example
            // that asks for the extension is read as GFM with exactly its extensions.
            var loader = DocumentLoader(format: exts.contains(.tagfilter) ? .gfm : format)
            loader.markdownExtensions = exts
            loader.smartPunctuation = smart
            let doc = try loader.load(data: Data(ex.markdown.utf8), path: "example.md", modified: nil).document
            let html: String
            if preferStyle {
                // Table style attributes are what standalone pages write; the writer's fragment does not.
                html = HTMLEmitter(options: HTMLOptions(unsafe: true, tagfilter: exts.contains(.tagfilter),
                                                        tablePreferStyleAttributes: true)).fragment(doc)
            } else {
                var options = ConversionOptions()
                options.fragment = true
                options.unsafe = true
                options.tagfilter = exts.contains(.tagfilter)
                var diagnostics: [Diagnostic] = []
                html = String(decoding: try HTMLWriter().write(doc, options: options, diagnostics: &diagnostics), as: UTF8.self)
            }
            let norm = { (s: String) in s.replacingOccurrences(of: "\r\n", with: "\n") }
            // "<IGNORE>" means: pass if the program exits 0 (FORMAT.md); reaching here is that.
            if ex.html == "<IGNORE>\n" || norm(html) == norm(ex.html) {
                passed += 1
            } else {
                failed.append("example \(ex.number) (line \(ex.line), \(ex.section)):\n--- input\n\(ex.markdown)--- expected\n\(ex.html)--- got\n\(html)")
            }
        }
        print("\(file): \(passed)/\(total) examples pass (\(examples.count - total) disabled)")
        return (passed, failed, total)
    }

    func testSpecTxtAsCommonMark() throws {
        let r = try run(file: "spec.txt", format: .commonmark, baseExtensions: [])
        XCTAssertEqual(r.total, 671)
        XCTAssertEqual(r.passed, r.total, r.failed.prefix(5).joined(separator: "\n\n"))
    }

    func testExtensionsTxtAsGFM() throws {
        let r = try run(file: "extensions.txt", format: .gfm, baseExtensions: Set(GFMExtension.allCases))
        XCTAssertEqual(r.total, 30)
        XCTAssertEqual(r.passed, r.total, r.failed.prefix(5).joined(separator: "\n\n"))
    }

    func testSmartPunctuation() throws {
        let r = try run(file: "smart_punct.txt", format: .commonmark, baseExtensions: [], smart: true)
        XCTAssertEqual(r.total, 16)
        XCTAssertEqual(r.passed, r.total, r.failed.prefix(5).joined(separator: "\n\n"))
    }

    /// Standalone pages write table alignment as style attributes (HTML5 dropped `align`).
    func testTablePreferStyleAttributes() throws {
        let r = try run(file: "extensions-table-prefer-style-attributes.txt", format: .gfm,
                        baseExtensions: Set(GFMExtension.allCases), preferStyle: true)
        XCTAssertGreaterThan(r.total, 0)
        XCTAssertEqual(r.passed, r.total, r.failed.prefix(5).joined(separator: "\n\n"))
    }

    /// HTML forbids control characters: they become U+FFFD where cmark copies them.
    func testControlCharactersBecomeReplacementCharacters() {
        let doc = MarkdownReader().parse("a&#27;b \u{7F} \u{85} é\n\n```\n\u{1}x\n```\n").document
        XCTAssertEqual(HTMLEmitter().fragment(doc), "<p>a\u{FFFD}b \u{FFFD} \u{FFFD} é</p>\n<pre><code>\u{FFFD}x\n</code></pre>\n")
    }

    /// Regression: libcmark-gfm's special-character table is global; a parser freed on one thread
    /// cleared `~` and `|` for a parser running on another, so `-j 4` wrote different bytes than
    /// `-j 1`. Parsing in parallel must give the sequential result.
    /// The arena allocator (single-document runs) builds the same tree as the default one, also
    /// with default-allocator readers parsing on other threads at the same time.
    func testArenaAllocatorBuildsTheSameTree() throws {
        let files = TestPaths.files(under: TestPaths.corpus.appendingPathComponent("markdown"), extensions: ["md"])
        let texts = try files.map { String(decoding: try Data(contentsOf: $0), as: UTF8.self) }
            + ["a ~~b~~ | c |\n|---|---|\n| ~x~ | y |\n\n- [x] done[^1]\n\n[^1]: note &amp; <b>x</b>\n"]
        XCTAssertGreaterThan(texts.count, 5)
        var arena = MarkdownReader(format: .gfm)
        arena.arena = true
        final class Flag: @unchecked Sendable { var stop = false; let lock = NSLock(); let done = DispatchSemaphore(value: 0) }
        let flag = Flag()
        let background = Thread {
            while true {
                flag.lock.lock(); let stop = flag.stop; flag.lock.unlock()
                if stop { break }
                for t in texts.prefix(3) { _ = MarkdownReader(format: .gfm).parse(t) }
            }
            flag.done.signal()
        }
        // The background reader must have stopped before the next test runs (it once overlapped
        // the unlocked reference render of testCorpusMatchesCmarkRenderHTML).
        defer { flag.done.wait() }
        background.start()
        for (i, text) in texts.enumerated() {
            let plain = MarkdownReader(format: .gfm).parse(text).document
            let fromArena = arena.parse(text).document
            XCTAssertEqual(fromArena, plain, "document \(i)")
            XCTAssertEqual(HTMLEmitter().fragment(fromArena), HTMLEmitter().fragment(plain), "document \(i)")
        }
        flag.lock.lock(); flag.stop = true; flag.lock.unlock()
    }

    /// The body written on a second thread while the reader builds the tree is the body written
    /// from the finished document: corpus files, footnotes that reference each other (counted over
    /// the whole document before the first definition), a document of footnotes only, an empty one.
    func testStreamedHTMLBodyMatchesTheWholeDocument() throws {
        let files = TestPaths.files(under: TestPaths.corpus.appendingPathComponent("markdown"), extensions: ["md"])
        let texts = try files.map { String(decoding: try Data(contentsOf: $0), as: UTF8.self) } + [
            "x[^1] y[^2] z[^1]\n\n[^1]: one[^2]\n[^2]: two[^1] and[^2]\n\n> after\n",
            "[^a]: alone\n",
            "",
            "| a | b |\n|---|---|\n| <script>x</script> | ~~y~~ |\n",
        ]
        for (i, text) in texts.enumerated() {
            for options in [HTMLOptions(), HTMLOptions(unsafe: true, tagfilter: true, tablePreferStyleAttributes: true)] {
                let stream = HTMLFragmentStream(options: options)
                var pushed = 0
                let read = MarkdownReader(format: .gfm).parse(text, topLevelBlock: { pushed += 1; stream.push($0) })
                let streamed = stream.finish()
                XCTAssertEqual(pushed, read.document.blocks.count, "document \(i)")
                XCTAssertEqual(String(decoding: streamed, as: UTF8.self),
                               String(decoding: HTMLEmitter(options: options).fragmentBytes(read.document), as: UTF8.self), "document \(i)")
            }
        }
    }

    /// A loader that keeps no blocks hands every block to the callback, in order, and returns a
    /// document without blocks but with the same metadata and diagnostics (notes and Markdown).
    func testLoaderWithoutRetainedBlocksStreamsTheSameBlocks() throws {
        let loader = DocumentLoader()
        let inputs: [(String, String)] = [
            ("a.note", "---\ntitle: T\n---\nFirst *line*\nsecond\n\n1. one\n2. TWO\n\nlast ~x~\n"),
            ("b.md", "# H\n\npara[^1]\n\n- a\n- b\n\n[^1]: note\n"),
        ]
        for (name, text) in inputs {
            let whole = try loader.load(data: Data(text.utf8), path: name, modified: nil)
            var streamed: [Block] = []
            let partial = try loader.load(data: Data(text.utf8), path: name, modified: nil,
                                          topLevelBlock: { streamed.append($0) }, retainBlocks: false)
            XCTAssertGreaterThan(whole.document.blocks.count, 1, name)
            XCTAssertEqual(streamed, whole.document.blocks, name)
            XCTAssertTrue(partial.document.blocks.isEmpty, name)
            XCTAssertEqual(partial.document.metadata, whole.document.metadata, name)
            XCTAssertEqual(partial.diagnostics.map(\.description), whole.diagnostics.map(\.description), name)
        }
    }

    /// An unknown block (a node kind the writer does not know) is written as its content with
    /// one warning naming it and its position — whether the body comes from the whole document
    /// or from the stream fed while reading.
    func testUnknownBlockWarnsInBothHTMLPaths() throws {
        let inner = Block(.paragraph(Inlines([InlineRun(.text("kept")) ])), position: SourcePosition(line: 4, column: 3))
        let unknown = Block(.unknown(typeName: "callout", blocks: [inner]), position: SourcePosition(line: 3, column: 1))
        let doc = Document(metadata: DocumentMetadata(sourcePath: "x.md", sourceFormat: .gfm), blocks: [unknown])
        var options = ConversionOptions()
        options.fragment = true
        var plain: [Diagnostic] = []
        let whole = try HTMLWriter().write(doc, options: options, diagnostics: &plain)
        let stream = HTMLFragmentStream(options: HTMLWriter.htmlOptions(options, format: .gfm))
        stream.push(unknown)
        var streamed: [Diagnostic] = []
        let fromStream = try HTMLWriter().write(Document(metadata: doc.metadata, blocks: []), options: options,
                                                diagnostics: &streamed, stream: stream)
        XCTAssertEqual(String(decoding: whole, as: UTF8.self), "<p>kept</p>\n")
        XCTAssertEqual(fromStream, whole)
        for d in [plain, streamed] {
            XCTAssertEqual(d.map(\.description), ["x.md:3:1: warning: unknown node 'callout' written as its content"])
        }
    }

    func testParallelParsingMatchesSequential() throws {
        let files = TestPaths.files(under: TestPaths.corpus.appendingPathComponent("markdown"), extensions: ["md"])
        let texts = try files.map { String(decoding: try Data(contentsOf: $0), as: UTF8.self) }
            + ["a ~~b~~ | c |\n|---|---|\n| ~x~ | y |\n"]
        let expected = texts.map { HTMLEmitter().fragment(MarkdownReader(format: .gfm).parse($0).document) }
        final class Box: @unchecked Sendable { var got: [[String]] = Array(repeating: [], count: 4); let lock = NSLock() }
        let box = Box()
        DispatchQueue.concurrentPerform(iterations: 4) { t in
            var mine: [String] = []
            for round in 0..<3 {
                for (i, text) in texts.enumerated() {
                    // Interleave CommonMark parsers (no extensions) to free parsers without them.
                    if (i + t + round) % 2 == 0 { _ = MarkdownReader(format: .commonmark).parse(text) }
                    mine.append(HTMLEmitter().fragment(MarkdownReader(format: .gfm).parse(text).document))
                }
            }
            box.lock.lock(); box.got[t] = mine; box.lock.unlock()
        }
        for t in 0..<4 {
            XCTAssertEqual(box.got[t].count, 3 * texts.count)
            for (k, html) in box.got[t].enumerated() where html != expected[k % texts.count] {
                XCTFail("thread \(t): document \(k % texts.count) differs when parsed in parallel")
                break
            }
        }
    }

    func testRegressionTxt() throws {
        let r = try run(file: "regression.txt", format: .commonmark, baseExtensions: [])
        XCTAssertEqual(r.passed, r.total, r.failed.prefix(5).joined(separator: "\n\n"))
    }

    /// Our HTML equals libcmark-gfm's own `cmark_render_html` (footnotes on, all extensions,
    /// default safe options) on every real document in the corpus that has no raw HTML (raw HTML
    /// is sanitized where cmark-gfm writes `<!-- raw HTML omitted -->`, issue #53); the others
    /// with `--unsafe` on both sides.
    func testCorpusMatchesCmarkRenderHTML() throws {
        let files = TestPaths.files(under: TestPaths.corpus.appendingPathComponent("markdown"), extensions: ["md"])
        XCTAssertGreaterThanOrEqual(files.count, 10)
        var compared = 0
        for file in files {
            let bytes = try Data(contentsOf: file)
            let text = String(decoding: bytes, as: UTF8.self)
            var theirs = cmarkRenderHTML(text)
            let unsafe = theirs.contains("<!-- raw HTML omitted -->")
            if unsafe { theirs = cmarkRenderHTML(text, unsafe: true) } else { compared += 1 }
            let ours = HTMLEmitter(options: HTMLOptions(unsafe: unsafe, tagfilter: true))
                .fragment(MarkdownReader(format: .gfm).parse(text).document)
            if ours != theirs {
                let a = Array(ours.utf8), b = Array(theirs.utf8)
                var i = 0
                while i < min(a.count, b.count) && a[i] == b[i] { i += 1 }
                let ctx = { (x: [UInt8]) in String(decoding: x[max(0, i - 80)..<min(x.count, i + 80)], as: UTF8.self) }
                XCTFail("\(file.lastPathComponent): differs at byte \(i)\n--- cmark\n\(ctx(b))\n--- ours\n\(ctx(a))")
            }
        }
        XCTAssertGreaterThan(compared, 1)
    }

    /// cmark-gfm's reference renderer through the library, as `cmark-gfm` would run with every
    /// extension and footnotes (and `--unsafe` when `unsafe`).
    func cmarkRenderHTML(_ text: String, unsafe: Bool = false) -> String {
        // Under the reader's lock: a parser attached or freed on another thread changes
        // libcmark-gfm's global special-character table under this parse (once, a `www.`
        // autolink was missed here while a background reader of another test was still running).
        MarkdownReader.withLibraryLock {
            let options: Int32 = 1 << 13 | (unsafe ? 1 << 17 : 0)  // CMARK_OPT_FOOTNOTES, CMARK_OPT_UNSAFE
            let parser = cmark_parser_new(options)!
            defer { cmark_parser_free(parser) }
            for name in ["table", "strikethrough", "autolink", "tagfilter", "tasklist"] {
                cmark_parser_attach_syntax_extension(parser, cmark_find_syntax_extension(name))
            }
            let utf8 = Array(text.utf8)
            utf8.withUnsafeBufferPointer { b in
                b.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress!, $0.count) }
            }
            let root = cmark_parser_finish(parser)!
            defer { cmark_node_free(root) }
            let html = cmark_render_html(root, options, cmark_parser_get_syntax_extensions(parser))!
            defer { free(html) }
            return String(cString: html)
        }
    }
}
