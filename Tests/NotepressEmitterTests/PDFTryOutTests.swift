import Foundation
import NotepressTestSupport
import XCTest

/// The PDF writer's try-out findings (issue 49), each through the real binary, read back with
/// poppler's and qpdf's tools.
final class PDFTryOutTests: XCTestCase {
    /// The right edge of the text on A4 with 2 cm margins.
    static let rightMargin = 595.28 - 56.7

    /// Try-out: a 300-character URL and a 300-letter word ran past the right margin, clipped at
    /// the page's edge. They are broken inside the word, every piece within the margin, every
    /// letter kept (the URL without a hyphen at its breaks: it would read as part of it).
    func testLongUnbreakableWordsAreBrokenWithinTheMargin() throws {
        let url = "https://example.com/" + String(repeating: "a", count: 280)
        let word = String(repeating: "Supercalifragilistic", count: 15)
        let (pdf, _) = try PDFSupport.convert(self, "A long URL: <\(url)> and then text.\n\nA long word: \(word) end.\n")
        let words = try PDFSupport.words(pdf.path)
        XCTAssertGreaterThan(words.count, 10, "the long words are on several lines")
        for w in words { XCTAssertLessThanOrEqual(w.xMax, Self.rightMargin + 1, "\(w.text) runs into the margin") }
        let text = words.map(\.text).joined()
        XCTAssertEqual(text.filter { $0 == "a" }.count, 280 + 2 + 15 * 2, "letters of the URL lost")
        XCTAssertTrue(text.contains("Supercalifragilistic"), text)
        let urlPieces = words.filter { $0.text.allSatisfy { $0 == "a" } && $0.text.count > 20 }
        XCTAssertGreaterThan(urlPieces.count, 3, "the URL is not broken into lines: \(words.map(\.text))")
        XCTAssertFalse(urlPieces.contains { $0.text.hasSuffix("-") }, "a hyphen at a URL's break")
        XCTAssertTrue(try PDFSupport.uncompressed(pdf.path).contains("/URI (\(url))"), "the link lost its target")
    }

    /// Try-out: a list in a block quote drew the quote's rule at the list's indent, through the
    /// bullets. Every line of the quote has its rule at one place, left of the text and markers;
    /// a quote in a quote has both rules.
    func testBlockQuoteRuleStaysLeftOfAListInsideIt() throws {
        let md = "> A quote with a list:\n>\n> - item one\n> - item two\n>   - nested item\n>\n> And a paragraph after.\n"
        let (pdf, _) = try PDFSupport.convert(self, md)
        let rules = try PDFSupport.rectangles(pdf.path, width: 3)
        XCTAssertGreaterThanOrEqual(rules.count, 5, "a rule beside each line")
        XCTAssertEqual(Set(rules.map { ($0.x * 10).rounded() }).count, 1, "the rule moves: \(rules.map(\.x))")
        let words = try PDFSupport.words(pdf.path)
        let leftmost = try XCTUnwrap(words.map(\.xMin).min())
        XCTAssertLessThan(rules[0].x + 3, leftmost, "the rule is not left of the text")

        let (nested, _) = try PDFSupport.convert(self, "> > Inner.\n>\n> Outer.\n")
        let beside = Dictionary(grouping: try PDFSupport.rectangles(nested.path, width: 3)) { ($0.y * 10).rounded() }
        XCTAssertTrue(beside.values.contains { Set($0.map { ($0.x * 10).rounded() }).count == 2 }, "a quote in a quote: two rules beside its lines")
    }

    /// Try-out: control characters (U+0001…U+001F) were drawn as boxes. They are left out, as
    /// the RTF and XML writers leave them out; the text around them is all there.
    func testControlCharactersAreLeftOut() throws {
        let (pdf, _) = try PDFSupport.convert(self, "Control chars: a\u{1}b\u{2}c\u{1F}d\u{7F}e\u{85}f end.\n\n# Head\u{1}ing\n")
        let text = try runTool("pdftotext", [pdf.path, "-"]).output
        XCTAssertTrue(text.contains("Control chars: abcdef end."), text)
        XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\u{0C}" }, text.debugDescription)
        XCTAssertTrue(try PDFSupport.uncompressed(pdf.path).contains("/Title (Heading)"), "the outline entry keeps its control character")
    }

