import Foundation
import XCTest
import NotepressTestSupport

/// Highlighted code in RTF as a word processor shows it: LibreOffice opens the RTF and saves it
/// as .docx, whose runs say which text is bold and which italic.
final class RTFCodeStyleTests: XCTestCase {
    /// Issue 52 item 6: comments in highlighted code were written bold instead of italic (the
    /// palette's comment style is italic, not bold), so Word and LibreOffice showed them bold.
    func testHighlightedCommentIsItalicNotBoldInLibreOffice() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile("# Code\n\n```swift\n// quietly explained\nlet total = 42\n```\n", "code.md", in: dir)
        let rtf = dir.appendingPathComponent("code.rtf")
        let r = try NotepressBinary.run(["convert", md.path, "-o", rtf.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        try LibreOffice.soffice("docx", [rtf], outDir: dir)
        let (status, xml) = try runTool("unzip", ["-p", dir.appendingPathComponent("code.docx").path, "word/document.xml"])
        XCTAssertEqual(status, 0, xml)
        // The run (<w:r>) holding the comment, and its properties (<w:rPr>).
        let runs = xml.components(separatedBy: "<w:r>").dropFirst().map { $0.components(separatedBy: "</w:r>")[0] }
        let comment = try XCTUnwrap(runs.first { $0.contains("quietly explained") }, "no run holds the comment: \(xml.suffix(3000))")
        let props = comment.components(separatedBy: "<w:t")[0]
        XCTAssertTrue(props.contains("<w:i/>"), "the comment is not italic: \(props)")
        XCTAssertFalse(props.contains("<w:b/>"), "the comment is bold: \(props)")
    }
}
