import Foundation
import XCTest
import NotepressTestSupport

/// Issue #53, what the first round left: raw HTML ids as TEI anchors and RTF bookmarks, image
/// sizes, superscript in text formats, man's raw inline HTML, details' summary, nested links.
final class RawHTMLLeftoverTests: XCTestCase {
    /// Ids in raw HTML (an empty `<a id>` on its own, a `<span id>` inside a paragraph, an `<h2 id>`
    /// block) are link targets in TEI (`<anchor xml:id>`, valid against the shipped schema) and
    /// RTF (bookmarks): `#x` links land (before, TEI had no such xml:id and RTF no bookmark, so
    /// the links pointed nowhere).
    func testRawHTMLIdsAreTEIAnchorsAndRTFBookmarksThatInternalLinksLand() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile("""
            # Doc

            <a name="old-name"></a>

            ## Install

            Text with <span id="mid">a span</span> inside.

            <h2 id="raw-head">Raw heading</h2>

            See [old](#old-name), [mid](#mid) and [raw](#raw-head); <a id="install"></a>[install](#install).

            """, "ids.md", in: dir)
        let tei = try NotepressBinary.run(["convert", md.path, "-t", "tei", "-o", "-"])
        XCTAssertEqual(tei.status, 0, tei.stderr)
        let xml = tei.stdoutText
        for anchor in ["<head><anchor xml:id=\"old-name\"/>Install</head>", "<p><anchor xml:id=\"mid\"/>Text with a span inside.</p>",
                       "<head><anchor xml:id=\"raw-head\"/>Raw heading</head>",
                       "<ref target=\"#old-name\">old</ref>", "<ref target=\"#mid\">mid</ref>", "<ref target=\"#raw-head\">raw</ref>",
                       "<ref target=\"#install\">install</ref>"] {
            XCTAssertTrue(xml.contains(anchor), "\(anchor) missing: \(xml)")
        }
        // `install` is the heading's id already: no second xml:id.
        XCTAssertEqual(xml.components(separatedBy: "xml:id=\"install\"").count, 2, xml)
        XCTAssertFalse(xml.contains("<p/>"), xml)
        let file = dir.appendingPathComponent("ids.xml")
        try tei.stdout.write(to: file)
        let (status, out) = try runTool("xmllint", ["--noout", "--relaxng", TestPaths.root.appendingPathComponent("Templates/tei/notepress-tei.rng").path, file.path])
        XCTAssertEqual(status, 0, out)

