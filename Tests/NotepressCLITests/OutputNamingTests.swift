import Foundation
import NotepressTestSupport
import XCTest

/// What `-o PATH` names (NotepressSite's OutputTarget), through the real binary: an output named
/// like a file is never made a folder silently (the DOCX/ODT/EPUB try-out).
final class OutputNamingTests: XCTestCase {
    /// `convert a.md b.md -o x.docx`, `convert a.md -t docx,pdf -o multi.docx` and `-o x.html`
    /// for several files wrote a site folder named like a file and exited 0.
    func testFileLikeOutputForSeveralOutputsIsAUsageErrorNotAFolder() throws {
        let dir = try makeTempDir(self)
        let a = try writeTestFile("# A\n", "a/x.md", in: dir).path
        let b = try writeTestFile("# B\n", "b/y.md", in: dir).path
        let cases: [([String], String)] = [
            ([a, b, "-o", dir.path + "/x.docx"],
             "-o \(dir.path)/x.docx looks like a file name; converting several files needs an output folder "
                + "(-o \(dir.path)/x.docx/ makes a folder of that name; -o NAME.epub or NAME.pdf makes one book of them)"),
            ([a, b, "-o", dir.path + "/x.html"],
             "-o \(dir.path)/x.html looks like a file name; converting several files needs an output folder "
                + "(-o \(dir.path)/x.html/ makes a folder of that name; -o NAME.epub or NAME.pdf makes one book of them)"),
            ([a, "-t", "docx,pdf", "-o", dir.path + "/multi.docx"],
             "-o \(dir.path)/multi.docx looks like a file name; several formats need an output folder "
                + "(-o \(dir.path)/multi.docx/ makes a folder of that name)"),
            ([a, b, "-t", "html", "-o", dir.path + "/x.epub"],
             "-o \(dir.path)/x.epub looks like a file name; converting several files needs an output folder "
                + "(-o \(dir.path)/x.epub/ makes a folder of that name)"),
        ]
        for (args, message) in cases {
            let r = try NotepressBinary.run(["convert"] + args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr, "notepress convert: \(message)\n(see 'notepress convert --help')\n", "\(args)")
        }
        for name in ["x.docx", "x.html", "multi.docx", "x.epub"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path + "/" + name), name)
        }
        // A trailing slash asks for the folder; a name without a format's extension stays a folder.
        try NotepressBinary.runExpectingSuccess(["convert", a, b, "-t", "docx", "-o", dir.path + "/x.docx/", "-q"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path + "/x.docx/y.docx"))
        try NotepressBinary.runExpectingSuccess(["convert", a, "-t", "docx,odt", "-o", dir.path + "/out.v2", "-q"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path + "/out.v2/x.odt"))
    }

    /// `convert a.md -o x.pdf` with a folder `x.pdf` there wrote `x.pdf/x.html`, a site folder.
    func testOneFileToAnExistingFolderNamedLikeAFileIsAUsageError() throws {
        let dir = try makeTempDir(self)
        let a = try writeTestFile("# A\n", "x.md", in: dir).path
        try FileManager.default.createDirectory(atPath: dir.path + "/x.pdf", withIntermediateDirectories: true)
        let r = try NotepressBinary.run(["convert", a, "-o", dir.path + "/x.pdf"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertEqual(r.stderr, "notepress convert: -o \(dir.path)/x.pdf is a folder, not a file; give another file name, "
            + "or -o \(dir.path)/x.pdf/ to write into that folder\n(see 'notepress convert --help')\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path + "/x.pdf"), [])
        // Asked for with a slash, the folder takes the output.
        try NotepressBinary.runExpectingSuccess(["convert", a, "-t", "rtf", "-o", dir.path + "/x.pdf/", "-q"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path + "/x.pdf/x.rtf"))
        // Several files (the new-user try-out: they were written into the folder as HTML pages,
        // exit 0, where without the folder they make one PDF book): the same usage error.
        let b = try writeTestFile("# B\n", "b.md", in: dir).path
        let several = try NotepressBinary.run(["convert", a, b, "-o", dir.path + "/x.pdf"])
        XCTAssertEqual(several.status, 2, several.stderr)
        XCTAssertTrue(several.stderr.hasPrefix("notepress convert: -o \(dir.path)/x.pdf is a folder, not a file;"), several.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path + "/x.pdf").filter { !$0.hasPrefix(".") }, ["x.rtf"])
    }

    /// `convert a.md b.md -o x.epub` wrote a folder `x.epub` of HTML pages: several files with
    /// `-o NAME.epub` are one book, a chapter each in the order given (as a folder is).
    func testSeveralFilesToOneEPUBAreOneBookInTheOrderGiven() throws {
        let dir = try makeTempDir(self)
        let b = try writeTestFile("# Bravo\n", "b/y.md", in: dir).path
        let a = try writeTestFile("# Alpha\n", "a/x.md", in: dir).path
        let out = dir.path + "/x.epub"
        let r = try NotepressBinary.runExpectingSuccess(["convert", b, a, "-o", out])
        XCTAssertTrue(r.stderr.contains("wrote \(out): 2 chapters"), r.stderr)
        var isFolder: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: out, isDirectory: &isFolder))
        XCTAssertFalse(isFolder.boolValue, "one file, not a site folder")
        XCTAssertTrue(try EPUBSupport.entry(out, "EPUB/ch001.xhtml").contains("Bravo"))
        XCTAssertTrue(try EPUBSupport.entry(out, "EPUB/ch002.xhtml").contains("Alpha"))
        XCTAssertTrue(try EPUBSupport.entry(out, "EPUB/package.opf").contains("<dc:title>Bravo</dc:title>"))
        let check = try EPUBSupport.check(out)
        XCTAssertEqual(check.fatals + check.errors + check.warnings, 0, check.output)
    }

    /// Several files with `-o NAME.pdf` are one PDF book as with `NAME.epub` (the merge of the
    /// PDF book and the several-files book): chapters in the order given, each image read from
    /// its own file's folder.
    func testSeveralFilesToOnePDFAreOneBookInTheOrderGiven() throws {
        let dir = try makeTempDir(self)
        let b = try writeTestFile("# Bravo\n\nBravo text.\n\n![missing picture](pic.png)\n", "b/y.md", in: dir).path
        let a = try writeTestFile("# Alpha\n\nAlpha text.\n", "a/x.md", in: dir).path
        let out = dir.path + "/x.pdf"
        let r = try NotepressBinary.runExpectingSuccess(["convert", b, a, "-o", out])
        XCTAssertTrue(r.stderr.contains("wrote \(out): 2 chapters"), r.stderr)
        XCTAssertTrue(r.stderr.contains("y.md:5:1: warning"), r.stderr)
        var isFolder: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: out, isDirectory: &isFolder))
        XCTAssertFalse(isFolder.boolValue, "one file, not a site folder")
        let text = try runTool("pdftotext", [out, "-"]).output
        let bravo = text.range(of: "Bravo text."), alpha = text.range(of: "Alpha text.")
        XCTAssertNotNil(bravo, text)
        XCTAssertNotNil(alpha, text)
        if let bravo, let alpha { XCTAssertLessThan(bravo.lowerBound, alpha.lowerBound, "the order given") }
    }
}
