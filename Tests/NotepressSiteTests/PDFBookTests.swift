import Foundation
import NotepressTestSupport
import XCTest

/// `notepress convert book/ -o book.pdf` (issue 49, item 5): a folder becomes one PDF book
/// (NotepressSite's PDFBook, on the chapters and links of SiteBook that the EPUB book shares),
/// through the real binary, read back with poppler's and qpdf's tools.
final class PDFBookTests: XCTestCase {
    static let files = [
        "SUMMARY.md": EPUBBookTests.summary,
        "zeta.md": "---\nauthor: Ada Lovelace\n---\n# Zeta\n\nOn to [the details](part/beta.md#details) and [[alpha]] and "
            + "[nowhere](missing.md).\n\n![shot](img/shot.png)\n\nA note[^1] here.\n\n[^1]: Zeta's footnote.\n",
        "part/alpha.md": "---\ntitle: Alpha from front matter\n---\nAlpha's body text. Back to [zeta](../zeta.md).\n",
        "part/beta.md": "# Beta\n\n" + (0..<40).map { String(repeating: "Paragraph \($0) of beta fills the page. ", count: 4) }
            .joined(separator: "\n\n") + "\n\n## Details\n\nThe details, with a note[^1].\n\n[^1]: Beta's footnote.\n",
    ]

    /// The book: a title page, a contents page whose page numbers are the chapters' pages, the
    /// chapters in SUMMARY.md's order each from a new page (a front-matter title written as the
    /// chapter's heading), links between notes as links to destinations inside the PDF (the
    /// heading a fragment names), each chapter's footnote 1 at the foot of its own page, the
    /// image found from the book's root; clean for qpdf, fonts embedded, the same bytes twice.
    func testFolderBecomesOnePDFBookWithContentsPageAndLinksBetweenChapters() throws {
        let (input, _, dir) = try makeSiteFolder(self, Self.files)
        try FileManager.default.createDirectory(atPath: input + "/img", withIntermediateDirectories: true)
        try Data(EPUBBookTestsPNG.bytes).write(to: URL(fileURLWithPath: input + "/img/shot.png"))
        let out = dir + "/book.pdf"
        let env = ["SOURCE_DATE_EPOCH": "1700000000"]
        let r = try NotepressBinary.runExpectingSuccess(["convert", input, "-o", out, "--verbose"], environment: env)
        XCTAssertTrue(r.stderr.contains("wrote \(out): 3 chapters"), r.stderr)
        XCTAssertTrue(r.stderr.contains("zeta.md:6:"), r.stderr)
        XCTAssertTrue(r.stderr.contains("PDF: link to missing.md: not in the book; written as its text"), r.stderr)
        let first = try Data(contentsOf: URL(fileURLWithPath: out))
        XCTAssertEqual(Array(first.prefix(5)), Array("%PDF-".utf8), "one PDF file, not a site folder")
        try NotepressBinary.runExpectingSuccess(["convert", input, "-o", out, "-q"], environment: env)
        XCTAssertEqual(first, try Data(contentsOf: URL(fileURLWithPath: out)), "two runs with SOURCE_DATE_EPOCH differ")
        try PDFSupport.assertClean(out)
        try PDFSupport.assertFontsEmbedded(out)

        let pages = try PDFSupport.pages(out)
        let dests = try PDFSupport.destinations(out)
        let chapterPages = try ["ch001.xhtml", "ch002.xhtml", "ch003.xhtml"].map { try XCTUnwrap(dests[$0], "no destination \($0): \(dests)") }
        XCTAssertEqual(chapterPages[0], 3, "title page, contents page, then the first chapter")
        XCTAssertTrue(chapterPages[0] < chapterPages[1] && chapterPages[1] < chapterPages[2], "each chapter from a new page: \(chapterPages)")
        XCTAssertTrue(pages[0].contains("Zeta") && pages[0].contains("Ada Lovelace"), pages[0])
        let contents = pages[1].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(contents.contains("Contents"), pages[1])
        let layout = try PDFSupport.pages(out, layout: true)[1].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for (title, page) in zip(["Zeta comes first", "Part", "Nested"], chapterPages) {
            let line = try XCTUnwrap(layout.first { $0.hasPrefix(title + " ") }, "no entry \(title): \(layout)")
            XCTAssertEqual(Int(line.split(separator: " ").last ?? ""), page, line)
        }
        // SUMMARY.md's order, not the files' names: zeta, alpha, beta.
        XCTAssertTrue(pages[chapterPages[0] - 1].contains("On to the details"), pages[chapterPages[0] - 1])
        XCTAssertTrue(pages[chapterPages[1] - 1].contains("Alpha from front matter\nAlpha's body text"), pages[chapterPages[1] - 1])
        XCTAssertTrue(pages[chapterPages[2] - 1].contains("Beta\nParagraph 0 of beta"), pages[chapterPages[2] - 1])

        let text = try PDFSupport.uncompressed(out)
        for dest in ["ch003.xhtml#details", "ch002.xhtml", "ch001.xhtml"] {
            XCTAssertTrue(text.contains("/Dest (\(dest))"), "no link to \(dest)")
        }
        XCTAssertFalse(text.contains("/URI"), "a link between notes left as a URI (the book links nothing outside)")
        let details = try XCTUnwrap(dests["ch003.xhtml#details"])
        XCTAssertGreaterThan(details, chapterPages[2], "the Details heading is pages into Beta")
        XCTAssertTrue(text.contains("/Title (Zeta)") && text.contains("/Title (Alpha from front matter)") && text.contains("/Title (Details)"),
                      "outline entries")
        // Both chapters' footnote 1, each at the foot of its reference's page.
        XCTAssertEqual(dests["fn-1"], chapterPages[0])
        XCTAssertEqual(dests["fn-2"], details)
        XCTAssertTrue(pages[chapterPages[0] - 1].contains("1. Zeta's footnote."), pages[chapterPages[0] - 1])
        XCTAssertTrue(pages[details - 1].contains("1. Beta's footnote."), pages[details - 1])
        // The 1 × 1 PNG, on the first chapter's page.
        let images = try runTool("pdfimages", ["-list", out]).output.split(separator: "\n").dropFirst(2)
        XCTAssertEqual(images.map { $0.split(separator: " ").prefix(5).joined(separator: " ") }, ["\(chapterPages[0]) 0 image 1 1"])
    }

    /// Only `-o NAME.pdf` makes a book: `-t pdf` into a folder is still a PDF per note.
    func testFolderRunIntoAFolderStillWritesOnePDFPerNote() throws {
        let (input, output, _) = try makeSiteFolder(self, ["a.md": "# A\n", "part/b.md": "# B\n"])
        try NotepressBinary.runExpectingSuccess(["convert", input, "-t", "pdf", "-o", output + "/", "-q"])
        for f in ["a.pdf", "part/b.pdf"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: output + "/" + f), "no \(f)")
        }
    }
}
