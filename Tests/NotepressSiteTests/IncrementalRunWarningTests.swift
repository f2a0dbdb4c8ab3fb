import Foundation
import XCTest
import NotepressTestSupport

/// Issue 45 (MkDocs leftovers, item 8): a re-run that skips an unchanged file (the manifest
/// says nothing changed) says that file's warnings again, "not converted" ones included.
final class IncrementalRunWarningTests: XCTestCase {
    /// Bug: the second run of a MkDocs project printed no warning for a page whose snippet is
    /// missing (the page was skipped, and its warnings with it): "not converted" vanished.
    func testASkippedFileRepeatsItsWarningsFromTheManifest() throws {
        let dir = try makeTempDir(self)
        _ = try writeTestFile("site_name: W\nmarkdown_extensions:\n  - pymdownx.snippets\n", "proj/mkdocs.yml", in: dir)
        _ = try writeTestFile("# A\n\nText.\n\n--8<-- \"gone.md\"\n", "proj/docs/index.md", in: dir)
        _ = try writeTestFile("# B\n\nFine.\n", "proj/docs/b.md", in: dir)
        let args = [dir.appendingPathComponent("proj").path, "-o", dir.appendingPathComponent("out").path]
        let expected = "index.md:5:1: warning: --8<-- \"gone.md\": no such file"
        let first = try NotepressBinary.run(args)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stderr.contains(expected), first.stderr)
        let again = try NotepressBinary.run(args)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdoutText.contains("converted 0, skipped 2 (unchanged)") || again.stderr.contains("converted 0, skipped 2 (unchanged)"),
                      again.stdoutText + again.stderr)
        XCTAssertTrue(again.stderr.contains(expected), "the skipped page's warning again: \(again.stderr)")
        XCTAssertTrue((again.stdoutText + again.stderr).contains("not converted: 1"), again.stdoutText + again.stderr)
        XCTAssertEqual(again.stderr.components(separatedBy: "gone.md").count, first.stderr.components(separatedBy: "gone.md").count, again.stderr)
        // Another page changed: the unchanged one still says its warning, once.
        _ = try writeTestFile("# B\n\nChanged.\n", "proj/docs/b.md", in: dir)
        let third = try NotepressBinary.run(args)
        XCTAssertEqual(third.stderr.components(separatedBy: expected).count, 2, third.stderr)
    }
}
