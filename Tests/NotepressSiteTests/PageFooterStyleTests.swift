import Foundation
import XCTest
import NotepressTestSupport

/// Issue 47 leftover: a folder run's pages got a "Last updated" line (`p.note-updated`) and an
/// "Edit this page" link (`p.note-edit`), but the site stylesheet had no rules for them: they
/// were body-size paragraphs in the text's colour, the link blue and underlined like any link,
/// and the edit link was printed. In real Chromium from `file://`: both are smaller than the
/// text and in the secondary colour, a thin rule above the first of them, the link in the same
/// colour with a pencil (hidden from screen readers); printed, the date stays and the link goes.
final class PageFooterStyleTests: XCTestCase {
    func testLastUpdatedAndEditLinkAreSmallMutedAndPrintFriendly() throws {
        let (input, out, dir) = try makeSiteFolder(self, [
            "note.md": "---\ncreated: 2020-01-01\nupdated: 2021-02-03\n---\n# Note\n\nThe text of the note.\n",
            "other.md": "# Other\n\nLinks to [the note](note.md).\n",
        ])
        let r = try NotepressBinary.run(["convert", input, "-o", out, "-q", "--backlinks", "--edit-url", "https://example.org/edit/{path}"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let page = out + "/note.html"
        let html = try String(contentsOfFile: page, encoding: .utf8)
        XCTAssertTrue(html.contains("<p class=\"note-updated\">Last updated <time datetime=\"2021-02-03T00:00:00Z\">"), html)
        XCTAssertTrue(html.contains("<p class=\"note-edit\"><a href=\"https://example.org/edit/note.md\">Edit this page</a></p>"), html)

        for width in [1280, 390] {
            let got = try probeInChromium(page, width: width, """
                const px = v => parseFloat(v);
                const style = s => getComputedStyle(document.querySelector(s));
                const body = style('.note p:not([class])'), updated = style('.note-updated'), edit = style('.note-edit');
                const link = style('.note-edit a'), before = getComputedStyle(document.querySelector('.note-edit a'), '::before');
                const probe = document.createElement('span');
                probe.style.color = 'var(--np-secondary)';
                document.body.append(probe);
                const secondary = getComputedStyle(probe).color;
                const u = document.querySelector('.note-updated').getBoundingClientRect();
                const e = document.querySelector('.note-edit').getBoundingClientRect();
                return { bodySize: px(body.fontSize), updatedSize: px(updated.fontSize), editSize: px(edit.fontSize),
                         bodyColor: body.color, updatedColor: updated.color, editColor: edit.color, linkColor: link.color,
                         secondary, linkDecoration: link.textDecorationLine, rule: px(updated.borderTopWidth),
                         editRule: px(edit.borderTopWidth), pencil: before.content, gap: e.top - u.bottom,
                         fits: u.right <= window.innerWidth && e.right <= window.innerWidth };
                """)
            let body = try XCTUnwrap(got["bodySize"] as? Double, "\(got)")
            let updated = try XCTUnwrap(got["updatedSize"] as? Double, "\(got)")
            XCTAssertLessThan(updated, body * 0.9, "\(width) px: Last updated is smaller than the text: \(got)")
            XCTAssertEqual(got["editSize"] as? Double, updated, "\(got)")
            let secondary = try XCTUnwrap(got["secondary"] as? String)
            XCTAssertNotEqual(secondary, got["bodyColor"] as? String, "\(got)")
            XCTAssertEqual(got["updatedColor"] as? String, secondary, "\(width) px: muted: \(got)")
            XCTAssertEqual(got["linkColor"] as? String, secondary, "\(width) px: the edit link is muted too: \(got)")
            XCTAssertEqual(got["linkDecoration"] as? String, "none", "\(got)")
            XCTAssertEqual(got["rule"] as? Double, 1, "a rule above the first: \(got)")
            XCTAssertEqual(got["editRule"] as? Double, 0, "none between the two: \(got)")
            XCTAssertTrue((got["pencil"] as? String ?? "").unicodeScalars.contains("\u{270E}"), "a pencil before the link: \(got)")
            XCTAssertLessThan(got["gap"] as? Double ?? 99, 8, "the two lines sit together: \(got)")
            XCTAssertEqual(got["fits"] as? Bool, true, "\(got)")
        }

        // Printed (Chromium's print to PDF, read back with pdftotext): the date stays, the link goes.
        let pdf = URL(fileURLWithPath: dir).appendingPathComponent("note.pdf").path
        let printed = try runTool("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                                               "--print-to-pdf=" + pdf, URL(fileURLWithPath: page).absoluteString])
        XCTAssertEqual(printed.status, 0, printed.output)
        let text = try runTool("pdftotext", [pdf, "-"]).output
        XCTAssertTrue(text.contains("The text of the note."), text)
        XCTAssertTrue(text.contains("Last updated 3 Feb 2021"), text)
        XCTAssertFalse(text.contains("Edit this page"), text)
    }
}
