import Foundation
import NotepressTestSupport
import XCTest

/// Smaller fidelity bugs of the DOCX/ODT/EPUB try-out (item 6), through the real binary and the
/// readers people use (LibreOffice, python-docx, epubcheck).
final class WriterFidelityTests: XCTestCase {
    static let tasks = "# Tasks\n\n- [ ] open task\n- [x] done task\n- plain item\n  - [ ] nested task\n\n1. [ ] ordered task\n2. second\n"

    /// A GFM task item showed a bullet and then its box in DOCX and ODT ("•  ☐ open task"): its box
    /// is its bullet now (a numbering of boxes in DOCX, the item's own list style in ODT), as
    /// LibreOffice lays it out; a plain item keeps its bullet, an ordered task its number and box.
    func testTaskItemsShowTheirBoxInPlaceOfTheBullet() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile(Self.tasks, "tasks.md", in: dir)
        for ext in ["docx", "odt"] {
            let out = dir.appendingPathComponent(ext + "/tasks." + ext)
            try FileManager.default.createDirectory(at: out.deletingLastPathComponent(), withIntermediateDirectories: true)
            try NotepressBinary.runExpectingSuccess(["convert", md.path, "-o", out.path])
            try LibreOffice.soffice("pdf", [out], outDir: out.deletingLastPathComponent())
            let (status, text) = try runTool("pdftotext", ["-layout", out.deletingPathExtension().path + ".pdf", "-"])
            XCTAssertEqual(status, 0, text)
            let lines = text.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
            XCTAssertTrue(lines.contains("\u{2610} open task"), "\(ext): \(lines)")
            XCTAssertTrue(lines.contains("\u{2612} done task"), "\(ext): \(lines)")
            XCTAssertTrue(lines.contains("\u{2022} plain item"), "\(ext): \(lines)")
            XCTAssertTrue(lines.contains("\u{2610} nested task"), "\(ext): \(lines)")
            XCTAssertTrue(lines.contains("1. \u{2610} ordered task"), "\(ext): \(lines)")
            XCTAssertFalse(text.contains("\u{2022} \u{2610}") || text.contains("\u{2022} \u{2612}"), "\(ext): bullet and box: \(text)")
        }
    }

    /// DOCX had no `w:lang`: Word and LibreOffice checked a German note's spelling as English.
    /// Front matter `lang` (as HTML's `lang` is chosen, else `en`) is the default language, also
    /// for complex scripts when it is written right to left; LibreOffice reads it so.
    func testDOCXLanguageComesFromFrontMatterLang() throws {
        let dir = try makeTempDir(self)
        let de = try writeTestFile("---\nlang: de-CH\n---\n# Hallo\n\nText.\n", "de.md", in: dir)
        let he = try writeTestFile("---\nlang: he\n---\n# \u{5E9}\u{5DC}\u{5D5}\u{5DD}\n", "he.md", in: dir)
        let none = try writeTestFile("# Plain\n", "none.md", in: dir)
        var docx: [URL] = []
        for md in [de, he, none] {
            let out = md.deletingPathExtension().appendingPathExtension("docx")
            try NotepressBinary.runExpectingSuccess(["convert", md.path, "-o", out.path])
            docx.append(out)
        }
        func styles(_ u: URL) throws -> String { try runTool("unzip", ["-p", u.path, "word/styles.xml"]).output }
        XCTAssertTrue(try styles(docx[0]).contains("<w:lang w:val=\"de-CH\"/>"))
        XCTAssertTrue(try styles(docx[1]).contains("<w:lang w:val=\"he\" w:bidi=\"he\"/>"))
        XCTAssertTrue(try styles(docx[2]).contains("<w:lang w:val=\"en\"/>"))
        let lo = dir.appendingPathComponent("lo")
        try LibreOffice.soffice("odt", Array(docx.prefix(2)), outDir: lo)
        let deStyles = try runTool("unzip", ["-p", lo.appendingPathComponent("de.odt").path, "styles.xml"]).output
        XCTAssertTrue(deStyles.contains("fo:language=\"de\" fo:country=\"CH\""), deStyles)
        let heStyles = try runTool("unzip", ["-p", lo.appendingPathComponent("he.odt").path, "styles.xml"]).output
        XCTAssertTrue(heStyles.contains("style:language-complex=\"he\""), heStyles)
    }

    /// A Hebrew or Arabic note's EPUB turned its pages left to right: the spine has
    /// `page-progression-direction="rtl"` and the documents `dir="rtl"`, from `lang` (or `dir`).
    func testRightToLeftEPUBTurnsItsPagesRightToLeft() throws {
        let dir = try makeTempDir(self)
        let he = try writeTestFile("---\nlang: he\n---\n# \u{5E9}\u{5DC}\u{5D5}\u{5DD}\n\n\u{5D8}\u{5E7}\u{5E1}\u{5D8}.\n", "he.md", in: dir)
        let en = try writeTestFile("# Hello\n", "en.md", in: dir)
        let out = dir.appendingPathComponent("he.epub").path
        try NotepressBinary.runExpectingSuccess(["convert", he.path, "-o", out])
        XCTAssertTrue(try EPUBSupport.entry(out, "EPUB/package.opf").contains("<spine toc=\"ncx\" page-progression-direction=\"rtl\">"))
        XCTAssertTrue(try EPUBSupport.entry(out, "EPUB/ch001.xhtml").contains("xml:lang=\"he\" lang=\"he\" dir=\"rtl\">"))
        XCTAssertTrue(try EPUBSupport.entry(out, "EPUB/nav.xhtml").contains("dir=\"rtl\""))
        let check = try EPUBSupport.check(out)
        XCTAssertEqual(check.fatals + check.errors + check.warnings, 0, check.output)
        let ltr = dir.appendingPathComponent("en.epub").path
        try NotepressBinary.runExpectingSuccess(["convert", en.path, "-o", ltr])
        XCTAssertTrue(try EPUBSupport.entry(ltr, "EPUB/package.opf").contains("<spine toc=\"ncx\">"))
    }
}
