import Foundation
import XCTest
import NotepressTestSupport

/// The search page as a user types into it (Chromium headless, from `file://`): a word is found
/// whatever its case in the note and in the query.
final class SearchQueryTests: XCTestCase {
    /// Issue 52 item 1: the index kept words as written (`Backlinks`, `Wombats`) while the page
    /// lower-cases the query, so a word that appears capitalised only was never found, typed as
    /// is or in lower case.
    func testCapitalisedWordIsFoundTypedAsIsOrInLowerCase() throws {
        let site = try makeSiteFolder(self, [
            "index.md": "# Home\n\nNothing to see.\n",
            "notes/garden.md": "# Garden\n\nBacklinks tie Wombats to the Orchard.\n",
            "notes/other.md": "# Other\n\nA page without the words.\n",
        ])
        let r = try NotepressBinary.run(["convert", site.input, "-o", site.output, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        for query in ["Backlinks", "backlinks", "WOMBATS", "orchard"] {
            let dom = try searchDOM(site.output, query)
            let results = try XCTUnwrap(dom.range(of: "<ol class=\"search-results\">"), "no result list for \(query)").upperBound
            let list = dom[results...].components(separatedBy: "</ol>")[0]
            XCTAssertTrue(list.contains("notes/garden.html"), "“\(query)” did not find the note: \(list.prefix(600))")
            XCTAssertFalse(list.contains("notes/other.html"), "“\(query)”: \(list.prefix(600))")
        }
    }

    /// The DOM of `search.html?q=QUERY` in `out` after its scripts ran (virtual time: as fast
    /// as the machine allows, never cut short by it).
    func searchDOM(_ out: String, _ query: String) throws -> String {
        let q = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let r = try runTool("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=10000",
                                         "--dump-dom", "file://" + out + "/search.html?q=" + q])
        XCTAssertTrue(r.output.contains("</html>"), "chromium printed no page: \(r.output.suffix(2000))")
        return r.output
    }
}
