import Foundation
import NotepressAST
@testable import NotepressHTML
import NotepressResources
import NotepressThemes
import XCTest
import NotepressTestSupport

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
        XCTAssertTrue(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\" dir=\"ltr\" data-size-category=\"large\">\n<head>\n<meta charset=\"utf-8\">\n"), page)
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
            + "<p dir=\"auto\">Milk <span class=\"alert\">NOW</span></p>\n"), runs[0].stdoutText)
    }

    func testPageWithoutDateOrTitleAndWithLanguage() throws {
        var doc = document(title: nil)
        doc.metadata.fields["lang"] = "de\"x"
        let page = try HTMLPage(theme: theme(), templates: store).render(document: doc, body: "")
        // Not a language tag: the default.
        XCTAssertTrue(page.contains("<html lang=\"en\" dir=\"ltr\""), page)
        XCTAssertTrue(page.contains("<title>Untitled</title>"))
        XCTAssertFalse(page.contains("<time"))
        // Issue 16: the page carries front matter `lang`, and the direction of its script.
        for (lang, expected) in [("he", "<html lang=\"he\" dir=\"rtl\""), ("ar-EG", "<html lang=\"ar-EG\" dir=\"rtl\""),
                                 ("zh-Hant-TW", "<html lang=\"zh-Hant-TW\" dir=\"ltr\""), ("de", "<html lang=\"de\" dir=\"ltr\"")] {
            doc.metadata.fields["lang"] = lang
            XCTAssertTrue(try HTMLPage(theme: theme(), templates: store).render(document: doc, body: "").contains(expected), lang)
        }
        doc.metadata.fields["dir"] = "ltr"
        XCTAssertTrue(try HTMLPage(theme: theme(), templates: store).render(document: doc, body: "").contains("<html lang=\"de\" dir=\"ltr\""))
        doc.metadata.fields["lang"] = "he"
        XCTAssertTrue(try HTMLPage(theme: theme(), templates: store).render(document: doc, body: "").contains("<html lang=\"he\" dir=\"ltr\""),
                      "front matter dir wins")
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

    /// Line heights in points, xSmall … AX5: the HIG's published leading for each category
    /// (``ThemeTests/appleLeading``, typed in from the twelve tables).
    static let lineHeights: [TextStyle: [Double]] = Dictionary(uniqueKeysWithValues: ThemeTests.appleLeading)

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
        XCTAssertTrue(root5.contains("--np-body-size: 3.3125rem; --np-body-line: 3.875rem;"), String(root5))
        XCTAssertTrue(css.contains("html { font-size: 100%;"))
        XCTAssertTrue(css.contains("@media (prefers-color-scheme: dark) {\n  :root {\n    --np-text: #f2f2f7;"), css)
    }

    func testTextStyleClassesAndRoleRules() throws {
        let css = Stylesheet(theme: try theme()).css()
        XCTAssertTrue(css.contains(".text-headline { font-family: var(--np-headline-font); font-weight: 600; font-size: var(--np-headline-size); line-height: var(--np-headline-line); }"), css)
        for s in TextStyle.allCases { XCTAssertTrue(css.contains(".text-\(s.rawValue) {"), "\(s)") }
        // Issue 16: one font list per style, the theme's fallbacks then its East Asian families.
        XCTAssertTrue(css.contains("  --np-body-font: -apple-system, system-ui, \"Helvetica Neue\", \"Segoe UI\", \"Roboto\", \"Liberation Sans\", \"Arial\", "
            + "\"PingFang SC\", \"Hiragino Sans\", \"Microsoft YaHei\", \"Noto Sans CJK SC\", sans-serif;\n"), css)
        // Headings: h1 title1 (bold), h2 title2 (bold), h3 title3 (semibold), h4–h6 headline.
        XCTAssertTrue(css.contains("h1 { font-family: var(--np-title1-font); font-weight: 700; font-size: var(--np-title1-size); line-height: var(--np-title1-line); }"))
        XCTAssertTrue(css.contains("h2 { font-family: var(--np-title2-font); font-weight: 700; font-size: var(--np-title2-size);"))
        XCTAssertTrue(css.contains("h3 { font-family: var(--np-title3-font); font-weight: 600; font-size: var(--np-title3-size);"))
        XCTAssertTrue(css.contains("h6 { font-family: var(--np-headline-font); font-weight: 600; font-size: var(--np-headline-size);"))
        XCTAssertTrue(css.contains("--np-title1-size: 1.75rem; --np-title1-line: 2.125rem;"), "28 pt / 34 pt at Large")
        XCTAssertTrue(css.contains("ol > li::marker { font-weight: 700; font-variant-numeric: tabular-nums; }"))
        XCTAssertTrue(css.contains("td { font-family: var(--np-subheadline-font); font-weight: 400; font-size: var(--np-subheadline-size);"))
        XCTAssertTrue(css.contains(".footnotes { font-family: var(--np-footnote-font); font-weight: 400; font-size: var(--np-footnote-size);"))
        XCTAssertTrue(css.contains("pre { font-family: var(--np-footnote-font); font-weight: 400; font-size: var(--np-footnote-size); line-height: var(--np-footnote-line); "
            + "font-family: \"Menlo\", ui-monospace, \"Consolas\", \"Liberation Mono\", \"DejaVu Sans Mono\", \"Courier New\", monospace;"), css)
        XCTAssertTrue(css.contains(".alert { color: var(--np-alert); }"))
        let reading = Stylesheet(theme: try theme("reading")).css()
        XCTAssertTrue(reading.contains("  --np-body-font: \"Charter\", ui-serif, \"Bitstream Charter\", \"Iowan Old Style\", \"Georgia\", \"Times New Roman\", "
            + "\"Songti SC\", \"Hiragino Mincho ProN\", \"SimSun\", \"Noto Serif CJK SC\", serif;\n"), reading)
        XCTAssertTrue(reading.contains("blockquote { font-family: var(--np-subheadline-font); font-weight: 600; font-size: var(--np-subheadline-size);"))
        XCTAssertTrue(reading.contains("--np-background: #f8f1e3;"))
    }

    /// Issue 16: `~script~` falls back to an italic serif (never the `cursive` generic, which
    /// draws upright text where no script face is installed), is never slanted synthetically,
    /// and its script faces' small x-height is made up for Latin text only.
    func testScriptFontStackHasAVisibleFallback() throws {
        let css = Stylesheet(theme: try theme()).css()
        XCTAssertTrue(css.contains(".script { font-family: \"Notepress Script\", \"Snell Roundhand\", \"Apple Chancery\", \"URW Chancery L\", "
            + "\"Z003\", \"Segoe Script\", \"Zapf Chancery\", serif; font-style: italic; font-synthesis: none; }"), css)
        let face = try XCTUnwrap(css.range(of: "@font-face { font-family: \"Notepress Script\"; src: "))
        let rule = css[face.lowerBound...].prefix { $0 != "}" }
        XCTAssertTrue(rule.contains("local(\"Z003 Medium Italic\"), local(\"Z003 Medium Italic\")") == false, "each source once")
        XCTAssertTrue(rule.contains("local(\"Snell Roundhand\")"))
        XCTAssertTrue(rule.contains("local(\"Z003 Medium Italic\")"), String(rule))
        XCTAssertTrue(rule.contains("local(\"Z003-MediumItalic\")"))
        XCTAssertTrue(rule.contains("size-adjust: 130%; unicode-range: U+0000-024F, U+1E00-1EFF, U+2000-206F, U+20A0-20CF;"), String(rule))
        XCTAssertFalse(css.contains("cursive"), "no cursive generic anywhere")
    }

    /// Issue 16: phone widths and the details seen at 390 px.
    func testPhoneWidthRules() throws {
        let css = Stylesheet(theme: try theme()).css()
        for rule in [
            "table { display: block; width: max-content; max-width: 100%; overflow-x: auto; border-collapse: collapse; }",
            ":not(pre) > code { font-size: 0.875em; background: var(--np-code-background); padding: 0.1em 0.3em; border-radius: 0.3em; overflow-wrap: anywhere; }",
            "ol { padding-inline-start: calc(var(--np-digits, 2) * 1ch + 1.25em); }",
            "sup, sub { font-size: 0.75em; line-height: 0; position: relative; vertical-align: baseline; }",
            "li:has(> input[type=\"checkbox\"]:first-child), li:has(> p:first-child > input[type=\"checkbox\"]:first-child) { list-style-type: none; }",
            "p, li { unicode-bidi: plaintext; }",
            ":is(ol, ul):dir(ltr) > li:dir(rtl), :is(ol, ul):dir(rtl) > li:dir(ltr) { list-style-position: inside; }",
            ".markdown-alert-caution { --np-alert-color: var(--np-alert-caution); }",
        ] {
            XCTAssertTrue(css.contains(rule), rule)
        }
        XCTAssertTrue(css.contains("  --np-alert-note: #0969da;\n"))
        XCTAssertTrue(css.contains("    --np-alert-note: #4493f8;\n"), "dark")
        // The letterpress shows at 1x (at least a pixel each way) and in dark mode.
        XCTAssertTrue(css.contains(".letterpress { color: color-mix(in srgb, var(--np-text) 80%, var(--np-letterpress-shadow));\n"
            + "  text-shadow: 0 max(1px, 0.05em) 0 var(--np-letterpress-light), 0 min(-1px, -0.05em) 0 var(--np-letterpress-shadow); }"), css)
        // Code blocks: the high-contrast theme's have a background now (they had the page's);
        // a theme whose code background is its page's gets a border instead.
        XCTAssertFalse(css.contains("overflow-x: auto; border: 1px solid var(--np-secondary); }"))
        let hc = Stylesheet(theme: try theme("high-contrast")).css()
        XCTAssertTrue(hc.contains("  --np-code-background: #f0f0f0;\n"), hc)
        XCTAssertTrue(hc.contains("    --np-code-background: #1a1a1a;\n"), "dark")
        var same = try theme()
        same.theme.light.codeBackground = same.theme.light.background
        XCTAssertTrue(Stylesheet(theme: same).css().contains("overflow-x: auto; border: 1px solid var(--np-secondary); }"))
    }

    func testBoldTextInCSS() throws {
        let css = Stylesheet(theme: try theme("default", .large, bold: true)).css()
        XCTAssertTrue(css.contains(".text-body { font-family: var(--np-body-font); font-weight: 600;"), css)
        XCTAssertTrue(css.contains(".text-headline { font-family: var(--np-headline-font); font-weight: 700;"))
        XCTAssertTrue(css.contains(".text-title1 { font-family: var(--np-title1-font); font-weight: 800;"))
        XCTAssertTrue(css.contains("ol > li::marker { font-weight: 800;"))
        XCTAssertTrue(css.contains("size category large, Bold Text."))
    }

    func testBadgeShapeMatchesItsBorder() throws {
        let css = Stylesheet(theme: try theme()).css()
        let rule = css[css.range(of: ".date-badge {")!.lowerBound...].prefix { $0 != "}" }
        XCTAssertTrue(rule.contains("font-family: var(--np-caption2-font)"), String(rule))  // dateBadge → caption2
        XCTAssertTrue(rule.contains("float: right;"))
        // Six lines of the badge style, at most 40 % of the column (the AX5 badge, 288 px, left no
        // room for text in a 350 px column), the text scaled down with it.
        XCTAssertTrue(rule.contains("width: min(calc(var(--np-caption2-line) * 6), 40cqi); aspect-ratio: 1;"), String(rule))
        XCTAssertTrue(rule.contains("font-size: min(var(--np-caption2-size), calc(min(calc(var(--np-caption2-line) * 6), 40cqi) / 6 * 0.8));"))
        XCTAssertTrue(rule.contains("border-radius: 50%;"))
        XCTAssertTrue(rule.contains("shape-outside: circle(50% at 50% 50%) border-box; shape-margin: 0.75em;"))
        XCTAssertTrue(css.contains(".note { container-type: inline-size;"))
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
        XCTAssertTrue(css.contains(".index-date { font-family: var(--np-caption1-font); font-weight: 400; font-size: var(--np-caption1-size);"))
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
