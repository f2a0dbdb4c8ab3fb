import Foundation
import NotepressANSI
import NotepressAST
import NotepressMan
import XCTest
import NotepressTestSupport
@testable import Notepress

/// Issue 13 item 6: bidi controls never reach a terminal or a man page raw; only a YAML mapping
/// is front matter.
final class BidiAndFrontMatterTests: XCTestCase {
    let table = "| name | size |\n|---|---|\n| photo\u{202E}gnp.exe | 1 |\n"

    func convert(_ text: String, _ args: [String]) throws -> NotepressBinary.Result {
        try NotepressBinary.run(["convert", "-q"] + args + ["-"], stdin: Data(text.utf8))
    }

    func testEveryEmbeddingOverrideAndIsolateIsShown() {
        let all = (0x202A...0x202E).map { Unicode.Scalar($0)! } + (0x2066...0x2069).map { Unicode.Scalar($0)! }
        let text = "a" + String(String.UnicodeScalarView(all)) + "b\u{200F}c"
        let shown = "a<U+202A><U+202B><U+202C><U+202D><U+202E><U+2066><U+2067><U+2068><U+2069>b\u{200F}c"
        XCTAssertEqual(TerminalText.visible(text), shown, "the marks (RLM U+200F) set no state and stay")
        XCTAssertEqual(RoffEscaper.escape(text, context: .text, minus: false),
                       "a<U+202A><U+202B><U+202C><U+202D><U+202E><U+2066><U+2067><U+2068><U+2069>b\\[u200F]c")
        XCTAssertEqual(TerminalText.visible("\u{202E}\tx", tabs: .expand(4)), "<U+202E>    x", "eight columns, then the tab stop")
    }

    /// Regression (issue 13): a table cell sent an unclosed U+202E to the terminal before our
    /// own border, which the terminal then drew reversed.
    func testANSITableCellWithRightToLeftOverride() throws {
        let r = try convert(table, ["-f", "gfm", "-t", "ansi", "--color", "never", "--width", "40"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stdoutText.unicodeScalars.contains { BidiControl.contains($0) })
        XCTAssertTrue(r.stdoutText.hasSuffix("""
            ┌──────────────────────┬──────┐
            │ name                 │ size │
            ├──────────────────────┼──────┤
            │ photo<U+202E>gnp.exe │ 1    │
            └──────────────────────┴──────┘

            """), r.stdoutText)
    }

    /// Regression (issue 13): roff got `\[u202E]`, which groff writes to the pager as U+202E.
    func testManTableCellWithRightToLeftOverride() throws {
        let r = try convert("# T(1)\n\n" + table, ["-f", "gfm", "-t", "man"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stdoutText.contains("u202E"), r.stdoutText)
        XCTAssertTrue(r.stdoutText.hasSuffix(".TS\nallbox tab(@);\nlb lb\nl l.\nname@size\nphoto<U+202E>gnp.exe@1\n.TE\n.sp\n"), r.stdoutText)
    }

    /// Regression (issue 13): `---\n---\nText` became `<p>Text</p>` (an empty front matter block);
    /// cmark-gfm gives two thematic breaks (CommonMark spec example 68).
    func testEmptyLeadingBlockStaysMarkdown() throws {
        for format in ["commonmark", "gfm"] {
            let r = try convert("---\n---\nText\n", ["-f", format, "-t", "html", "--fragment"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdoutText, "<hr />\n<hr />\n<p>Text</p>\n", format)
        }
    }

    /// A scalar, a sequence, a null or a comment-only block is not front matter in Markdown; a
    /// mapping is.
    func testOnlyAMappingIsFrontMatterInMarkdown() throws {
        let cases: [(String, String)] = [
            ("---\njust words\n---\nText\n", "<hr />\n<h2>just words</h2>\n<p>Text</p>\n"),
            ("---\n- a\n- b\n---\nText\n", "<hr />\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n<hr />\n<p>Text</p>\n"),
            ("---\n~\n---\nText\n", "<hr />\n<h2>~</h2>\n<p>Text</p>\n"),
            ("---\n# c\n---\nText\n", "<hr />\n<h1>c</h1>\n<hr />\n<p>Text</p>\n"),
            ("---\ntitle: T\n---\nText\n", "<p>Text</p>\n"),
        ]
        for (input, html) in cases {
            let r = try convert(input, ["-f", "gfm", "-t", "html", "--fragment"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdoutText, html, input)
        }
    }

    /// Notes (documented in README): an empty block is empty front matter and is removed; a
    /// scalar or sequence is an error with its position, as before.
    func testNotesKeepTheirFrontMatterRules() throws {
        let empty = try DocumentLoader(format: .note).load(data: Data("---\n---\nText\n".utf8), path: "n.note", modified: nil)
        XCTAssertEqual(empty.document.blocks.count, 1)
        XCTAssertEqual(empty.document.blocks.first?.position, SourcePosition(line: 3, column: 1))
        XCTAssertThrowsError(try DocumentLoader(format: .note).load(data: Data("---\n- a\n---\nx\n".utf8), path: "l.note", modified: nil)) {
            XCTAssertEqual("\($0)", "l.note:2:1: error: front matter must be a mapping of fields, found a sequence")
        }
    }
}
