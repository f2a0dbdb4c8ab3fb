import Foundation
import XCTest
import NotepressTestSupport

/// Issue 47 item 6: link previews (Quartz's popovers) in real Chromium from `file://`: hovering
/// or focusing a link to another note shows its title and first paragraph (or the linked
/// section), as text only; Escape hides it; an external link shows none; the data is loaded one
/// file at a time, bounded per note.
final class LinkPreviewTests: XCTestCase {
    /// A site of `fillers` extra notes (so the data is split in several files) and three notes:
    /// `a.md` links to `b.md`, to a section of `c.md`, and to an external page.
    func makeSite(fillers: Int) throws -> (input: String, output: String) {
        var files: [String: String] = [
            "a.md": "# Home\n\nSee [the bee](b.md), [the details](sub/c.md#details) and [elsewhere](https://example.com/b.html).\n",
            "b.md": "# Bee note\n\nBees make honey &lt;b&gt;bold&lt;/b&gt; in summer.\n\nSecond paragraph.\n",
            "sub/c.md": "# Sea\n\nSea intro.\n\n## Details\n\nThe details of the sea are salty.\n",
        ]
        for i in 0..<fillers { files["fill/f\(i).md"] = "# Filler \(i)\n\nFiller text \(i).\n" }
        let (input, out, _) = try makeSiteFolder(self, files)
        let r = try NotepressBinary.run(["convert", input, "-o", out, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return (input, out)
    }

    /// The probe's helpers: wait (bounded) for the preview to show or stay hidden.
    static let helpers = """
        const wait = async (ok) => { for (let i = 0; i < 100 && !ok(); i++) await new Promise(r => setTimeout(r, 20)); return ok(); };
        const box = () => document.querySelector('.link-preview');
        const shown = () => !!box() && !box().hidden;
        const read = () => shown() ? [...box().children].map(p => p.className + ':' + p.textContent) : null;
        const link = (t) => [...document.querySelectorAll('.note a')].find(a => a.textContent === t);
        """

    func testHoverAndFocusShowTheTargetsTitleAndExcerptAndAnExternalLinkShowsNone() throws {
        let (_, out) = try makeSite(fillers: 600)
        let result = try probeInChromium(out + "/a.html", width: 1280, Self.helpers + """
            const before = document.querySelector('article.note').getBoundingClientRect().height;
            const bee = link('the bee');
            bee.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
            await wait(shown);
            const hovered = read();
            const r = bee.getBoundingClientRect(), b = box().getBoundingClientRect();
            const geometry = { fixed: getComputedStyle(box()).position, belowLink: b.top >= r.bottom,
              noShift: document.querySelector('article.note').getBoundingClientRect().height === before,
              markup: box().querySelectorAll('b, script').length, describedBy: bee.getAttribute('aria-describedby'), role: box().getAttribute('role') };
            bee.dispatchEvent(new MouseEvent('mouseout', { bubbles: true, relatedTarget: document.body }));
            await wait(() => !shown());
            const afterOut = shown();
            link('the details').focus();
            await wait(() => shown() && read()[0].includes('Sea'));
            const focused = read();
            document.activeElement.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
            const afterEscape = shown();
            link('elsewhere').focus();
            link('elsewhere').dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
            await wait(shown);
            const external = shown();
            const scripts = [...document.querySelectorAll('script[src*="previews/"]')].map(s => s.getAttribute('src'));
            return { hovered, geometry, afterOut, focused, afterEscape, external, scripts };
            """)
        XCTAssertEqual(result["hovered"] as? [String],
                       ["link-preview-title:Bee note", "link-preview-text:Bees make honey <b>bold</b> in summer."], "\(result)")
        let geometry = try XCTUnwrap(result["geometry"] as? [String: Any])
        XCTAssertEqual(geometry["fixed"] as? String, "fixed")
        XCTAssertEqual(geometry["belowLink"] as? Bool, true, "never over the link (and the pointer on it)")
        XCTAssertEqual(geometry["noShift"] as? Bool, true)
        XCTAssertEqual(geometry["markup"] as? Int, 0, "text only")
        XCTAssertEqual(geometry["describedBy"] as? String, "link-preview")
        XCTAssertEqual(geometry["role"] as? String, "tooltip")
        XCTAssertEqual(result["afterOut"] as? Bool, false)
        XCTAssertEqual(result["focused"] as? [String],
                       ["link-preview-title:Sea", "link-preview-section:Details", "link-preview-text:The details of the sea are salty."], "\(result)")
        XCTAssertEqual(result["afterEscape"] as? Bool, false)
        XCTAssertEqual(result["external"] as? Bool, false, "an external link shows no preview")
        // 603 notes: three data files, of which the hovers loaded the meta file and at most the
        // two files of b and c.
        let shards = try FileManager.default.contentsOfDirectory(atPath: out + "/_notepress/previews").filter { $0 != "meta.js" }
        XCTAssertEqual(shards.count, 3, "\(shards)")
        let scripts = try XCTUnwrap(result["scripts"] as? [String])
        XCTAssertTrue(scripts.contains { $0.hasSuffix("/_notepress/previews/meta.js") } && scripts.count <= 3, "\(scripts)")
    }

    func testPreviewDataIsBoundedAndMotionIsReducible() throws {
        let long = String(repeating: "word ", count: 400)
        let (input, out, _) = try makeSiteFolder(self, [
            "a.md": "# A\n\n[B](b.md)\n",
            "b.md": "# B\n\n\(long)\n\n" + (1...20).map { "## S\($0)\n\n\(long)\n" }.joined(separator: "\n"),
        ])
        XCTAssertEqual(try NotepressBinary.run(["convert", input, "-o", out, "-q"]).status, 0)
        let data = try String(contentsOfFile: out + "/_notepress/previews/0.js", encoding: .utf8)
        let line = try XCTUnwrap(data.split(separator: "\n").first { $0.hasPrefix("\"b.html\"") })
        XCTAssertLessThan(line.utf8.count, 1_600, "one note's preview data is bounded: \(line.utf8.count) bytes")
        XCTAssertTrue(line.contains("…"))
        let css = try String(contentsOfFile: out + "/_notepress/notepress.css", encoding: .utf8)
        let motion = try XCTUnwrap(css.components(separatedBy: "@media (prefers-reduced-motion: no-preference) {").dropFirst().first)
        XCTAssertTrue(motion.prefix(120).contains(".link-preview { animation"), "the popover animates only when motion is welcome")
    }
}
