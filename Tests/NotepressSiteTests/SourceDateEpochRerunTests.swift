import Foundation
import XCTest
import NotepressTestSupport

/// `SOURCE_DATE_EPOCH` is part of the build configuration: a run with another epoch converts
/// again, and the dates a user sees follow it.
final class SourceDateEpochRerunTests: XCTestCase {
    /// Issue 52 item 9: the epoch was left out of the configuration's hash, so a run with another
    /// epoch said "skipped (unchanged)" and kept the pages' date and the man page's `.TH` date of
    /// the first run.
    func testRunWithAnotherEpochConvertsAgainWithItsDate() throws {
        // Undated notes: their date is the file's time, at most SOURCE_DATE_EPOCH (both epochs
        // are years before the files were written).
        let (input, output, _) = try makeSiteFolder(self, ["index.md": "# Home\n", "tool.md": "# Tool\n\nA tool page.\n"])
        func convert(_ epoch: String) throws -> String {
            let r = try NotepressBinary.run(["convert", input, "-o", output, "-t", "html,man"], environment: ["SOURCE_DATE_EPOCH": epoch])
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stderr
        }
        _ = try convert("1600000000")  // 2020-09-13T12:26:40Z
        XCTAssertTrue(try String(contentsOfFile: output + "/tool.html", encoding: .utf8).contains("datetime=\"2020-09-13T12:26:40Z\""))
        XCTAssertTrue(try String(contentsOfFile: output + "/tool.man", encoding: .utf8).contains(".TH \"TOOL\" \"1\" \"2020-09-13\""))
        let again = try convert("1700000000")  // 2023-11-14T22:13:20Z
        XCTAssertTrue(again.contains("converted 2, skipped 0 (unchanged)"), again)
        let html = try String(contentsOfFile: output + "/tool.html", encoding: .utf8)
        XCTAssertTrue(html.contains("datetime=\"2023-11-14T22:13:20Z\""), "the page kept the old date")
        XCTAssertFalse(html.contains("2020-09-13"))
        let man = try String(contentsOfFile: output + "/tool.man", encoding: .utf8)
        XCTAssertTrue(man.contains(".TH \"TOOL\" \"1\" \"2023-11-14\""), man.prefix(300) + "")
    }
}
