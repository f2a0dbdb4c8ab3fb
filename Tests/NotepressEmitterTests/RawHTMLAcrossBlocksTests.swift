import Foundation
import XCTest
import NotepressTestSupport

/// Issue #53, raw HTML that spans Markdown: a `<details>` whose body is Markdown between blank
/// lines, and a Markdown link inside a raw `<a>`.
final class RawHTMLAcrossBlocksTests: XCTestCase {
    /// Runs `notepress ARGS`, which must succeed.
    func run(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws -> NotepressBinary.Result {
        let r = try NotepressBinary.run(args)
        XCTAssertEqual(r.status, 0, "notepress \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return r
    }

    /// `text`'s words in order in `output` (after `start`); fails naming the first one missing.
    func assertInOrder(_ words: [String], in output: String, _ format: String, file: StaticString = #filePath, line: UInt = #line) {
        var rest = output[...]
        for w in words {
            guard let r = rest.range(of: w) else {
                XCTFail("\(format): '\(w)' missing or out of order: \(output)", file: file, line: line)
                return
            }
            rest = rest[r.upperBound...]
        }
    }

    static let details = """
        # Doc

        <details>
        <summary>More</summary>

        Some **bold** text.

        - a list

        <details>
        <summary>Inner</summary>

        Inner *body*.

        </details>

        Outer tail.

        </details>

        - item one

          <details>
          <summary>In list</summary>

          List body.

          </details>

        > <details>
        > <summary>In quote</summary>
        >
        > Quote body.
        >
        > </details>

        After.

        """

    /// cmark-gfm's bytes for ``details`` (`cmark-gfm --unsafe`): what GitHub's sanitizer keeps.
    static let detailsHTML = """
        <h1>Doc</h1>
        <details>
        <summary>More</summary>
        <p>Some <strong>bold</strong> text.</p>
        <ul>
        <li>a list</li>
        </ul>
        <details>
        <summary>Inner</summary>
        <p>Inner <em>body</em>.</p>
        </details>
        <p>Outer tail.</p>
        </details>
        <ul>
        <li>
        <p>item one</p>
        <details>
        <summary>In list</summary>
        <p>List body.</p>
        </details>
        </li>
        </ul>
        <blockquote>
        <details>
        <summary>In quote</summary>
        <p>Quote body.</p>
        </details>
        </blockquote>
        <p>After.</p>

        """

    /// A `<details>` whose body is Markdown between blank lines closed at once in pages
    /// (`<details><summary>More</summary></details>`, the body after it and a blank line where
    /// `</details>` was): the HTML block's open `<details>` now holds the Markdown blocks up to
    /// the HTML block that closes it, nested, in a list item and in a block quote, as GitHub
    /// shows it; the page and the fragment have cmark-gfm's bytes; every other format keeps the
    /// summary, then the body, then what follows, and no literal `</details>`.
    func testDetailsWithMarkdownBodyKeepsItsBodyInside() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile(Self.details, "d.md", in: dir)
        let fragment = try run(["convert", md.path, "--fragment", "-o", "-"])
        XCTAssertEqual(fragment.stdoutText, Self.detailsHTML)
        XCTAssertEqual(try run(["convert", md.path, "--fragment", "--unsafe", "-o", "-"]).stdoutText, Self.detailsHTML)
        // A folder's page (the other HTML writer path: the whole document at once).
        let folder = try makeSiteFolder(self, ["d.md": Self.details])
        _ = try run(["convert", folder.input, "-o", folder.output, "-q"])
        let page = try String(contentsOfFile: folder.output + "/d.html", encoding: .utf8)
        assertInOrder(["<details>\n<summary>More</summary>\n<p dir=\"auto\">Some <strong>bold</strong> text.</p>\n<ul>",
                       "<summary>Inner</summary>\n<p dir=\"auto\">Inner <em>body</em>.</p>\n</details>\n<p dir=\"auto\">Outer tail.</p>\n</details>",
                       "<summary>In list</summary>\n<p dir=\"auto\">List body.</p>\n</details>\n</li>",
                       "<summary>In quote</summary>\n<p dir=\"auto\">Quote body.</p>\n</details>\n</blockquote>"], in: page, "page")
        XCTAssertEqual(page.components(separatedBy: "<details>").count, page.components(separatedBy: "</details>").count, page)

        let words = ["More", "Some", "bold", "a list", "Inner", "Inner", "body", "Outer tail", "item one", "In list", "List body",
                     "In quote", "Quote body", "After"]
        for format in ["rtf", "tei", "man", "ansi", "json"] {
            let out = try run(["convert", md.path, "-t", format, "-o", "-", "-q"]).stdoutText
            assertInOrder(words, in: out, format)
            XCTAssertFalse(out.contains("details>"), "\(format): \(out)")
        }
    }

    /// A Markdown link inside a raw `<a>` nested a link in a link (`<a href="x">see <a href="z">y</a>
    /// more</a>` in pages, a link field in a link field in RTF): as a browser reads cmark-gfm's
    /// output (and so GitHub's page), the raw link ends where the Markdown link starts, in every
    /// format, with a warning at the link's file:line:column; `<a href="u">u</a>` (a GFM autolink
    /// inside) changes nothing and is not warned about; `--unsafe` keeps cmark-gfm's bytes.
    func testMarkdownLinkInsideRawLinkDoesNotNest() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile("Intro <a href=\"x\">see [y](z) more</a> end.\n\n<a href=\"https://x.com\">https://x.com</a>\n", "n.md", in: dir)
        let r = try run(["convert", md.path, "--fragment", "-o", "-"])
        XCTAssertEqual(r.stdoutText, "<p>Intro <a href=\"x\">see </a><a href=\"z\">y</a> more end.</p>\n"
                       + "<p><a href=\"https://x.com\"></a><a href=\"https://x.com\">https://x.com</a></p>\n")
        XCTAssertEqual(r.stderr.components(separatedBy: "warning").count, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("n.md:1:23: warning: link inside raw HTML link '<a href=\"x\">'"), r.stderr)
        let unsafe = try run(["convert", md.path, "--fragment", "--unsafe", "-o", "-", "-q"])
        XCTAssertEqual(unsafe.stdoutText, "<p>Intro <a href=\"x\">see <a href=\"z\">y</a> more</a> end.</p>\n"
                       + "<p><a href=\"https://x.com\"><a href=\"https://x.com\">https://x.com</a></a></p>\n")
        let tei = try run(["convert", md.path, "-t", "tei", "-o", "-", "-q"]).stdoutText
        XCTAssertTrue(tei.contains("<p>Intro <ref target=\"x\">see </ref><ref target=\"z\">y</ref> more end.</p>"), tei)
        XCTAssertTrue(tei.contains("<p><ref target=\"https://x.com\">https://x.com</ref></p>"), tei)
        let rtf = try run(["convert", md.path, "-t", "rtf", "-o", "-", "-q"]).stdoutText
        XCTAssertTrue(rtf.contains("Intro {\\field{\\*\\fldinst{HYPERLINK \"x\"}}{\\fldrslt{\\cf3\\ul see }}}"
                                   + "{\\field{\\*\\fldinst{HYPERLINK \"z\"}}{\\fldrslt{\\cf3\\ul y}}} more end."), rtf)
        let json = try run(["convert", md.path, "-t", "json", "-o", "-", "-q"]).stdoutText
        XCTAssertEqual(json.components(separatedBy: "\"kind\": \"link\"").count, 4, json)
        let ansi = try run(["convert", md.path, "-t", "ansi", "--color", "never", "-o", "-", "-q"]).stdoutText
        XCTAssertTrue(ansi.contains("Intro see (x)y (z) more end."), ansi)
    }

