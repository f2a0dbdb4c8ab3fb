import Foundation
import NotepressTestSupport
import XCTest

/// Several files given on the command line, each with images beside it (the DOCX/ODT/EPUB
/// try-out, item 2): each file's images are read from its own folder, in every format.
final class SeveralFilesImagesTests: XCTestCase {
    /// Two notes in two folders, each naming an image relative to itself.
    private func notes() throws -> (a: String, b: String, dir: String) {
        let dir = try makeTempDir(self)
        let a = try writeTestFile("# Alpha\n\nSee ![pa](pa.png).\n", "a/x.md", in: dir).path
        let b = try writeTestFile("# Bravo\n\n![pb](img/p%20b.png)\n", "b/y.md", in: dir).path
        try Data(EPUBBookTestsPNG.bytes).write(to: dir.appendingPathComponent("a/pa.png"))
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("b/img"), withIntermediateDirectories: true)
        try Data(EPUBBookTestsPNG.bytes).write(to: dir.appendingPathComponent("b/img/p b.png"))
        return (a, b, dir.path)
    }

    /// `convert a/x.md b/y.md -o out.epub`: both images packaged, no "no such file" warning
    /// (the site looked for them beside the current folder), epubcheck clean.
    func testSeveralFilesToOneBookPackageTheImagesBesideEachFile() throws {
        let (a, b, dir) = try notes()
        let out = dir + "/book.epub"
        let r = try NotepressBinary.runExpectingSuccess(["convert", a, b, "-o", out])
        XCTAssertFalse(r.stderr.contains("warning"), r.stderr)
        XCTAssertTrue(r.stderr.contains("2 chapters, 2 images"), r.stderr)
        XCTAssertTrue(try EPUBSupport.entry(out, "EPUB/ch001.xhtml").contains("<img src=\"images/001-pa.png\""))
        XCTAssertTrue(try EPUBSupport.entry(out, "EPUB/ch002.xhtml").contains("<img src=\"images/002-p_b.png\""))
        let check = try EPUBSupport.check(out)
        XCTAssertEqual(check.fatals + check.errors + check.warnings, 0, check.output)
    }

    /// `convert a/x.md b/y.md -t docx,html -o out/`: each DOCX embeds its image, the HTML pages'
    /// images are copied beside them, and no link is reported broken.
    func testSeveralFilesToAFolderFindAndCopyTheImagesBesideEachFile() throws {
        let (a, b, dir) = try notes()
        let out = dir + "/out"
        let r = try NotepressBinary.runExpectingSuccess(["convert", a, b, "-t", "docx,html", "-o", out + "/"])
        XCTAssertFalse(r.stderr.contains("warning"), r.stderr)
        XCTAssertFalse(r.stderr.contains("broken"), r.stderr)
        XCTAssertEqual(FileManager.default.contents(atPath: out + "/pa.png"), Data(EPUBBookTestsPNG.bytes))
        XCTAssertEqual(FileManager.default.contents(atPath: out + "/img/p b.png"), Data(EPUBBookTestsPNG.bytes))
        for name in ["x.docx", "y.docx"] {
            let (status, list) = try runTool("python3", ["-c", "import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).namelist())",
                                                         out + "/" + name])
            XCTAssertEqual(status, 0, list)
            XCTAssertTrue(list.contains("word/media/image1.png"), "\(name): \(list)")
        }
    }
}
