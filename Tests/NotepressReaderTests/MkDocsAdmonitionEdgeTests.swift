import Foundation
import XCTest
import NotepressTestSupport

/// Issue 45, the MkDocs leftovers a new user's try-out found (items 1–4 of its follow-up), through
/// the real binary with `--markdown-extension admonition`: admonitions that touch the lines around
/// them (no blank line between) end where Python-Markdown ends them, an empty title gives no title
/// bar, and an HTML fragment never shows a marker the source did not hold.
final class MkDocsAdmonitionEdgeTests: XCTestCase {
    /// `markdown` converted with `admonition` (and `args`) to `format`; stdout, status 0 checked.
    func convert(_ markdown: String, to format: String = "html", _ args: [String] = [],
                 file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let dir = try makeTempDir(self)
        let input = try writeTestFile(markdown, "doc.md", in: dir)
        let r = try NotepressBinary.run(["--markdown-extension", "admonition", "-t", format] + args + [input.path],
                                        environment: ["SOURCE_DATE_EPOCH": "1700000000"], file: file, line: line)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return r.stdoutText
    }

    /// The part of a page between `<article` and `</article>`.
    static func article(_ html: String) -> String {
        guard let s = html.range(of: "<article"), let e = html.range(of: "</article>") else { return html }
        return String(html[s.lowerBound..<e.lowerBound])
    }

    /// Bug: `!!! note` right after another admonition's body (no blank line) was read into that
    /// admonition (`[!warning] B` left as text in it), and an Obsidian `> [!warning]` callout
    /// right after one was too (its marker shown literally).
    func testAdjacentAdmonitionsAndACalloutRightAfterOneAreBlocksOfTheirOwn() throws {
        let md = "!!! note \"A\"\n    body a\n!!! warning \"B\"\n    body b\n\n!!! note\n!!! tip\n\n!!! note\n    in\n> [!warning] W\n> quoted\n"
        let html = Self.article(try convert(md))
        XCTAssertFalse(html.contains("[!"), html)
        XCTAssertTrue(html.contains("<p class=\"markdown-alert-title\" dir=\"auto\">A</p>\n<p dir=\"auto\">body a</p>\n</div>"), html)
        XCTAssertTrue(html.contains("markdown-alert-warning\" dir=\"auto\">\n<p class=\"markdown-alert-title\" dir=\"auto\">B</p>\n<p dir=\"auto\">body b</p>\n</div>"), html)
        XCTAssertTrue(html.contains("markdown-alert-tip\""), html)
        XCTAssertTrue(html.contains("<p dir=\"auto\">in</p>\n</div>"), html)
        XCTAssertTrue(html.contains("<p class=\"markdown-alert-title\" dir=\"auto\">W</p>\n<p dir=\"auto\">quoted</p>"), html)
        XCTAssertEqual(html.components(separatedBy: "class=\"markdown-alert ").count - 1, 6, html)
        // The same blocks in another format.
        let json = try convert(md, to: "json")
        XCTAssertEqual(json.components(separatedBy: "\"type\": \"alert\"").count - 1, 6, json)
    }

    /// Bug: an unindented line right after an admonition's indented body was pulled into the
    /// admonition (libcmark-gfm's lazy continuation); Python-Markdown's admonition takes the
    /// indented lines only and reads the rest as a block of its own.
    func testAnUnindentedLineAfterTheBodyIsAParagraphAfterTheAdmonition() throws {
        let md = "!!! note\n    body\nlazy line\n\n!!! tip\n    one\n\n    two\nafter *two*\n\n!!! note\n    - item\nafter list\n"
        let html = try convert(md, to: "html", ["--fragment"])
        XCTAssertTrue(html.contains("<p>body</p>\n</div>\n<p>lazy line</p>\n"), html)
        XCTAssertTrue(html.contains("<p>two</p>\n</div>\n<p>after <em>two</em></p>\n"), html)
        XCTAssertTrue(html.contains("<li>item</li>\n</ul>\n</div>\n<p>after list</p>\n"), html)
    }

    /// Bug: `!!! tip ""` (an empty title) gave an empty title bar; MkDocs draws no title.
    func testAnEmptyTitleGivesNoTitleBar() throws {
        let md = "!!! tip \"\"\n    No title here.\n"
        let html = try convert(md, to: "html", ["--fragment"])
        XCTAssertEqual(html, "<div class=\"markdown-alert markdown-alert-tip\">\n<p>No title here.</p>\n</div>\n")
        XCTAssertFalse(html.contains("markdown-alert-title"), html)
        let man = try convert(md, to: "man")
        XCTAssertFalse(man.contains("\\fB\\fR"), man)
        XCTAssertTrue(man.contains(".RS 4\n.PP\nNo title here.\n"), man)
    }

    /// Bug: in an HTML fragment an admonition was written as a block quote starting with a
    /// `[!note]` marker no one wrote (the fragment gives GitHub alerts back as their quotes).
    func testAFragmentWritesAnAdmonitionAsAnAlertWithoutAMarker() throws {
        let html = try convert("!!! note \"Read me\"\n    Body.\n", to: "html", ["--fragment"])
        XCTAssertEqual(html, "<div class=\"markdown-alert markdown-alert-note\">\n<p class=\"markdown-alert-title\">Read me</p>\n<p>Body.</p>\n</div>\n")
        // A GitHub alert the source holds stays cmark-gfm's block quote in a fragment.
        let gfm = try convert("> [!NOTE]\n> Body.\n", to: "html", ["--fragment"])
        XCTAssertEqual(gfm, "<blockquote>\n<p>[!NOTE]\nBody.</p>\n</blockquote>\n")
    }
}