    /// A 4 × 2 pixel PNG.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAAEUlEQVR4nGP4z8AARwxI7P8AZ7IH+SY4448AAAAASUVORK5CYII=")!
    /// The segments of a 3 × 5 pixel JPEG (JFIF, a baseline start of frame, a start of scan:
    /// without one it is a damaged file, not embedded).
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
                            0x00, 0x00, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x05, 0x00, 0x03, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11,
                            0x01, 0x03, 0x11, 0x01, 0xFF, 0xDA, 0x00, 0x0C, 0x03, 0x01, 0x00, 0x02, 0x11, 0x03, 0x11, 0x00, 0x3F,
                            0x00, 0x00, 0xFF, 0xD9])

    /// RTF embedded no picture: a raw `<img width height>` (or a Markdown image) was a link to
    /// its file with its `alt` as text, so its size was lost. A local PNG or JPEG is now a
    /// `\pict` of its bytes at its given size (`\picwgoal`/`\pichgoal`, 15 twips a CSS pixel;
    /// one side given: the other in proportion; none: its pixel size); LibreOffice reads it as
    /// a picture. A missing file, a remote or `..` destination stays the link it was.
    func testRTFEmbedsLocalPicturesAtTheirGivenSize() throws {
        let dir = try makeTempDir(self)
        try Self.png.write(to: dir.appendingPathComponent("pic.png"))
        try Self.jpeg.write(to: dir.appendingPathComponent("pic.jpg"))
        let md = try writeTestFile("""
            Logo <img src="pic.png" width="40" height="30" alt="A logo"> and ![small](pic.png) and \
            <img src="pic.jpg" width="60" alt="J">, [![badge](pic.png)](https://example.com/).

            Missing ![gone](nothing.png), remote ![far](https://example.com/pic.png), up ![up](../pic.png).

            """, "p.md", in: dir)
        let rtf = try run(["convert", md.path, "-t", "rtf", "-o", "-", "-q"]).stdoutText
        // Hexadecimal, 64 bytes to a line.
        let digits = Self.png.map { String(format: "%02x", $0) }.joined()
        let hex = digits.prefix(128) + "\n" + digits.dropFirst(128)
        XCTAssertTrue(rtf.contains("Logo {\\pict\\pngblip\\picw4\\pich2\\picwgoal600\\pichgoal450 \n" + hex + "} and "), rtf)
        XCTAssertTrue(rtf.contains(" and {\\pict\\pngblip\\picw4\\pich2\\picwgoal60\\pichgoal30 \n" + hex + "} and"), rtf)
        XCTAssertTrue(rtf.contains("{\\pict\\jpegblip\\picw3\\pich5\\picwgoal900\\pichgoal1500 \n"), rtf)
        XCTAssertTrue(rtf.contains("{\\field{\\*\\fldinst{HYPERLINK \"https://example.com/\"}}{\\fldrslt{\\cf3\\ul{\\pict\\pngblip"), rtf)
        XCTAssertEqual(rtf.components(separatedBy: "\\pict").count, 5, rtf)
        for kept in ["HYPERLINK \"nothing.png\"", "\\ul gone}", "HYPERLINK \"https://example.com/pic.png\"", "HYPERLINK \"../pic.png\""] {
            XCTAssertTrue(rtf.contains(kept), "\(kept): \(rtf)")
        }
        XCTAssertFalse(rtf.contains("\\ul A logo"), rtf)
        let file = dir.appendingPathComponent("p.rtf")
        try Data(rtf.utf8).write(to: file)
        let out = dir.appendingPathComponent("lo")
        try LibreOffice.soffice("odt", [file], outDir: out)
        let (status, listing) = try runTool("unzip", ["-l", out.appendingPathComponent("p.odt").path])
        XCTAssertEqual(status, 0, listing)
        XCTAssertGreaterThanOrEqual(listing.components(separatedBy: "Pictures/").count - 1, 2, listing)
    }
}
