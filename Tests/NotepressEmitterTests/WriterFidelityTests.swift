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
}
