import Foundation
import NotepressAST
@testable import NotepressHTML
import NotepressResources
import NotepressThemes
import XCTest

/// The standalone page, its stylesheet, the date badge and the folder index.
final class HTMLPageTests: XCTestCase {
    let store = TemplateStore()
    /// 2026-11-29T14:17:10Z.
    let created = Date(timeIntervalSince1970: 1_795_961_830)

    func theme(_ name: String = "default", _ category: SizeCategory = .large, bold: Bool = false) throws -> ResolvedTheme {
        try ThemeLoader(store: store).load(name).resolved(category: category, boldText: bold)
    }

    func document(title: String? = "Groceries & <Errands>", created: Date? = nil) -> Document {
        Document(metadata: DocumentMetadata(title: title, created: created, sourceFormat: .note), blocks: [])
    }

    func testPageSkeleton() throws {
        let page = try HTMLPage(theme: theme(), templates: store)
            .render(document: document(created: created), body: "<p>Milk <span class=\"alert\">NOW</span></p>\n")
        XCTAssertTrue(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\" data-size-category=\"large\">\n<head>\n<meta charset=\"utf-8\">\n"), page)
        XCTAssertTrue(page.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"))
        XCTAssertTrue(page.contains("<title>Groceries &amp; &lt;Errands&gt;</title>"))
        XCTAssertTrue(page.contains("<h1 class=\"note-title letterpress\" dir=\"auto\">Groceries &amp; &lt;Errands&gt;</h1>\n"
            + "<time class=\"date-badge\" datetime=\"2026-11-29T14:17:10Z\"><span class=\"day\">29</span> "
            + "<span class=\"month\">Nov</span> <span class=\"year\">2026</span></time>\n"
            + "<p>Milk <span class=\"alert\">NOW</span></p>\n"), page)
        XCTAssertTrue(page.contains("<style>\n/* Notepress stylesheet: theme default, size category large."))
        XCTAssertTrue(page.hasSuffix("</article>\n</body>\n</html>\n"))
        XCTAssertFalse(page.contains("{{"))
        // The same note through the binary in two processes (each with its own hash seed): the
        // same bytes, with this title, badge and body.
        let note = Data("---\ntitle: Groceries & <Errands>\ncreated: 2026-11-29T14:17:10Z\n---\nMilk NOW\n".utf8)
        let runs = try (0..<2).map { _ in try NotepressBinary.run(["convert", "-t", "html", "-f", "note", "-"], stdin: note) }
        XCTAssertEqual(runs[0].status, 0, runs[0].stderr)
        XCTAssertEqual(runs[0].stdout, runs[1].stdout)
        XCTAssertTrue(runs[0].stdoutText.contains("<h1 class=\"note-title letterpress\" dir=\"auto\">Groceries &amp; &lt;Errands&gt;</h1>\n"
            + "<time class=\"date-badge\" datetime=\"2026-11-29T14:17:10Z\"><span class=\"day\">29</span> "
            + "<span class=\"month\">Nov</span> <span class=\"year\">2026</span></time>\n"
            + "<p>Milk <span class=\"alert\">NOW</span></p>\n"), runs[0].stdoutText)
    }

    func testPageWithoutDateOrTitleAndWithLanguage() throws {
        var doc = document(title: nil)
        doc.metadata.fields["lang"] = "de\"x"
        let page = try HTMLPage(theme: theme(), templates: store).render(document: doc, body: "")
        XCTAssertTrue(page.contains("<html lang=\"de&quot;x\""))
        XCTAssertTrue(page.contains("<title>Untitled</title>"))
        XCTAssertFalse(page.contains("<time"))
    }

    func testSizeSwitcherRadioInputsCheckTheChosenCategory() throws {
        let page = try HTMLPage(theme: theme("default", .accessibilityExtraExtraExtraLarge), templates: store)
            .render(document: document(), body: "")
        XCTAssertEqual(page.components(separatedBy: "<input type=\"radio\" name=\"size-category\"").count - 1, 12)
        XCTAssertEqual(page.components(separatedBy: " checked>").count - 1, 1)
        XCTAssertTrue(page.contains("<input type=\"radio\" name=\"size-category\" id=\"size-ax5\" value=\"accessibilityExtraExtraExtraLarge\" checked><label for=\"size-ax5\" title=\"accessibilityExtraExtraExtraLarge\">AX5</label>"))
        XCTAssertTrue(page.contains("data-size-category=\"accessibilityExtraExtraExtraLarge\""))
        XCTAssertFalse(page.contains("<script"), "no JavaScript")
    }

