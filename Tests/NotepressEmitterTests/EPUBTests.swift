import Foundation
import NotepressTestSupport
import XCTest

/// `-o x.epub` for one file, through the real binary: epubcheck's verdict (0 errors, 0 warnings),
/// the XHTML made from the HTML writer's body, images packaged, math, deterministic bytes.
final class EPUBTests: XCTestCase {
    /// A 1×1 PNG.
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
        0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53, 0xDE, 0x00, 0x00, 0x00, 0x0C, 0x49, 0x44, 0x41,
        0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0x00, 0x00, 0x03, 0x01, 0x01, 0x00, 0xC9, 0xFE, 0x92, 0xEF, 0x00, 0x00, 0x00,
        0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    static let note = """
    ---
    title: Field notes
    lang: de
    author: Ann Example
    ---
    # Start

    Text with *emphasis*, `code`, <br> a raw break, &copy; &nbsp; entities and $x^2 + \\alpha$.

    ```swift
    let x = 1 // one
    ```

    > [!WARNING]
    > Mind the gap.

    | a | b |
    |:--|--:|
    | 1 | 2 |

    A footnote[^n] and [a link](#start) and [a gone one](#nowhere) and [elsewhere](other.md).

    ![picture](pic.png) ![gone](missing.png) ![text](notes.txt)

    $$\\mathbf{unknown} \\begin{x}$$

    <div id="start">a raw div reusing an id</div><script>alert(1)</script>

    - [x] done

    ## 2 Second

    [^n]: The note.

    """

