import Foundation
import XCTest
import NotepressTestSupport

/// Block anchors (` ^id`, Foam and Obsidian) at every depth, and wiki links to them, through the
/// real binary: the marker leaves the text, the block gets the id, links find it, a missing one
/// is reported.
extension SiteTests {
    func testBlockAnchorsInListsAndQuotesGetIdsAndWikiLinksFindThem() throws {
        let (input, out) = try site([
            "a.md": "First paragraph ^intro\n\n- item one ^item\n- item two\n\n> quoted ^q\n",
            "b.md": "See [[a#^item]] and [[a#^q]] and [[a#^nope]].\n",
        ])
        let r = try NotepressBinary.run(["convert", input, "-o", out, "--wikilinks"], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("b.md:1:34: warning: wiki link '[[a#^nope]]': no block anchor '^nope' in a.md"), r.stderr)
        let a = try article(out + "/a.html")
        XCTAssertTrue(a.contains("""
            <p id="^intro" dir="auto">First paragraph</p>
            <ul>
            <li dir="auto"><span id="^item"></span>item one</li>
            <li dir="auto">item two</li>
            </ul>
            <blockquote dir="auto">
            <p id="^q" dir="auto">quoted</p>
            </blockquote>
            """), a)
        XCTAssertTrue(try article(out + "/b.html").contains(
            #"See <a href="a.html#%5Eitem">a#^item</a> and <a href="a.html#%5Eq">a#^q</a> and <a href="a.html#%5Enope">a#^nope</a>."#))
    }
}
