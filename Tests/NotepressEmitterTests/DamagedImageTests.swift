import Foundation
import NotepressTestSupport
import XCTest

/// Images that are no images (the DOCX/ODT/EPUB try-out, item 3), through the real binary: a
/// `.png` of text, an empty file, a PNG cut short after its header, a JPEG of garbage and a
/// missing file are each warned about at file:line:column in words that say which (one policy:
/// NotepressContainer's ImageFile), never packaged, and their descriptions are kept.
final class DamagedImageTests: XCTestCase {
    static let markdown = """
    # Images

    A ![text alt](text.png)

    B ![empty alt](empty.png)

    C ![cut alt](cut.png)

    D ![garbage alt](bad.jpg)

    E ![missing alt](missing.png)

    F ![good alt](good.png)

    """

    /// The five bad images and one good one, beside `doc.md`.
    private func document() throws -> (dir: URL, md: String) {
        let dir = try makeTempDir(self)
        try Data("not a png\n".utf8).write(to: dir.appendingPathComponent("text.png"))
        try Data().write(to: dir.appendingPathComponent("empty.png"))
        let good = DOCXTests.png(4, 3)
        try good.write(to: dir.appendingPathComponent("good.png"))
        try good.prefix(40).write(to: dir.appendingPathComponent("cut.png"))  // signature and IHDR, no data
        try Data([0xFF, 0xD8, 0xFF, 0xE0] + Array("garbage".utf8)).write(to: dir.appendingPathComponent("bad.jpg"))
        return (dir, try writeTestFile(Self.markdown, "doc.md", in: dir).path)
    }

    /// The warning for each bad image, after its position and the writer's prefix.
    static func expected(_ prefix: String, kinds: String, quote: String = "") -> [String] {
        let q = { (name: String) in quote + name + quote }
        return ["doc.md:3:3: warning: \(prefix)image \(q("text.png")) is not a \(kinds) image",
                "doc.md:5:3: warning: \(prefix)image \(q("empty.png")) is an empty file",
                "doc.md:7:3: warning: \(prefix)image \(q("cut.png")) is a damaged PNG file",
                "doc.md:9:3: warning: \(prefix)image \(q("bad.jpg")) is a damaged JPEG file",
                "doc.md:11:3: warning: \(prefix)image \(q("missing.png")) not found"]
    }

    /// epubcheck reported PKG-021 (corrupt image) for the cut PNG and the garbage JPEG: now
    /// only the good image is packaged, the book is clean, and each alt text stays in place.
    func testEPUBPackagesNoDamagedImageAndSaysWhichIsWhich() throws {
        let (dir, md) = try document()
        let out = dir.appendingPathComponent("doc.epub").path
        let r = try NotepressBinary.runExpectingSuccess(["convert", md, "-o", out, "--verbose"])
        for w in Self.expected("epub: ", kinds: "PNG, JPEG, GIF or SVG") {
            XCTAssertTrue(r.stderr.contains(dir.path + "/" + w + "; written as its text\n"), "\(w)\n\(r.stderr)")
        }
        let list = try runTool("unzip", ["-l", out]).output
        XCTAssertTrue(list.contains("EPUB/images/001-good.png"), list)
        XCTAssertFalse(list.contains("images/002"), list)
        let chapter = try EPUBSupport.entry(out, "EPUB/ch001.xhtml")
        for alt in ["text alt", "empty alt", "cut alt", "garbage alt", "missing alt"] { XCTAssertTrue(chapter.contains(alt), alt) }
        let check = try EPUBSupport.check(out)
        XCTAssertEqual(check.fatals + check.errors + check.warnings, 0, check.output)
    }

    /// DOCX and ODT say the same of each, embed only the good image, and keep the descriptions.
    func testDOCXAndODTEmbedNoDamagedImageAndSayWhichIsWhich() throws {
        let (dir, md) = try document()
        for (ext, prefix, quote, suffix, media) in [("docx", "DOCX: ", "", "; its description is kept", "word/media/"),
                                                   ("odt", "ODT: ", "'", "; its description is kept as text", "Pictures/")] {
            let out = dir.appendingPathComponent("doc." + ext).path
            let r = try NotepressBinary.runExpectingSuccess(["convert", md, "-o", out, "--verbose"])
            for w in Self.expected(prefix, kinds: "PNG, JPEG or GIF", quote: quote) {
                XCTAssertTrue(r.stderr.contains(dir.path + "/" + w + suffix + "\n"), "\(w)\n\(r.stderr)")
            }
            let list = try runTool("unzip", ["-l", out]).output
            XCTAssertEqual(list.components(separatedBy: media).count - 1, 1, list)
            let text = try runTool("python3", ["-c", """
                import sys, zipfile, re
                z = zipfile.ZipFile(sys.argv[1])
                print(z.read('word/document.xml' if sys.argv[1].endswith('docx') else 'content.xml').decode())
                """, out]).output
            for alt in ["text alt", "empty alt", "cut alt", "garbage alt", "missing alt"] { XCTAssertTrue(text.contains(alt), "\(ext): \(alt)") }
        }
    }