    func testDateFormattingIsUTC() {
        XCTAssertEqual(DateBadge.format(created), "29 Nov 2026")
        XCTAssertEqual(DateBadge.format(Date(timeIntervalSince1970: 0)), "1 Jan 1970")
        // 23:30 UTC on 31 Dec stays 31 Dec whatever the local zone.
        XCTAssertEqual(DateBadge.format(Date(timeIntervalSince1970: 1_798_759_800)), "31 Dec 2026")
        XCTAssertEqual(DateBadge.machineReadable(Date(timeIntervalSince1970: 1_798_759_800)), "2026-12-31T23:30:00Z")
    }

    /// The arithmetic date conversion against Foundation's Gregorian calendar in UTC, over
    /// 1601–2399 (leap days, century years, times before 1970 and fractional seconds included).
    func testDatePartsMatchFoundationCalendar() {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "UTC")!
        var t = -11_644_473_600.0  // 1601-01-01T00:00:00Z
        var checked = 0
        while t < 13_569_465_600 {  // 2400-01-01
            for offset in [0.0, 0.75, 86_399.5, 43_201.25] {
                let d = Date(timeIntervalSince1970: t + offset)
                let c = cal.dateComponents([.year, .month, .day, .hour, .minute, .second], from: d)
                let p = DateBadge.parts(d)
                XCTAssertEqual([p.year, p.month, p.day], [c.year!, c.month!, c.day!], "\(t + offset)")
                XCTAssertEqual(p.time, String(format: "%02d:%02d:%02d", c.hour!, c.minute!, c.second!), "\(t + offset)")
                checked += 1
            }
            t += 86_400 * 29 + 3_607  // walks through every month and day position over the years
        }
        XCTAssertGreaterThan(checked, 10_000)
        XCTAssertEqual(DateBadge.machineReadable(Date(timeIntervalSince1970: 951_782_400)), "2000-02-29T00:00:00Z")
        XCTAssertEqual(DateBadge.machineReadable(Date(timeIntervalSince1970: -0.5)), "1969-12-31T23:59:59.5Z")
    }

    /// libcmark-gfm's `houdini_escape_href` (the dangerous-scheme rule is URLSafetyTests').
    func testURLEscape() {
        XCTAssertEqual(HTMLEscape.url("https://a.org/p?q=1&r='s'#f"), "https://a.org/p?q=1&amp;r=&#x27;s&#x27;#f")
        XCTAssertEqual(HTMLEscape.url("/é x[1]\"<>"), "/%C3%A9%20x%5B1%5D%22%3C%3E")
        XCTAssertEqual(HTMLEscape.url("plain/path-1_2.html"), "plain/path-1_2.html")
        var out: [UInt8] = Array("<".utf8)
        HTMLEscape.appendURL("a b&c", to: &out)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "<a%20b&amp;c")
    }

    func testRemConversion() {
        XCTAssertEqual(Stylesheet.rem(17), "1.0625rem")
        XCTAssertEqual(Stylesheet.rem(16), "1rem")
        XCTAssertEqual(Stylesheet.rem(11), "0.6875rem")
        XCTAssertEqual(Stylesheet.rem(53), "3.3125rem")
        XCTAssertEqual(Stylesheet.rem(17.5), "1.0938rem")
    }

    /// Line heights in points, xSmall … AX5: the HIG's leading at Large (headline and body 22,
    /// subheadline 20, footnote 18, caption1 16, caption2 13) scaled by size ÷ Large size and
    /// rounded half up, the rule `DynamicTypeTable.lineHeight` documents; worked out by hand, not
    /// by the production table.
    static let lineHeights: [TextStyle: [Double]] = [
        .headline:    [18, 19, 21, 22, 25, 27, 30, 36, 43, 52, 61, 69],
        .body:        [18, 19, 21, 22, 25, 27, 30, 36, 43, 52, 61, 69],
        .subheadline: [16, 17, 19, 20, 23, 25, 28, 33, 40, 48, 56, 65],
        .footnote:    [17, 17, 17, 18, 21, 24, 26, 32, 37, 46, 53, 61],
        .caption1:    [15, 15, 15, 16, 19, 21, 24, 29, 35, 43, 49, 57],
        .caption2:    [13, 13, 13, 13, 15, 18, 20, 24, 28, 34, 40, 47],
    ]

    /// Every category has its rule with every style's size and line height in rem.
    func testCSSForEachCategory() throws {
        let t = try theme()
        let css = Stylesheet(theme: t).css()
        for c in SizeCategory.allCases {
            let head = "html[data-size-category=\"\(c.rawValue)\"], :root:has(#size-\(c.alias):checked) {\n"
            guard let r = css.range(of: head) else { XCTFail("no rule for \(c)"); continue }
            let block = css[r.upperBound...].prefix { $0 != "}" }
            for (style, sizes) in ThemeTests.appleTable {
                let line = Self.lineHeights[style]![c.index]
                XCTAssertTrue(block.contains("--np-\(style.rawValue)-size: \(Stylesheet.rem(sizes[c.index])); --np-\(style.rawValue)-line: \(Stylesheet.rem(line));"),
                              "\(c) \(style): \(block)")
            }
        }
        // :root holds the chosen category (large: body 17pt/22pt).
        XCTAssertTrue(css.contains(":root {\n  color-scheme: light dark;\n"))
        let root = css[css.range(of: ":root {")!.upperBound...].prefix { $0 != "}" }
        XCTAssertTrue(root.contains("--np-body-size: 1.0625rem; --np-body-line: 1.375rem;"), String(root))
        XCTAssertTrue(root.contains("--np-text: #1c1c1e;"))
        let ax5 = Stylesheet(theme: try theme("default", .accessibilityExtraExtraExtraLarge)).css()
        let root5 = ax5[ax5.range(of: ":root {")!.upperBound...].prefix { $0 != "}" }
        XCTAssertTrue(root5.contains("--np-body-size: 3.3125rem; --np-body-line: 4.3125rem;"), String(root5))
        XCTAssertTrue(css.contains("html { font-size: 100%;"))
        XCTAssertTrue(css.contains("@media (prefers-color-scheme: dark) {\n  :root {\n    --np-text: #f2f2f7;"), css)
    }

    func testTextStyleClassesAndRoleRules() throws {
        let css = Stylesheet(theme: try theme()).css()
        XCTAssertTrue(css.contains(".text-headline { font-family: -apple-system, system-ui, sans-serif; font-weight: 600; font-size: var(--np-headline-size); line-height: var(--np-headline-line); }"), css)
        for s in TextStyle.allCases { XCTAssertTrue(css.contains(".text-\(s.rawValue) {"), "\(s)") }
        XCTAssertTrue(css.contains("h3 { font-family: -apple-system, system-ui, sans-serif; font-weight: 400; font-size: var(--np-subheadline-size);"))
        XCTAssertTrue(css.contains("h1 { font-family: -apple-system, system-ui, sans-serif; font-weight: 600; font-size: var(--np-headline-size);"))
        XCTAssertTrue(css.contains("ol > li::marker { font-weight: 700; font-variant-numeric: tabular-nums; }"))
        XCTAssertTrue(css.contains("td { font-family: -apple-system, system-ui, sans-serif; font-weight: 400; font-size: var(--np-subheadline-size);"))
        XCTAssertTrue(css.contains(".footnotes { font-family: -apple-system, system-ui, sans-serif; font-weight: 400; font-size: var(--np-footnote-size);"))
        XCTAssertTrue(css.contains("pre { font-family: -apple-system, system-ui, sans-serif; font-weight: 400; font-size: var(--np-footnote-size); line-height: var(--np-footnote-line); font-family: \"Menlo\", ui-monospace, monospace;"))
        XCTAssertTrue(css.contains(".script { font-family: \"Snell Roundhand\", \"Apple Chancery\", \"Segoe Script\", \"Z003\", \"URW Chancery L\", cursive; }"))
        XCTAssertTrue(css.contains(".alert { color: var(--np-alert); }"))
        XCTAssertTrue(css.contains(".letterpress { text-shadow: 0 max(1px, 0.06em) 0 var(--np-letterpress-light), 0 min(-1px, -0.04em) 0 var(--np-letterpress-shadow); }"))
        let reading = Stylesheet(theme: try theme("reading")).css()
        XCTAssertTrue(reading.contains("p { font-family: \"Charter\", ui-serif, serif; font-weight: 400;"), reading)
        XCTAssertTrue(reading.contains("blockquote { font-family: \"Charter\", ui-serif, serif; font-weight: 600; font-size: var(--np-subheadline-size);"))
        XCTAssertTrue(reading.contains("--np-background: #f8f1e3;"))
    }

    func testBoldTextInCSS() throws {
        let css = Stylesheet(theme: try theme("default", .large, bold: true)).css()
        XCTAssertTrue(css.contains(".text-body { font-family: -apple-system, system-ui, sans-serif; font-weight: 600;"), css)
        XCTAssertTrue(css.contains(".text-headline { font-family: -apple-system, system-ui, sans-serif; font-weight: 700;"))
        XCTAssertTrue(css.contains("ol > li::marker { font-weight: 800;"))
        XCTAssertTrue(css.contains("size category large, Bold Text."))
    }

    func testBadgeShapeMatchesItsBorder() throws {
        let css = Stylesheet(theme: try theme()).css()
        let rule = css[css.range(of: ".date-badge {")!.lowerBound...].prefix { $0 != "}" }
        XCTAssertTrue(rule.contains("font-size: var(--np-caption2-size)"), String(rule))  // dateBadge → caption2
        XCTAssertTrue(rule.contains("float: right;"))
        XCTAssertTrue(rule.contains("width: calc(var(--np-caption2-line) * 6); height: calc(var(--np-caption2-line) * 6);"))
        XCTAssertTrue(rule.contains("border-radius: 50%;"))
        XCTAssertTrue(rule.contains("shape-outside: circle(50% at 50% 50%) border-box; shape-margin: 0.75em;"))
    }

    func testCSSEscapesFamilyNames() throws {
        var t = try theme()
        t.theme.styles[.body]!.family = "Evil\"</style><script>"
        let css = Stylesheet(theme: t).css()
        XCTAssertFalse(css.contains("</style"))
        XCTAssertTrue(css.contains("\"Evil\\22 \\3c /style\\3e \\3c script\\3e \""), css)
    }

    func testIndexOrderAndMarkup() throws {
        let d1 = Date(timeIntervalSince1970: 1_700_000_000), d2 = Date(timeIntervalSince1970: 1_790_000_000)
        let html = try HTMLIndex(theme: theme(), templates: store).render(entries: [
            (title: "Old", created: d1, href: "old.html"),
            (title: "Zeta", created: d2, href: "z.html"),
            (title: "No date", created: nil, href: "n.html"),
            (title: "Alpha & Co", created: d2, href: "a b.html"),
        ])
        let rows = html.components(separatedBy: "\n").filter { $0.hasPrefix("<li") }
        XCTAssertEqual(rows, [
            "<li class=\"index-entry\"><a class=\"index-title text-headline letterpress\" dir=\"auto\" href=\"a%20b.html\">Alpha &amp; Co</a> <time class=\"index-date\" datetime=\"2026-09-21T14:13:20Z\">21 Sep 2026</time></li>",
            "<li class=\"index-entry\"><a class=\"index-title text-headline letterpress\" dir=\"auto\" href=\"z.html\">Zeta</a> <time class=\"index-date\" datetime=\"2026-09-21T14:13:20Z\">21 Sep 2026</time></li>",
            "<li class=\"index-entry\"><a class=\"index-title text-headline letterpress\" dir=\"auto\" href=\"old.html\">Old</a> <time class=\"index-date\" datetime=\"2023-11-14T22:13:20Z\">14 Nov 2023</time></li>",
            "<li class=\"index-entry\"><a class=\"index-title text-headline letterpress\" dir=\"auto\" href=\"n.html\">No date</a></li>",
        ])
        XCTAssertTrue(html.contains("<h1 class=\"note-title letterpress\" dir=\"auto\">Notes</h1>"))
        XCTAssertTrue(html.contains("<title>Notes</title>"))
        let css = Stylesheet(theme: try theme()).css()
        XCTAssertTrue(css.contains("min-height: calc(var(--np-headline-line) * 2); padding: calc(var(--np-caption1-line) * 0.5) 0;"), css)
        XCTAssertTrue(css.contains(".index-date { font-family: -apple-system, system-ui, sans-serif; font-weight: 400; font-size: var(--np-caption1-size);"))
    }

    /// A data folder's `html/page.html` replaces the built-in one; a name with no value renders as
    /// nothing (Mustache's rule; the old substitution raised an error for it).
    func testTemplateFromDataDirAndUnknownNameRendersEmpty() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("np-tpl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("html"), withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        try "<title>{{ title }}</title>{{{body}}}".write(to: dir.appendingPathComponent("html/page.html"), atomically: true, encoding: .utf8)
        let custom = TemplateStore(dataDirectory: dir)
        XCTAssertEqual(try HTMLPage(theme: theme(), templates: custom).render(document: document(title: "a<b"), body: "<p>{{x}}</p>"),
                       "<title>a&lt;b</title><p>{{x}}</p>")
        try "[{{nope}}]{{^nope}}none{{/nope}}".write(to: dir.appendingPathComponent("html/page.html"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try HTMLPage(theme: theme(), templates: custom).render(document: document(), body: ""), "[]none")
    }
}