    /// One file → a one-chapter EPUB that epubcheck passes without errors or warnings; the
    /// missing image, the non-image and the link out of the book are warned about at their
    /// line and column; the image is packaged; raw HTML is sanitised; bytes are the same on
    /// every run with SOURCE_DATE_EPOCH.
    func testSingleFileBookPassesEPUBCheckWithWarningsAtPositions() throws {
        let dir = try makeTempDir(self)
        let input = try writeTestFile(Self.note, "notes.md", in: dir)
        try Data(Self.png).write(to: dir.appendingPathComponent("pic.png"))
        try "plain".write(to: dir.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("notes.epub").path
        let env = ["SOURCE_DATE_EPOCH": "1700000000"]
        let r = try NotepressBinary.runExpectingSuccess(["convert", input.path, "-o", out, "--verbose"], environment: env)
        XCTAssertTrue(r.stderr.contains("notes.md:21:68: warning: epub: link to other.md: not in the book"), r.stderr)
        XCTAssertTrue(r.stderr.contains("notes.md:23:21: warning: epub: image missing.png not found"), r.stderr)
        XCTAssertTrue(r.stderr.contains("notes.md:23:42: warning: epub: image notes.txt is not a PNG, JPEG, GIF or SVG image"), r.stderr)
        let first = try Data(contentsOf: URL(fileURLWithPath: out))
        try NotepressBinary.runExpectingSuccess(["convert", input.path, "-o", out, "-q"], environment: env)
        XCTAssertEqual(first, try Data(contentsOf: URL(fileURLWithPath: out)), "two runs with SOURCE_DATE_EPOCH differ")

        let check = try EPUBSupport.check(out)
        XCTAssertEqual(check.fatals + check.errors, 0, check.output)
        XCTAssertEqual(check.warnings, 0, check.output)
        XCTAssertEqual(try EPUBSupport.spine(out), ["ch001.xhtml"])
        let chapter = try EPUBSupport.entry(out, "EPUB/ch001.xhtml")
        XCTAssertTrue(chapter.contains("<br/>"), chapter)
        XCTAssertTrue(chapter.contains("© \u{A0}"), "entities decoded: \(chapter)")
        XCTAssertFalse(chapter.contains("<script"), chapter)
        XCTAssertTrue(chapter.contains("<img src=\"images/001-pic.png\" alt=\"picture\"/>"), chapter)
        XCTAssertTrue(chapter.contains("<msup><mi>x</mi><mn>2</mn></msup>"), "MathML: \(chapter)")
        XCTAssertTrue(chapter.contains("<code class=\"math math-display\">\\mathbf{unknown}"), "TeX as code: \(chapter)")
        XCTAssertTrue(chapter.contains("<a href=\"#start\">a link</a>"), chapter)
        XCTAssertTrue(chapter.contains("<span>a gone one</span>"), chapter)
        XCTAssertTrue(chapter.contains("class=\"tok-keyword\""), chapter)
        let opf = try EPUBSupport.entry(out, "EPUB/package.opf")
        XCTAssertTrue(opf.contains("<dc:language>de</dc:language>"), opf)
        XCTAssertTrue(opf.contains("<dc:creator>Ann Example</dc:creator>"), opf)
        XCTAssertTrue(opf.contains("<meta property=\"dcterms:modified\">2023-11-14T22:13:20Z</meta>"), opf)
        XCTAssertTrue(opf.contains("<dc:identifier id=\"uid\">urn:uuid:"), opf)
        let nav = try EPUBSupport.entry(out, "EPUB/nav.xhtml")
        XCTAssertTrue(nav.contains("<a href=\"ch001.xhtml#start\">Start</a><ol><li><a href=\"ch001.xhtml#2-second\">2 Second</a>"), nav)
        let css = try EPUBSupport.entry(out, "EPUB/style.css")
        XCTAssertTrue(css.contains(".markdown-alert-warning { border-left-color: #"), css)
        XCTAssertTrue(css.contains(".tok-keyword { color: #"), css)
        XCTAssertFalse(css.contains("var(--"), "no custom properties: \(css)")
    }

    /// A real document of the corpus (tables, HTML blocks, footnotes, task lists) passes epubcheck.
    func testCorpusDocumentPassesEPUBCheck() throws {
        let dir = try makeTempDir(self)
        let source = TestPaths.root.appendingPathComponent("../shared/corpus/markdown/public-apis__README.md").standardized.path
        let out = dir.appendingPathComponent("corpus.epub").path
        try NotepressBinary.runExpectingSuccess(["convert", source, "-o", out, "-q"])
        let check = try EPUBSupport.check(out)
        XCTAssertEqual(check.fatals + check.errors, 0, check.output)
        XCTAssertEqual(check.warnings, 0, check.output)
    }

    /// Thousands of footnotes, a huge table, block quotes, lists and raw HTML nested hundreds deep:
    /// the package stays bounded and valid.
    func testThousandsOfFootnotesAndHugeTableStayValid() throws {
        let dir = try makeTempDir(self)
        var text = "# Many\n\n"
        for i in 1...3000 { text += "Word[^f\(i)] " }
        text += "\n\n| " + (1...60).map { "h\($0)" }.joined(separator: " | ") + " |\n|" + String(repeating: "---|", count: 60) + "\n"
        for r in 1...200 { text += "| " + (1...60).map { "r\(r)c\($0)" }.joined(separator: " | ") + " |\n" }
        text += "\n" + String(repeating: "> ", count: 300) + "deep quote\n\n"
        text += (0..<150).map { String(repeating: "  ", count: $0) + "- item \($0)\n" }.joined() + "\n"
        text += String(repeating: "<div>", count: 400) + "raw" + String(repeating: "</div>", count: 400) + "\n\n"
        for i in 1...3000 { text += "[^f\(i)]: Note \(i).\n" }
        let input = try writeTestFile(text, "many.md", in: dir)
        let out = dir.appendingPathComponent("many.epub").path
        try NotepressBinary.runExpectingSuccess(["convert", input.path, "-o", out, "-q"])
        let size = (try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0
        XCTAssertLessThan(size, text.utf8.count, "the package is smaller than its input (deflated)")
        let check = try EPUBSupport.check(out)
        XCTAssertEqual(check.fatals + check.errors + check.warnings, 0, check.output)
    }
}
