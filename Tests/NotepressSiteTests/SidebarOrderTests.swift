import Foundation
import XCTest
import NotepressTestSupport

/// The sidebar's order by title, and the previous/next links that follow it.
final class SidebarOrderTests: XCTestCase {
    /// Issue 52 item 2: titles compared as written put every capitalised title before every
    /// lower-case one ("Zebra" before "apple pie"), and previous/next followed that order.
    func testTitlesSortWhateverTheirCaseAndPreviousNextFollow() throws {
        let site = try makeSiteFolder(self, [
            "index.md": "# Home\n",
            "z.md": "# Zebra\n", "a.md": "# apple pie\n", "m.md": "# Mango\n", "b.md": "# banana bread\n",
        ])
        let r = try NotepressBinary.run(["convert", site.input, "-o", site.output, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let reader = URL(fileURLWithPath: site.dir).appendingPathComponent("sidebar.py")
        try SiteNavigationTests.sidebarReader.write(to: reader, atomically: true, encoding: .utf8)
        let listed = try runTool("python3", [reader.path, site.output + "/m.html"])
        XCTAssertEqual(listed.status, 0, listed.output)
        let titles = listed.output.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
            .filter { $0.count > 2 && $0[1] != "index.html" }.map { $0[2] }
        XCTAssertEqual(titles, ["apple pie", "banana bread", "Mango", "Zebra"])
        let mango = try String(contentsOfFile: site.output + "/m.html", encoding: .utf8)
        XCTAssertTrue(mango.contains("rel=\"prev\" href=\"b.html\""), "Mango's previous is banana bread")
        XCTAssertTrue(mango.contains("rel=\"next\" href=\"z.html\""), "Mango's next is Zebra")
        let zebra = try String(contentsOfFile: site.output + "/z.html", encoding: .utf8)
        XCTAssertFalse(zebra.contains("rel=\"next\""), "Zebra is last")
    }
}