    /// Try-out: `--toc` was ignored. The contents come after the title, each entry a link to
    /// its heading with the page number the heading is on, after dot leaders.
    func testTableOfContentsListsHeadingsWithTheirPageNumbersAndLinks() throws {
        var md = "# Intro\n\nFirst words.\n\n"
        for i in 1...6 {
            md += "## Part \(i)\n\n" + String(repeating: "Text of part \(i) fills the page. ", count: 60) + "\n\n"
        }
        let (pdf, _) = try PDFSupport.convert(self, md, ["--toc"])
        let pages = try PDFSupport.pages(pdf.path, layout: true)
        XCTAssertGreaterThan(pages.count, 3)
        let contents = pages[0].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(contents.contains("Contents"), pages[0])
        let dests = try PDFSupport.destinations(pdf.path)
        var numbers: [Int] = []
        for i in 1...6 {
            let line = try XCTUnwrap(contents.first { $0.hasPrefix("Part \(i) ") }, "no entry of part \(i): \(contents)")
            let number = try XCTUnwrap(Int(line.split(separator: " ").last ?? ""), line)
            numbers.append(number)
            XCTAssertEqual(dests["part-\(i)"], number, "part \(i)'s heading is on page \(dests["part-\(i)"] ?? 0), the contents say \(number)")
            XCTAssertTrue(pages[number - 1].contains("Text of part \(i) fills"), "page \(number) has no part \(i)")
        }
        XCTAssertGreaterThan(Set(numbers).count, 3, "the parts are on different pages: \(numbers)")
        let text = try PDFSupport.uncompressed(pdf.path)
        XCTAssertGreaterThanOrEqual(text.components(separatedBy: "/Dest (part-").count - 1, 6 * 2, "entries and numbers link to the headings")
        XCTAssertTrue(try runTool("pdfinfo", ["-struct", pdf.path]).output.contains("TOCI"), "no TOCI tags")

        let (plain, _) = try PDFSupport.convert(self, md)
        XCTAssertFalse(try runTool("pdftotext", [plain.path, "-"]).output.contains("Contents"), "contents without --toc")
    }

    /// Try-out: the warning about a paragraph of too many styled runs named no place.
    func testOverlongParagraphWarningGivesItsPosition() throws {
        let runs = (0..<1_100).map { "*e\($0)* p" }.joined(separator: " ")
        let (_, stderr) = try PDFSupport.convert(self, "Intro.\n\n\(runs)\n", ["--verbose"])
        XCTAssertTrue(stderr.contains("doc.md:3:1: warning: PDF: a paragraph of"), stderr)
    }

    /// Try-out: a missing image was said to be "not a PNG or JPEG". It is said to be missing.
    func testMissingImageIsSaidToBeMissing() throws {
        let (_, stderr) = try PDFSupport.convert(self, "Text.\n\n![missing](nothere.png)\n", ["--verbose"])
        XCTAssertTrue(stderr.contains("doc.md:3:1: warning: PDF: image nothere.png not found; its description is written instead"), stderr)
        XCTAssertFalse(stderr.contains("PNG or JPEG"), stderr)
    }

    /// Try-out: the title, author and date of the front matter were not written. They are the
    /// title block, centred, before the body's first heading (as pandoc's LaTeX writes them).
    func testFrontMatterMakesACentredTitleBlock() throws {
        let md = "---\ntitle: The Title Here\nauthor: Ada Lovelace\ndate: 1 May 2024\n---\n# First heading\n\nBody.\n"
        let (pdf, _) = try PDFSupport.convert(self, md)
        let text = try runTool("pdftotext", [pdf.path, "-"]).output
        let order = ["The Title Here", "Ada Lovelace", "1 May 2024", "First heading", "Body."].map { text.range(of: $0)?.lowerBound }
        XCTAssertFalse(order.contains(nil), text)
        XCTAssertEqual(order.compactMap { $0 }, order.compactMap { $0 }.sorted(), text)
        let words = try PDFSupport.words(pdf.path)
        for (first, last) in [("The", "Here"), ("Ada", "Lovelace")] {
            let a = try XCTUnwrap(words.first { $0.text == first }), b = try XCTUnwrap(words.first { $0.text == last })
            XCTAssertEqual((a.xMin + b.xMax) / 2, 595.28 / 2, accuracy: 2, "\(first) … \(last) is not centred")
        }
        let title = try XCTUnwrap(words.first { $0.text == "Title" }), heading = try XCTUnwrap(words.first { $0.text == "First" })
        XCTAssertGreaterThan(title.yMax - title.yMin, heading.yMax - heading.yMin, "the title is smaller than a heading")
        // The first heading is the title: not written twice.
        let (same, _) = try PDFSupport.convert(self, "# Only Title\n\nBody.\n")
        XCTAssertEqual(try runTool("pdftotext", [same.path, "-"]).output.components(separatedBy: "Only Title").count - 1, 1)
    }

