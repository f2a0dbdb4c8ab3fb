import Foundation
import NotepressTestSupport
import XCTest

/// `notepress convert book/ -o book.epub`: a folder becomes one EPUB book (NotepressSite's
/// EPUBBook), through the real binary.
final class EPUBBookTests: XCTestCase {
    static let summary = """
    # Summary

    - [Zeta comes first](zeta.md)
    - [Part](part/alpha.md)
        - [Nested](part/beta.md)

    """

    /// An mdBook folder with images, code, math, callouts and cross-links: epubcheck passes it
    /// with 0 errors and 0 warnings, the spine follows SUMMARY.md (not the file names' order),
    /// links between notes (standard, with a fragment, wiki) land on chapter files and ids that
    /// exist, the image used by two chapters is packaged once, and two runs give the same bytes.
    func testFolderBecomesOneBookInSummaryOrderWithCrossLinksIntoChapters() throws {
        let (input, _, dir) = try makeSiteFolder(self, [
            "SUMMARY.md": Self.summary,
            "zeta.md": "# Zeta\n\nOn to [the details](part/beta.md#details) and [[alpha]].\n\n![shot](img/shot.png)\n\n"
                + "> [!TIP]\n> A callout.\n\n$a^2 + b^2 = c^2$\n",
            "part/alpha.md": "# Alpha\n\n```python\ndef f(x):\n    return x  # the same\n```\n\nBack to [zeta](../zeta.md).\n",
            "part/beta.md": "# Beta\n\n## Details\n\nAgain ![shot](../img/shot.png) and a note[^1].\n\n[^1]: Foot.\n",
        ])
        try FileManager.default.createDirectory(atPath: input + "/img", withIntermediateDirectories: true)
        try Data(EPUBBookTestsPNG.bytes).write(to: URL(fileURLWithPath: input + "/img/shot.png"))
        let out = dir + "/book.epub"
        let env = ["SOURCE_DATE_EPOCH": "1700000000"]
        let r = try NotepressBinary.runExpectingSuccess(["convert", input, "-o", out], environment: env)
        XCTAssertTrue(r.stderr.contains("3 chapters, 1 images"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/index.html"), "one file, not a site folder")
        let first = try Data(contentsOf: URL(fileURLWithPath: out))
        try NotepressBinary.runExpectingSuccess(["convert", input, "-o", out, "-q"], environment: env)
        XCTAssertEqual(first, try Data(contentsOf: URL(fileURLWithPath: out)), "two runs with SOURCE_DATE_EPOCH differ")

        XCTAssertEqual(try EPUBSupport.spine(out), ["ch001.xhtml", "ch002.xhtml", "ch003.xhtml"])
        let zeta = try EPUBSupport.entry(out, "EPUB/ch001.xhtml")
        let alpha = try EPUBSupport.entry(out, "EPUB/ch002.xhtml")
        let beta = try EPUBSupport.entry(out, "EPUB/ch003.xhtml")
        XCTAssertTrue(zeta.contains("<h1 id=\"zeta\""), zeta)
        XCTAssertTrue(alpha.contains("<h1 id=\"alpha\""), alpha)
        XCTAssertTrue(zeta.contains("<a href=\"ch003.xhtml#details\">the details</a>"), zeta)
        XCTAssertTrue(beta.contains("id=\"details\""), beta)
        XCTAssertTrue(zeta.contains("<a href=\"ch002.xhtml\">alpha</a>"), zeta)
        XCTAssertTrue(alpha.contains("<a href=\"ch001.xhtml\">zeta</a>"), alpha)
        XCTAssertTrue(zeta.contains("<img src=\"images/001-shot.png\""), zeta)
        XCTAssertTrue(beta.contains("<img src=\"images/001-shot.png\""), beta)
        let nav = try EPUBSupport.entry(out, "EPUB/nav.xhtml")
        XCTAssertTrue(nav.contains("<li><a href=\"ch002.xhtml\">Part</a><ol><li><a href=\"ch003.xhtml\">Nested</a></li></ol></li>"), nav)

        let check = try EPUBSupport.check(out)
        XCTAssertEqual(check.fatals + check.errors, 0, check.output)
        XCTAssertEqual(check.warnings, 0, check.output)
    }

    /// `-t epub -o DIR` (a folder run, one book per note): a note in a subfolder packages the
    /// image its relative path names (found from the note's own folder, not the current one).
    func testFolderRunOfOneBookPerNotePackagesImagesFromTheNotesFolder() throws {
        let (input, output, _) = try makeSiteFolder(self, ["part/a.md": "# A\n\n![shot](../img/shot.png)\n"])
        try FileManager.default.createDirectory(atPath: input + "/img", withIntermediateDirectories: true)
        try Data(EPUBBookTestsPNG.bytes).write(to: URL(fileURLWithPath: input + "/img/shot.png"))
        let r = try NotepressBinary.runExpectingSuccess(["convert", input, "-t", "epub", "-o", output + "/", "--verbose"])
        XCTAssertFalse(r.stderr.contains("not found"), r.stderr)
        let chapter = try EPUBSupport.entry(output + "/part/a.epub", "EPUB/ch001.xhtml")
        XCTAssertTrue(chapter.contains("<img src=\"images/001-shot.png\""), chapter)
    }

    /// A book's raw HTML `<img>` (in a note in a subfolder) was written as its alt text without a
    /// word: it is packaged, read from the note's own folder (the site does not rewrite raw HTML).
    func testRawHTMLImagesOfABookAreReadFromTheNotesFolder() throws {
        let (input, _, dir) = try makeSiteFolder(self, ["part/a.md": "# A\n\n<img src=\"shot.png\" alt=\"raw shot\">\n", "b.md": "# B\n"])
        try Data(EPUBBookTestsPNG.bytes).write(to: URL(fileURLWithPath: input + "/part/shot.png"))
        let out = dir + "/raw.epub"
        let r = try NotepressBinary.runExpectingSuccess(["convert", input, "-o", out, "--verbose"])
        XCTAssertFalse(r.stderr.contains("warning"), r.stderr)
        let chapters = try EPUBSupport.spine(out).map { try EPUBSupport.entry(out, "EPUB/" + $0) }
        XCTAssertTrue(chapters.contains { $0.contains("<img src=\"images/001-shot.png\" alt=\"raw shot\"/>") }, chapters.joined())
        let check = try EPUBSupport.check(out)
        XCTAssertEqual(check.fatals + check.errors + check.warnings, 0, check.output)
    }

    /// A book's missing image was warned about twice, once by the link report and once by the
    /// EPUB writer (without --verbose: "N warnings (input)", no line): one warning, at file:line:column
    /// (and so in a folder run to EPUB, DOCX and ODT).
    func testAMissingImageOfABookIsOneWarningAtItsPosition() throws {
        let (input, output, dir) = try makeSiteFolder(self, ["a.md": "# A\n\n![lost](lost.png)\n\n<img src=\"raw.png\" alt=\"r\">\n"])
        for (args, what) in [(["-o", dir + "/a.epub"], "book"), (["-o", dir + "/a.epub", "--verbose"], "book, verbose"),
                             (["-t", "epub", "-o", output + "/", "--verbose"], "folder run"),
                             (["-t", "docx,odt", "-o", dir + "/office/", "--verbose"], "DOCX and ODT folder run")] {
            let r = try NotepressBinary.runExpectingSuccess(["convert", input] + args)
            XCTAssertEqual(r.stderr.components(separatedBy: "lost.png").count - 1, 2, "\(what): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("\(input)/a.md:3:1: warning: image 'lost.png': no such file lost.png\n"), "\(what): \(r.stderr)")
            XCTAssertEqual(r.stderr.components(separatedBy: "raw.png").count - 1, 2, "\(what): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("\(input)/a.md:5:1: warning: image 'raw.png': no such file raw.png\n"), "\(what): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("warnings ("), "\(what): \(r.stderr)")
        }
    }

    /// mdBook's part titles (`# Part` in SUMMARY.md) were missing from the book's contents: they
    /// head the chapters after them up to the next part or separator, as mdBook's sidebar shows.
    func testSummaryPartTitlesGroupTheirChaptersInTheContents() throws {
        let (input, _, dir) = try makeSiteFolder(self, [
            "SUMMARY.md": "# Summary\n\n[Intro](intro.md)\n\n# Part One\n\n- [Ch 1](one.md)\n  - [Ch 1.1](one1.md)\n- [Ch 2](two.md)\n\n"
                + "# Part Two\n\n- [Ch 3](three.md)\n\n---\n\n[Outro](outro.md)\n",
            "intro.md": "# Intro\n", "one.md": "# One\n", "one1.md": "# One one\n", "two.md": "# Two\n", "three.md": "# Three\n",
            "outro.md": "# Outro\n",
        ])
        let out = dir + "/parts.epub"
        try NotepressBinary.runExpectingSuccess(["convert", input, "-o", out, "-q"])
        let nav = try EPUBSupport.entry(out, "EPUB/nav.xhtml")
        XCTAssertTrue(nav.contains("<ol><li><a href=\"ch001.xhtml\">Intro</a></li><li><span>Part One</span><ol><li><a href=\"ch002.xhtml\">Ch 1</a>"
            + "<ol><li><a href=\"ch003.xhtml\">Ch 1.1</a></li></ol></li><li><a href=\"ch004.xhtml\">Ch 2</a></li></ol></li>"
            + "<li><span>Part Two</span><ol><li><a href=\"ch005.xhtml\">Ch 3</a></li></ol></li><li><a href=\"ch006.xhtml\">Outro</a></li></ol>"), nav)
        let ncx = try EPUBSupport.entry(out, "EPUB/toc.ncx")
        XCTAssertTrue(ncx.contains("<text>Part One</text></navLabel><content src=\"ch002.xhtml\"/><navPoint"), ncx)
        XCTAssertTrue(ncx.contains("<text>Part Two</text></navLabel><content src=\"ch005.xhtml\"/><navPoint"), ncx)
        let check = try EPUBSupport.check(out)
        XCTAssertEqual(check.fatals + check.errors + check.warnings, 0, check.output)
    }

    /// Try-out (issue 48): a folder with subfolders that have no index page made an invalid book,
    /// the NCX giving a section and its first chapter two playOrders for one target (RSC-005).
    func testSubfoldersWithoutIndexPagesMakeAValidBook() throws {
        let (input, _, dir) = try makeSiteFolder(self, [
            "part1/a.md": "# A\n", "part1/b.md": "# B\n", "part2/c.md": "# C\n", "top.md": "# Top\n",
        ])
        let out = dir + "/parts.epub"
        try NotepressBinary.runExpectingSuccess(["convert", input, "-o", out, "-q"])
        let ncx = try EPUBSupport.entry(out, "EPUB/toc.ncx")
        XCTAssertGreaterThan(ncx.components(separatedBy: "<navPoint").count - 1, 4, ncx)
        let check = try EPUBSupport.check(out)
        XCTAssertEqual(check.fatals + check.errors, 0, check.output)
        XCTAssertEqual(check.warnings, 0, check.output)
    }

    /// A folder without SUMMARY.md: chapters in the sidebar's title order (natural: 2 before 10).
    func testFolderWithoutSummaryTakesTheSidebarsTitleOrder() throws {
        let (input, _, dir) = try makeSiteFolder(self, [
            "b.md": "# Note 10\n", "a.md": "# Note 2\n", "c.md": "# Note 1\n",
        ])
        let out = dir + "/notes.epub"
        try NotepressBinary.runExpectingSuccess(["convert", input, "-o", out, "-q"])
        let spine = try EPUBSupport.spine(out)
        XCTAssertEqual(spine.count, 3)
        let titles = try spine.map { try EPUBSupport.entry(out, "EPUB/" + $0) }.map { x -> String in
            guard let s = x.range(of: "<title>"), let e = x.range(of: "</title>") else { return "" }
            return String(x[s.upperBound..<e.lowerBound])
        }
        XCTAssertEqual(titles, ["Note 1", "Note 2", "Note 10"])
    }
}

/// A 1×1 PNG.
enum EPUBBookTestsPNG {
    static let bytes: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
        0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53, 0xDE, 0x00, 0x00, 0x00, 0x0C, 0x49, 0x44, 0x41,
        0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0x00, 0x00, 0x03, 0x01, 0x01, 0x00, 0xC9, 0xFE, 0x92, 0xEF, 0x00, 0x00, 0x00,
        0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]
}
