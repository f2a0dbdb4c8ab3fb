import Foundation
import XCTest
import NotepressTestSupport

/// Issue 47 item 7, in real Chromium from `file://`: on a phone (390 px) the page's title starts
/// within the first 120 px (about 300 px before: a two-row header, the text-size switcher and
/// the "All notes" link came first; they now open with the menu); a long sidebar section name
/// wraps beside its disclosure triangle, not under it; a title taken from the file name is set
/// as a page's own first heading is.
final class PhoneLayoutTests: XCTestCase {
    func probe(_ page: String, width: Int, _ script: String) throws -> [String: Any] {
        try probeInChromium(page, width: width, script)
    }

    func testPhoneTitleNearTheTopSidebarLabelsBesideTheirTriangleFileNameTitleAsAHeading() throws {
        let long = "A very long section name that surely wraps in the sidebar"
        let (input, out, _) = try makeSiteFolder(self, [
            long + "/inner.md": "# Inner page\n\n## One\n\nText.\n\n## Two\n\nText.\n",
            "home.md": "# Home\n\nText.\n",
            "no-heading.md": "Only a paragraph: the title comes from the file name.\n",
        ])
        let r = try NotepressBinary.run(["convert", input, "-o", out, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let inner = out + "/" + long + "/inner.html"
        let phone = try probe(inner, width: 390, """
            const title = document.querySelector('.note h1, .note-title').getBoundingClientRect().top;
            const shown = s => { const e = document.querySelector(s); return !!e && getComputedStyle(e).display !== 'none'; };
            const before = [shown('.theme-toggle'), shown('.size-switcher'), shown('.site-nav')];
            document.querySelector('.nav-toggle').click();
            return { title, before, after: [shown('.theme-toggle'), shown('.size-switcher'), shown('.site-nav'), shown('.site-sidebar')] };
            """)
        let top = try XCTUnwrap(phone["title"] as? Double, "\(phone)")
        XCTAssertLessThanOrEqual(top, 120, "the title starts \(top) px down at 390 px")
        XCTAssertEqual(phone["before"] as? [Bool], [false, false, false], "\(phone)")
        XCTAssertEqual(phone["after"] as? [Bool], [true, true, true, true], "the menu opens them: \(phone)")

        let wide = try probe(inner, width: 1280, """
            const summary = document.querySelector('.nav-tree summary');
            const label = summary.querySelector('span, a');
            const triangle = getComputedStyle(summary, '::before').content;
            const lines = [...label.getClientRects()].map(r => Math.round(r.left));
            return { lines, labelLeft: Math.round(label.getBoundingClientRect().left), summaryLeft: Math.round(summary.getBoundingClientRect().left), triangle };
            """)
        let lines = try XCTUnwrap(wide["lines"] as? [Int], "\(wide)")
        XCTAssertGreaterThan(lines.count, 0)
        XCTAssertEqual(Set(lines).count, 1, "every line of a wrapped label starts at one x: \(wide)")
        let labelLeft = try XCTUnwrap(wide["labelLeft"] as? Int), summaryLeft = try XCTUnwrap(wide["summaryLeft"] as? Int)
        XCTAssertGreaterThan(labelLeft, summaryLeft + 5, "the label sits right of the triangle: \(wide)")

        let titles = try probe(out + "/no-heading.html", width: 1280, """
            const t = getComputedStyle(document.querySelector('.note-title'));
            return { size: t.fontSize, weight: t.fontWeight };
            """)
        let heading = try probe(out + "/home.html", width: 1280, """
            const h = getComputedStyle(document.querySelector('.note h1'));
            return { size: h.fontSize, weight: h.fontWeight };
            """)
        XCTAssertEqual(titles["size"] as? String, heading["size"] as? String, "\(titles) vs \(heading)")
        XCTAssertEqual(titles["weight"] as? String, heading["weight"] as? String, "\(titles) vs \(heading)")
    }
}
