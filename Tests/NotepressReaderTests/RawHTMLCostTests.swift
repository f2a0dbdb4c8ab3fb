import Foundation
import XCTest
import NotepressTestSupport

/// Issue #53, cost: Markdown without raw HTML pays nothing for it. gumbo is loaded with dlopen on
/// the first raw HTML (never mapped by a run without any), a missing gumbo is a warning and raw
/// HTML left out (never a crash), and the reader's note that a document has no raw HTML skips the
/// scan for it without losing raw HTML that is there.
final class RawHTMLCostTests: XCTestCase {
    static let plain = "# Plain\n\nJust *Markdown*, a [link](https://example.org) and `code`.\n"
    static let html = "# With HTML\n\nTwo<sup>7</sup> words.\n\n<div class=\"box\">secret block</div>\n\nAfter.\n"

    /// The dynamic loader's log (LD_DEBUG=files) names libgumbo.so.1 for a run with raw HTML and
    /// never for a run without: the library is not linked, only dlopen'ed on first use.
    func testAMarkdownRunWithoutRawHTMLNeverMapsGumbo() throws {
        let dir = try makeTempDir(self)
        let plain = try writeTestFile(Self.plain, "plain.md", in: dir)
        let html = try writeTestFile(Self.html, "html.md", in: dir)
        let a = try NotepressBinary.run(["convert", plain.path, "-o", dir.appendingPathComponent("plain.html").path],
                                        environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(a.status, 0, a.stderr)
        XCTAssertTrue(a.stderr.contains("file=libcmark-gfm"), "the loader's log is there: \(a.stderr.prefix(2000))")
        XCTAssertFalse(a.stderr.contains("libgumbo"), "a run without raw HTML maps gumbo: \(a.stderr)")
        let b = try NotepressBinary.run(["convert", html.path, "-o", dir.appendingPathComponent("html.html").path],
                                        environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(b.status, 0, b.stderr)
        XCTAssertTrue(b.stderr.contains("file=libgumbo.so.1 [0];  dynamically loaded by"), b.stderr)
        let page = try String(contentsOf: dir.appendingPathComponent("html.html"), encoding: .utf8)
        XCTAssertTrue(page.contains("Two<sup>7</sup> words.") && page.contains("secret block"), page)
    }

    /// NOTEPRESS_LIBGUMBO naming a missing file (as on a system without libgumbo1): a run without
    /// raw HTML succeeds silently; a run with raw HTML succeeds with one warning, its raw HTML
    /// left out as cmark-gfm's safe mode leaves it (tags and HTML blocks omitted, the text kept).
    func testWithoutGumboRawHTMLIsLeftOutWithOneWarning() throws {
        let dir = try makeTempDir(self)
        let missing = dir.path + "/none/libgumbo.so.1"
        let plain = try writeTestFile(Self.plain, "plain.md", in: dir)
        let html = try writeTestFile(Self.html + "\n<p>second block</p>\n", "html.md", in: dir)
        let a = try NotepressBinary.run(["convert", plain.path, "-o", dir.appendingPathComponent("plain.html").path],
                                        environment: ["NOTEPRESS_LIBGUMBO": missing])
        XCTAssertEqual(a.status, 0, a.stderr)
        XCTAssertEqual(a.stderr, "", "a run without raw HTML never tries to load gumbo")
        for format in ["html", "json", "ansi"] {
            let out = dir.appendingPathComponent("html.\(format)")
            let b = try NotepressBinary.run(["convert", html.path, "-t", format, "-o", out.path],
                                            environment: ["NOTEPRESS_LIBGUMBO": missing])
            XCTAssertEqual(b.status, 0, b.stderr)
            let warning = "notepress: warning: gumbo (libgumbo1), the HTML parser of raw HTML in Markdown, cannot be loaded: \(missing)"
            XCTAssertEqual(b.stderr.components(separatedBy: warning).count - 1, 1, "one warning (\(format)): \(b.stderr)")
            XCTAssertTrue(b.stderr.contains("raw HTML is left out"), b.stderr)
            let text = try String(contentsOf: out, encoding: .utf8)
            XCTAssertTrue(text.contains("Two") && text.contains("words.") && text.contains("After."), "\(format): \(text)")
            XCTAssertFalse(text.contains("secret block") || text.contains("second block"), "\(format) kept an HTML block: \(text)")
            XCTAssertFalse(text.contains("<sup>7") || text.contains(#""kind": "superscript""#) || text.contains("class=\"box\""), "\(format): \(text)")
        }
    }

    /// Raw HTML only deep inside containers (a table cell in a list item in a quote) is still read
    /// for the formats that read it: the reader's "no raw HTML" note is only set when it saw none.
    func testRawHTMLDeepInContainersIsStillReadForJSONAndTerminalText() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile("> - item\n>\n>   | a | b |\n>   |---|---|\n>   | x<sup>9</sup> | y |\n", "deep.md", in: dir)
        let json = try NotepressBinary.run(["convert", md.path, "-t", "json", "-o", "-"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertTrue(json.stdoutText.contains(#""kind": "superscript""#), json.stdoutText)
        XCTAssertFalse(json.stdoutText.contains("<sup>"), json.stdoutText)
    }
}
