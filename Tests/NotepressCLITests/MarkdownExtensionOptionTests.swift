import Foundation
import XCTest
import NotepressTestSupport

/// Issue 45 (MkDocs leftovers, item 5): `--markdown-extension` takes the names a MkDocs user
/// writes in `mkdocs.yml`, Python-Markdown's built-in ones included, and `pymdownx.snippets`
/// works on a file converted on its own.
final class MarkdownExtensionOptionTests: XCTestCase {
    /// Bug: `--markdown-extension tables` (and every other built-in name) was a usage error
    /// (exit 2), though the syntax is read anyway.
    func testBuiltInPythonMarkdownNamesAreAcceptedAndChangeNothing() throws {
        let dir = try makeTempDir(self)
        let input = try writeTestFile("| a | b |\n|---|---|\n| 1 | 2 |\n\nText[^1].\n\n[^1]: Note.\n", "doc.md", in: dir)
        let plain = try NotepressBinary.run(["--fragment", input.path])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        let names = ["tables", "fenced_code", "footnotes", "markdown.extensions.tables", "sane_lists", "pymdownx.superfences"]
        let r = try NotepressBinary.run(names.flatMap { ["--markdown-extension", $0] } + ["--fragment", input.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdoutText, plain.stdoutText)
        XCTAssertTrue(r.stdoutText.contains("<table>"), r.stdoutText)
        // `extra` is its parts: def_list among them.
        let defs = try writeTestFile("Term\n:   Definition\n", "defs.md", in: dir)
        let extra = try NotepressBinary.run(["--markdown-extension", "extra", "--fragment", defs.path])
        XCTAssertEqual(extra.status, 0, extra.stderr)
        XCTAssertTrue(extra.stdoutText.contains("<dl>\n<dt>Term</dt>\n<dd>Definition</dd>\n</dl>"), extra.stdoutText)
        // A name that is none of them is still refused, naming the accepted ones.
        let bad = try NotepressBinary.run(["--markdown-extension", "nope", input.path])
        XCTAssertEqual(bad.status, 2, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("tables"), bad.stderr)
    }

    /// Bug: `--markdown-extension pymdownx.snippets` on a single file left `--8<-- "file"` as
    /// text. Now the snippet is read from the working folder (PyMdown's base_path `.`), a
    /// missing one is a warning at file:line:column, and the line after stays on its line.
    func testSnippetsOnASingleFileAreReadFromTheWorkingFolder() throws {
        let dir = try makeTempDir(self)
        _ = try writeTestFile("Included *snippet*.\n", "parts/part.md", in: dir)
        _ = try writeTestFile("Before.\n\n--8<-- \"parts/part.md\"\n\n--8<-- \"parts/none.md\"\n\n[broken](#nowhere)\n", "docs/page.md", in: dir)
        let r = try NotepressBinary.run(["--markdown-extension", "pymdownx.snippets", "--fragment", "docs/page.md"],
                                        currentDirectory: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdoutText.contains("<p>Before.</p>\n<p>Included <em>snippet</em>.</p>\n"), r.stdoutText)
        XCTAssertFalse(r.stdoutText.contains("parts/part.md"), r.stdoutText)
        XCTAssertTrue(r.stderr.contains("docs/page.md:5:1: warning: --8<-- \"parts/none.md\": no such file"), r.stderr)
        // Without the extension: the line as text.
        let plain = try NotepressBinary.run(["--fragment", "docs/page.md"], currentDirectory: dir)
        XCTAssertTrue(plain.stdoutText.contains("--8&lt;-- &quot;parts/part.md&quot;"), plain.stdoutText)
    }
}