        let rtf = try NotepressBinary.run(["convert", md.path, "-t", "rtf", "-o", "-"])
        XCTAssertEqual(rtf.status, 0, rtf.stderr)
        let text = rtf.stdoutText
        for name in ["id_old_name", "id_mid", "id_raw_head"] {
            XCTAssertTrue(text.contains("{\\*\\bkmkstart \(name)}{\\*\\bkmkend \(name)}"), "\(name): \(text)")
            XCTAssertTrue(text.contains("HYPERLINK \\\\l \"\(name)\""), "\(name): \(text)")
        }
        XCTAssertEqual(text.components(separatedBy: "bkmkstart id_install}").count, 2, text)
    }

    /// Converts `text` (written as `name`) to `format` on standard output; asserts exit 0.
    func convert(_ text: String, _ format: String, name: String = "x.md", _ extra: [String] = []) throws -> (out: String, err: String) {
        let dir = try makeTempDir(self)
        let md = try writeTestFile(text, name, in: dir)
        let r = try NotepressBinary.run(["convert", md.path, "-t", format, "-o", "-"] + extra)
        XCTAssertEqual(r.status, 0, r.stderr)
        return (r.stdoutText, r.stderr)
    }

    /// `2<sup>7</sup>` read "27" in ANSI and man (and man dropped the tag with a warning): raised
    /// and lowered text follows one rule (``ScriptText``): Unicode superscript or subscript
    /// characters when the run has them all, else `^`/`_` (in parentheses past one character).
    func testSuperscriptAndSubscriptAreDistinguishableInANSIAndMan() throws {
        let text = "Up to 2<sup>7</sup>, H<sub>2</sub>O, 2<sup>k+1</sup> and a<sub>max</sub>; x<sub>ab</sub>, e<sup>ix</sup>.\n"
        let ansi = try convert(text, "ansi", ["--color", "never"]).out
        XCTAssertTrue(ansi.contains("Up to 2⁷, H₂O, 2^(k+1) and a_(max)"), ansi)
        // Two characters without a Unicode form are bracketed too (audit: only runs of 3+ were).
        XCTAssertTrue(ansi.contains("x_(ab), e^(ix)."), ansi)
        let (man, err) = try convert(text, "man", ["--verbose"])
        XCTAssertTrue(man.contains("Up to 2\\[u2077], H\\[u2082]O, 2^(k+1) and a_(max); x_(ab), e^(ix)."), man)
        XCTAssertFalse(err.contains("raw HTML"), err)
        let dir = try makeTempDir(self)
        let page = dir.appendingPathComponent("x.1")
        try Data(man.utf8).write(to: page)
        let (status, shown) = try runTool("mandoc", ["-Tutf8", page.path])
        XCTAssertEqual(status, 0, shown)
        XCTAssertTrue(shown.contains("Up to 2⁷, H₂O"), shown)
    }

    /// man dropped every raw inline tag with a warning ("raw HTML '<b>' dropped"), so `<b>x</b>`
    /// lost its bold and `<kbd>` its code font: kept tags are now read as in the other formats,
    /// and ronn's `<placeholder>` words are still italic.
    func testManKeepsRawInlineHTMLTextAndFormatting() throws {
        let (man, err) = try convert("Press a <kbd>Ctrl</kbd> b, <b>bold</b>, <i>it</i>, <em>em</em> then <file>.\n", "man", ["--verbose"])
        XCTAssertTrue(man.contains("Press a \\fBCtrl\\fR b, \\fBbold\\fR, \\fIit\\fR, \\fIem\\fR then \\fIfile\\fR."), man)
        XCTAssertFalse(err.contains("raw HTML"), err)
    }

    /// `<details><summary>S</summary>x</details>` read "Sx" where raw HTML is inline (a GFM table
    /// cell, text before it): the summary is bold and a line of its own in every format.
    func testDetailsSummaryIsItsOwnLineNotRunIntoTheBody() throws {
        let text = "| a |\n|---|\n| <details><summary>Sum</summary>body</details> |\n\nIntro <details><summary>Sum2</summary>body2</details>\n"
        let ansi = try convert(text, "ansi", ["--color", "never"]).out
        XCTAssertTrue(ansi.contains("│ Sum  │\n│ body │"), ansi)
        XCTAssertTrue(ansi.contains("Intro\nSum2\nbody2"), ansi)
        XCTAssertFalse(ansi.contains("Sumbody"), ansi)
        let tei = try convert(text, "tei").out
        XCTAssertTrue(tei.contains("<hi rend=\"bold\">Sum</hi><lb/>body"), tei)
        XCTAssertTrue(tei.contains("Intro<lb/><hi rend=\"bold\">Sum2</hi><lb/>body2"), tei)
        let rtf = try convert(text, "rtf").out
        XCTAssertTrue(rtf.contains("Sum}\\line body"), rtf)
    }

    /// `[see <a href="u">x</a>](v)` nested a link in a link (invalid HTML: browsers split the
    /// outer one): the outer link keeps its text, the inner link is left out, with one warning
    /// at its file:line:column.
    func testRawLinkInsideMarkdownLinkTextDoesNotNest() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile("Intro.\n\n[see <a href=\"u\">x</a> more](v) and <a href=\"w\">ok</a>\n", "n.md", in: dir)
        let r = try NotepressBinary.run(["convert", md.path, "--fragment", "-o", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdoutText, "<p>Intro.</p>\n<p><a href=\"v\">see x more</a> and <a href=\"w\">ok</a></p>\n")
        XCTAssertEqual(r.stderr.components(separatedBy: "warning").count, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("n.md:3:6: warning: raw HTML link '<a href=\"u\">' inside link text"), r.stderr)
        let tei = try NotepressBinary.run(["convert", md.path, "-t", "tei", "-o", "-", "-q"])
        XCTAssertTrue(tei.stdoutText.contains("<ref target=\"v\">see x more</ref>"), tei.stdoutText)
        // With --unsafe (no sanitiser to drop a stray `</a>`) the inner end tag is left out too
        // (audit: only the start tag was).
        let unsafe = try NotepressBinary.run(["convert", md.path, "--fragment", "--unsafe", "-o", "-", "-q"])
        XCTAssertEqual(unsafe.stdoutText, "<p>Intro.</p>\n<p><a href=\"v\">see x more</a> and <a href=\"w\">ok</a></p>\n")
    }

    /// A raw `<a id>` after the last paragraph is a target at the end of that paragraph, not of
    /// the first block (audit).
    func testTrailingRawAnchorLandsInTheLastParagraph() throws {
        let tei = try convert("# Doc\n\nFirst para.\n\nLast para.\n\n<a id=\"the-end\"></a>\n", "tei").out
        XCTAssertTrue(tei.contains("<p>First para.</p>"), tei)
        XCTAssertTrue(tei.contains("<p><anchor xml:id=\"the-end\"/>Last para.</p>"), tei)
        XCTAssertFalse(tei.contains("<head><anchor"), tei)
    }

    /// A raw `<img width height>` lost its size outside HTML: TEI `graphic@width`/`@height` and
    /// the JSON dump's `width`/`height` now carry it, as for Obsidian's `![[x.png|400]]`.
    func testRawImageSizeReachesTEIAndJSON() throws {
        let text = "<img src=\"p.png\" alt=\"a\" width=\"200\" height=\"100\"> and <img src=\"q.png\" alt=\"b\" width=\"60px;\">\n"
        let tei = try convert(text, "tei").out
        XCTAssertTrue(tei.contains("<graphic url=\"p.png\" width=\"200px\" height=\"100px\"/>"), tei)
        XCTAssertTrue(tei.contains("<graphic url=\"q.png\" width=\"60px\"/>"), tei)
        let json = try convert(text, "json").out
        XCTAssertTrue(json.contains("\"width\": 200") && json.contains("\"height\": 100") && json.contains("\"width\": 60"), json)
    }
}