    /// The new-user try-out: a 17-byte "GIF" (`GIF89a` and text) was packaged whole, epubcheck
    /// failed the book (PKG-021) and DOCX gave it a page-high blank frame: a GIF without its
    /// trailer is damaged, warned about and not packaged; a whole GIF still is.
    func testAGIFCutShortIsDamagedInEPUBAndDOCX() throws {
        let dir = try makeTempDir(self)
        try Data("GIF89a not really".utf8).write(to: dir.appendingPathComponent("fake.png"))
        try Data(Array("GIF89a".utf8) + [30, 0, 10, 0, 0, 0, 0, 0x3B]).write(to: dir.appendingPathComponent("whole.gif"))
        let md = try writeTestFile("# G\n\n![fake alt](fake.png) ![whole alt](whole.gif)\n", "g.md", in: dir).path
        let epub = dir.appendingPathComponent("g.epub").path
        let r = try NotepressBinary.runExpectingSuccess(["convert", md, "-o", epub])
        XCTAssertTrue(r.stderr.contains("g.md:3:1: warning: epub: image fake.png is a damaged GIF file; written as its text"), r.stderr)
        let list = try runTool("unzip", ["-l", epub]).output
        XCTAssertTrue(list.contains("whole.gif"), list)
        XCTAssertFalse(list.contains("fake"), list)
        let docx = dir.appendingPathComponent("g.docx").path
        let d = try NotepressBinary.runExpectingSuccess(["convert", md, "-o", docx])
        XCTAssertTrue(d.stderr.contains("g.md:3:1: warning: DOCX: image fake.png is a damaged GIF file"), d.stderr)
        XCTAssertEqual(try runTool("unzip", ["-l", docx]).output.components(separatedBy: "word/media/").count - 1, 1)
    }

    /// PDF said a missing file "is not a PNG or JPEG file that can be read": it says it is not found.
    func testPDFSaysAMissingImageIsNotFound() throws {
        let dir = try makeTempDir(self)
        try Data().write(to: dir.appendingPathComponent("empty.png"))
        let md = try writeTestFile("# P\n\n![gone](missing.png)\n\n![void](empty.png)\n", "doc.md", in: dir).path
        let r = try NotepressBinary.runExpectingSuccess(["convert", md, "-o", dir.appendingPathComponent("doc.pdf").path, "--verbose"])
        XCTAssertTrue(r.stderr.contains("doc.md:3:1: warning: PDF: image missing.png not found; its description is written instead"), r.stderr)
        XCTAssertTrue(r.stderr.contains("doc.md:5:1: warning: PDF: image empty.png is an empty file; its description is written instead"),
                      r.stderr)
    }
}

/// Raw HTML `<img>` in Markdown (the try-out, item 4): EPUB wrote its alt text silently, as if no
/// image were there. Now it is packaged like a Markdown image (DOCX reads raw HTML into the AST;
/// EPUB keeps the HTML and gives it the packaged path), or warned about at file:line:column.
final class EPUBRawHTMLImageTests: XCTestCase {
    func testRawHTMLImagesArePackagedOrWarnedAbout() throws {
        let dir = try makeTempDir(self)
        try DOCXTests.png(4, 3).write(to: dir.appendingPathComponent("pic.png"))
        try DOCXTests.png(2, 2).write(to: dir.appendingPathComponent("other one.png"))
        let md = try writeTestFile("""
        # Raw

        Inline <img src="pic.png" alt="raw inline"> here.

        <p align="center"><img src="other%20one.png" alt="raw block" width="20"></p>

        <img src="gone.png" alt="raw missing">

        """, "doc.md", in: dir).path
        let out = dir.appendingPathComponent("doc.epub").path
        let r = try NotepressBinary.runExpectingSuccess(["convert", md, "-o", out, "--verbose"])
        XCTAssertEqual(r.stderr, "\(md):7:1: warning: epub: raw HTML image gone.png not found; written as its alt text ('raw missing')\n")
        let chapter = try EPUBSupport.entry(out, "EPUB/ch001.xhtml")
        XCTAssertTrue(chapter.contains("Inline <img src=\"images/001-pic.png\" alt=\"raw inline\"/> here."), chapter)
        XCTAssertTrue(chapter.contains("<img src=\"images/002-other_one.png\" alt=\"raw block\" width=\"20\"/>"), chapter)
        XCTAssertTrue(chapter.contains("raw missing"), chapter)
        let check = try EPUBSupport.check(out)
        XCTAssertEqual(check.fatals + check.errors + check.warnings, 0, check.output)
    }

    /// DOCX said "doc.md: warning: DOCX: image gone.png not found" of a raw HTML block's image,
    /// and PDF of a raw inline one, with no line: raw HTML read into the AST gives its images the
    /// position of the block they are in.
    func testRawHTMLImageWarningsOfOtherWritersHaveTheirLine() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile("# Raw\n\nInline <img src=\"gone1.png\" alt=\"a\"> here.\n\n<img src=\"gone2.png\" alt=\"b\">\n", "doc.md", in: dir).path
        for (ext, prefix) in [("docx", "DOCX: image "), ("odt", "ODT: image '")] {
            let r = try NotepressBinary.runExpectingSuccess(["convert", md, "-o", dir.appendingPathComponent("doc." + ext).path, "--verbose"])
            XCTAssertTrue(r.stderr.contains("\(md):3:1: warning: \(prefix)gone1.png"), "\(ext): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("\(md):5:1: warning: \(prefix)gone2.png"), "\(ext): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("\(md): warning"), "\(ext): \(r.stderr)")
        }
    }
}
