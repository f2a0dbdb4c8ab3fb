import CCmarkGFM
import Foundation
import NotepressAST
import NotepressHTML
import NotepressReaders
import XCTest

/// The peer suite: cmark-gfm's own example files, parsed into our AST and written by our HTML
/// emitter with `--unsafe --fragment`, compared byte for byte (CRLF → LF) as upstream's CMake run
/// compares them (FORMAT.md).
final class CmarkSpecTests: XCTestCase {
    func run(file: String, format: SourceFormat, baseExtensions: Set<GFMExtension>) throws -> (passed: Int, failed: [String], total: Int) {
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
            let reader = MarkdownReader(format: format, extensions: exts)
            let doc = reader.parse(ex.markdown).document
            let html = HTMLEmitter(options: HTMLOptions(unsafe: true, tagfilter: exts.contains(.tagfilter))).fragment(doc)
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

    func testRegressionTxt() throws {
        let r = try run(file: "regression.txt", format: .commonmark, baseExtensions: [])
        XCTAssertEqual(r.passed, r.total, r.failed.prefix(5).joined(separator: "\n\n"))
    }

    /// Our HTML equals libcmark-gfm's own `cmark_render_html` (footnotes on, all extensions,
    /// default safe options) on every real document in the corpus.
    func testCorpusMatchesCmarkRenderHTML() throws {
        let files = TestPaths.files(under: TestPaths.corpus.appendingPathComponent("markdown"), extensions: ["md"])
        XCTAssertGreaterThanOrEqual(files.count, 10)
        for file in files {
            let bytes = try Data(contentsOf: file)
            let text = String(decoding: bytes, as: UTF8.self)
            let ours = HTMLEmitter(options: HTMLOptions(unsafe: false, tagfilter: true))
                .fragment(MarkdownReader(format: .gfm).parse(text).document)
            let theirs = cmarkRenderHTML(text)
            if ours != theirs {
                let a = Array(ours.utf8), b = Array(theirs.utf8)
                var i = 0
                while i < min(a.count, b.count) && a[i] == b[i] { i += 1 }
                let ctx = { (x: [UInt8]) in String(decoding: x[max(0, i - 80)..<min(x.count, i + 80)], as: UTF8.self) }
                XCTFail("\(file.lastPathComponent): differs at byte \(i)\n--- cmark\n\(ctx(b))\n--- ours\n\(ctx(a))")
            }
        }
    }

    /// cmark-gfm's reference renderer through the library, as `cmark-gfm` would run with every
    /// extension and footnotes.
    func cmarkRenderHTML(_ text: String) -> String {
        cmark_gfm_core_extensions_ensure_registered()
        let options: Int32 = 1 << 13  // CMARK_OPT_FOOTNOTES
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