    /// A PNG of `width` × `height` pixels at `path` (written by Python's zlib).
    static func writePNG(_ path: String, width: Int, height: Int) throws {
        let script = """
            import struct, zlib, sys
            w, h = int(sys.argv[2]), int(sys.argv[3])
            raw = b"".join(b"\\x00" + b"\\x20\\x60\\xc0" * w for _ in range(h))
            def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
            open(sys.argv[1], "wb").write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
            """
        XCTAssertEqual(try runTool("python3", ["-c", script, path, "\(width)", "\(height)"]).status, 0)
    }

    /// Issue 49, item 3 (exclusion paths): an image given a width under half the column at the
    /// start of a paragraph floats at the left, the paragraph's first lines beside it, the rest
    /// at the full width below it; a paragraph shorter than the image ends below it. An image
    /// as wide as half the column does not float.
    func testNarrowImageAtAParagraphsStartFloatsWithTheLinesAroundIt() throws {
        let dir = try makeTempDir(self)
        try Self.writePNG(dir.appendingPathComponent("portrait.png").path, width: 200, height: 260)
        let words = (0..<80).map { "flow\($0)" }.joined(separator: " ")
        let md = "![A portrait|200](portrait.png) \(words)\n\n![Tall|120](portrait.png)\nShort beside.\n\nBelowtall paragraph.\n\n"
            + "![Wide|400](portrait.png) Wide stays in the text.\n"
        let input = try writeTestFile(md, "float.md", in: dir)
        let out = dir.appendingPathComponent("float.pdf").path
        let r = try NotepressBinary.runExpectingSuccess(["convert", input.path, "-o", out, "--verbose"])
        XCTAssertTrue(r.stderr.contains("float.md:8:1: warning: PDF: image portrait.png within text"), r.stderr)
        XCTAssertEqual(r.stderr.components(separatedBy: "warning:").count - 1, 1, r.stderr)
        try PDFSupport.assertClean(out)
        let placed = try PDFSupport.words(out)
        let flows = placed.filter { $0.text.hasPrefix("flow") }
        XCTAssertEqual(flows.map(\.text), (0..<80).map { "flow\($0)" }, "words lost or out of order")
        let left = 56.7, image = 200 * 0.75, tall = 260 * 0.75
        let top = try XCTUnwrap(flows.first).yMin
        let beside = flows.filter { $0.yMax < top + tall }, below = flows.filter { $0.yMin > top + tall }
        XCTAssertGreaterThan(beside.count, 8, "lines beside the image")
        XCTAssertGreaterThan(below.count, 8, "lines below the image")
        XCTAssertGreaterThan(beside.map(\.xMin).min() ?? 0, left + image, "a line beside the image runs into it")
        XCTAssertEqual(below.map(\.xMin).min() ?? 0, left, accuracy: 1, "the lines below the image are not at the full width")
        XCTAssertLessThanOrEqual(flows.map(\.xMax).max() ?? .infinity, Self.rightMargin + 1)
        // The short paragraph beside the tall image: the next one starts below the image.
        let short = try XCTUnwrap(placed.first { $0.text == "Short" }), next = try XCTUnwrap(placed.first { $0.text == "Belowtall" })
        XCTAssertGreaterThan(short.xMin, left + 120 * 0.75)
        XCTAssertGreaterThan(next.yMin, short.yMin + tall * 120 / 200, "the next paragraph overlaps the image")
        XCTAssertEqual(next.xMin, left, accuracy: 1)
        let images = try runTool("pdfimages", ["-list", out]).output.split(separator: "\n").dropFirst(2)
        XCTAssertEqual(images.count, 2, "the two floated images")
        let tags = try runTool("pdfinfo", ["-struct", out]).output
        XCTAssertTrue(tags.contains("Figure\n  P (block)"), tags)
    }
}
