import Foundation
import XCTest
import NotepressTestSupport

/// Issue 47 item 1: a site page's own contents, in real Chromium from `file://`: beside the text
/// and open at 1280 px, folded above the text at 390 px, the section being read marked as the
/// reader scrolls, from the same headings and ids as `--toc`; none for a page with fewer than
/// two sections.
final class PageContentsTests: XCTestCase {
    static let guide: String = {
        var t = "# Guide\n\nIntro.\n\n"
        for i in 1...5 {
            t += "## Section \(i)\n\n" + String(repeating: "Lorem ipsum dolor sit amet. ", count: 60) + "\n\n"
            if i == 2 { t += "### Detail two\n\nMore.\n\n" }
        }
        return t
    }()

    /// The page's DOM facts after its script ran, at `width` px, scrolled to `scrollTo` (an id).
    func probe(_ page: String, width: Int, scrollTo: String?) throws -> [String: Any] {
        try probeInChromium(page, width: width, """
            const later = ms => new Promise(r => setTimeout(r, ms));
            const current = () => [...document.querySelectorAll('.page-toc a[aria-current="true"]')].map(a => a.textContent).join();
            await later(50);
            // After a scroll, until the marked section changes (the page marks it shortly after).
            \(scrollTo.map { "const was = current(); document.getElementById('\($0)').scrollIntoView(); window.dispatchEvent(new Event('scroll')); for (let i = 0; i < 40 && current() === was; i++) await later(50);" } ?? "")
            const d = document.querySelector('details.page-contents');
            const nav = d && d.querySelector('nav.page-toc[aria-label="On this page"]');
            const r = d && d.getBoundingClientRect(), art = document.querySelector('article.note').getBoundingClientRect();
            return d ? { open: d.open, links: [...nav.querySelectorAll('a')].map(a => a.getAttribute('href')),
                current: [...nav.querySelectorAll('a[aria-current="true"]')].map(a => a.textContent),
                beside: r.left >= art.right, above: r.bottom <= art.top } : { none: true };
            """)
    }

    func testContentsBesideTheTextOnWideScreensFoldedAboveOnPhonesCurrentSectionMarked() throws {
        let (input, out, _) = try makeSiteFolder(self, ["guide.md": Self.guide, "short.md": "# Short\n\n## Only one\n\nText.\n",
                                                        "two.md": "# Two\n\n## A\n\nx\n\n## B\n\ny\n"])
        let r = try NotepressBinary.run(["convert", input, "-o", out, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        // Exactly two sections are enough (audit: a page needed three).
        let two = try String(contentsOfFile: out + "/two.html", encoding: .utf8)
        XCTAssertTrue(two.contains("<nav class=\"page-toc\" aria-label=\"On this page\">"), two)
        let links = ["#section-1", "#section-2", "#detail-two", "#section-3", "#section-4", "#section-5"]
        let wide = try probe(out + "/guide.html", width: 1280, scrollTo: nil)
        XCTAssertEqual(wide["open"] as? Bool, true, "\(wide)")
        XCTAssertEqual(wide["beside"] as? Bool, true, "\(wide)")
        XCTAssertEqual(wide["links"] as? [String], links, "the same headings and ids as --toc, levels 2 and 3")
        XCTAssertEqual(wide["current"] as? [String], ["Section 1"], "\(wide)")
        let scrolled = try probe(out + "/guide.html", width: 1280, scrollTo: "section-3")
        XCTAssertEqual(scrolled["current"] as? [String], ["Section 3"], "\(scrolled)")
        let phone = try probe(out + "/guide.html", width: 390, scrollTo: nil)
        XCTAssertEqual(phone["open"] as? Bool, false, "\(phone)")
        XCTAssertEqual(phone["above"] as? Bool, true, "\(phone)")
        let short = try probe(out + "/short.html", width: 1280, scrollTo: nil)
        XCTAssertEqual(short["none"] as? Bool, true, "one section: no contents")
        // The same ids as --toc's table.
        let toc = try NotepressBinary.run(["convert", input + "/guide.md", "-t", "html", "--toc"])
        for l in links { XCTAssertTrue(toc.stdoutText.contains("<a href=\"\(l)\">"), l) }
    }
}
