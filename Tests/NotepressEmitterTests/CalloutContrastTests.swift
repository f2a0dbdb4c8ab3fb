import Foundation
import XCTest
import NotepressTestSupport
import NotepressThemes

/// Callout and alert titles as Chromium draws them, in light and in dark mode: their computed
/// colour against the background behind them meets WCAG AA (4.5:1).
final class CalloutContrastTests: XCTestCase {
    static let kinds = ["note", "tip", "important", "warning", "caution",
                        "info", "todo", "abstract", "success", "question", "failure", "danger", "bug", "example", "quote"]

    /// Issue 52 item 10: dark-mode callout titles were given the light colour (#0969da on the
    /// dark background, 3.2:1).
    func testCalloutTitlesMeetWCAGAAInLightAndDarkMode() throws {
        let dir = try makeTempDir(self)
        let body = Self.kinds.map { "> [!\($0)]\n> Body of \($0).\n" }.joined(separator: "\n")
        let md = try writeTestFile("# Callouts\n\n" + body, "callouts.md", in: dir)
        let html = dir.appendingPathComponent("callouts.html")
        let r = try NotepressBinary.run(["convert", md.path, "-o", html.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let probe = """
        <script>window.addEventListener('load', () => {
          const bg = e => { for (; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor;
            if (c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') return c; } return 'rgb(255, 255, 255)'; };
          const out = [...document.querySelectorAll('.markdown-alert-title')].map(t =>
            [t.parentElement.className, getComputedStyle(t).color, bg(t)].join('|'));
          document.body.setAttribute('data-titles', out.join(';'));
        });</script></body>
        """
        let page = try String(contentsOf: html, encoding: .utf8)
        let probed = dir.appendingPathComponent("probe.html")
        try page.replacingOccurrences(of: "</body>", with: probe).write(to: probed, atomically: true, encoding: .utf8)
        for dark in [false, true] {
            let (status, dom) = try runTool("chromium", ["--headless", "--no-sandbox", "--disable-gpu"] + (dark ? ["--force-dark-mode"] : [])
                                            + ["--dump-dom", probed.absoluteString])
            XCTAssertEqual(status, 0)
            guard let a = dom.range(of: "data-titles=\""), let end = dom[a.upperBound...].firstIndex(of: "\"") else {
                return XCTFail("no titles in the DOM: \(dom.prefix(500))")
            }
            let titles = dom[a.upperBound..<end].components(separatedBy: ";")
            XCTAssertEqual(titles.count, Self.kinds.count, "\(titles)")
            for t in titles {
                let f = t.components(separatedBy: "|")
                guard f.count == 3, let fg = Self.rgb(f[1]), let bg = Self.rgb(f[2]) else { XCTFail("unreadable: \(t)"); continue }
                let ratio = Contrast.ratio(fg, bg)
                XCTAssertGreaterThanOrEqual(ratio, 4.5, "\(dark ? "dark" : "light") mode, \(f[0]): title \(fg.hex) on \(bg.hex) is \(ratio):1")
            }
        }
    }

    /// `rgb(R, G, B)` (or `rgba` with full opacity) as a colour.
    static func rgb(_ css: String) -> RGBColor? {
        let n = css.split(whereSeparator: { !$0.isNumber && $0 != "." }).compactMap { Double($0) }
        guard css.hasPrefix("rgb"), n.count >= 3, n.count == 3 || n[3] == 1 else { return nil }
        return RGBColor(red: UInt8(n[0]), green: UInt8(n[1]), blue: UInt8(n[2]))
    }
}
