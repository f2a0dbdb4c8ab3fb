import Foundation
import XCTest
import NotepressTestSupport

/// `![[note#Section]]` in a site run: the section, from its heading to the next heading of the
/// same or a higher level, and nothing after it.
final class EmbedSectionTests: XCTestCase {
    /// Issue 52 item 4: the embedded section ran to the next *higher* heading, so
    /// `![[guide#Install]]` also brought its sibling sections (Usage, Licence) into the page.
    func testSectionEmbedStopsAtTheNextSiblingHeading() throws {
        let guide = """
        # Guide

        Guide intro.

        ## Install

        Install text.

        ### Install details

        Details text.

        ## Usage

        Usage text.

        ## Licence

        Licence text.

        # Appendix

        Appendix text.

        """
        let (input, output, _) = try makeSiteFolder(self, ["host.md": "# Host\n\n![[guide#Install]]\n\nHost after.\n", "guide.md": guide])
        for format in ["html", "ansi", "man"] {
            let r = try NotepressBinary.run(["convert", input, "-o", output + "/" + format, "-t", format, "-q"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let ext = ["html": "html", "ansi": "ans", "man": "man"][format]!
            let page = try String(contentsOfFile: output + "/\(format)/host.\(ext)", encoding: .utf8)
            for kept in ["Install text.", "Details text.", "Host after."] {
                XCTAssertTrue(page.contains(kept), "\(format): \(kept) is missing")
            }
            for left in ["Usage text.", "Licence text.", "Appendix text.", "Guide intro."] {
                XCTAssertFalse(page.contains(left), "\(format): \(left) was embedded with the Install section")
            }
        }
    }
}
