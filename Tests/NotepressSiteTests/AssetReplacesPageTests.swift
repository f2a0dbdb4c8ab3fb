import Foundation
import XCTest
import NotepressTestSupport

/// The new-user try-out: `in/report.md` links `report.pdf`, a PDF of the user's beside it;
/// `convert -t pdf,html in -o out` copied that file over `out/report.pdf`, the conversion of
/// `report.md`, and said "converted 2", exit 0: a page silently lost. An asset whose copy would
/// replace a page's output is now not copied, an error of the run, and the page is kept.
final class AssetReplacesPageTests: XCTestCase {
    func testAnAssetNamedLikeAPagesOutputIsNotCopiedOverIt() throws {
        let dir = try makeTempDir(self)
        let input = dir.path + "/in", out = dir.path + "/out"
        try writeTestFiles(["report.md": "# Report\n\nSee [mine](report.html) and ![pic](pic.png).\n",
                            "report.html": "<p>my own page</p>\n", "pic.png": "not really a picture\n"], into: input)
        let r = try NotepressBinary.run(["convert", input, "-o", out])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("in/report.html: error: its copy would replace \(out)/report.html, the output of \(input)/report.md; "
            + "not copied (rename one of them)"), r.stderr)
        let page = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        XCTAssertTrue(page.hasPrefix("<!DOCTYPE html>"), page)
        XCTAssertFalse(page.contains("my own page"))
        // Other assets are copied as before.
        XCTAssertEqual(try String(contentsOfFile: out + "/pic.png", encoding: .utf8), "not really a picture\n")
        // The input is untouched.
        XCTAssertEqual(try String(contentsOfFile: input + "/report.html", encoding: .utf8), "<p>my own page</p>\n")
        // A second run (the page unchanged, so not written again) still keeps it.
        let again = try NotepressBinary.run(["convert", input, "-o", out])
        XCTAssertEqual(again.status, 1, again.stderr)
        XCTAssertFalse(try String(contentsOfFile: out + "/report.html", encoding: .utf8).contains("my own page"))
    }
}
