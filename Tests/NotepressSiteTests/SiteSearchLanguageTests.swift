import Foundation
import XCTest
import NotepressTestSupport

/// Issue 46, items 1–4, through the real binary and real Chromium from `file://`: search finds
/// what people type (accents, full case folding, NFD text, Korean, Thai, one Chinese character),
/// all words must match, quoted phrases in order, `-word` excludes, and results carry the
/// section's heading and an excerpt with the terms marked; `/`, arrows and Enter; the count is
/// announced.
final class SiteSearchLanguageTests: XCTestCase {
    static let epoch = ["SOURCE_DATE_EPOCH": "1700000000"]

    /// The notes of the site the tests search (`NFD` pages written decomposed).
    static let notes: [String: String] = [
        "index.md": "# Home\n\nWelcome.\n",
        "cafe.md": "# Menu\n\nWe met at the café near the station.\n",
        "diataxis.md": "# Diátaxis framework\n\nA way to write documentation.\n",
        "strasse.md": "# Streets\n\nDie Straße ist lang.\n",
        "upper.md": "# Shouting\n\nDIE STRASSE IST LANG.\n",
        "nfd.md": "# Decomposed\n\nZoe\u{0308} wrote \u{1112}\u{1161}\u{11AB}\u{1100}\u{116E}\u{11A8}\u{110B}\u{1165} notes.\n",
        "thai.md": "# Thai\n\nภาษาไทยเป็นภาษาที่สวยงามและมีประวัติศาสตร์ยาวนานมากในภูมิภาคเอเชียตะวันออกเฉียงใต้\n",
        "zh.md": "# 笔记\n\n我们在中国学习。\n",
        "metric.md": "# One\n\nThe metric alone.\n",
        "proxy.md": "# Two\n\nThe proxy alone.\n",
        "both.md": "# Three\n\nA metric proxy for quality.\n\n## Details\n\nNothing more here.\n",
        "fox1.md": "# Fox one\n\nThe quick red fox jumps.\n",
        "fox2.md": "# Fox two\n\nA fox that is red sleeps.\n",
        "deep.md": "# Long page\n\nIntro text.\n\n## Harbour notes\n\nShips leave the harbour at dawn with a cargo of wombat wool.\n",
        "backlinks.md": "# Backlinks\n\nPages that link here.\n",
    ]

    var site: (input: String, output: String, dir: String)!

    override func setUpWithError() throws {
        site = try makeSiteFolder(self, Self.notes)
        let r = try NotepressBinary.run(["convert", site.input, "-o", site.output, "-q"], environment: Self.epoch)
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    /// The DOM of `url` after its scripts ran (Chromium headless, virtual time).
    static func dom(_ url: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try runTool("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=10000",
                                         "--dump-dom", url])
        XCTAssertTrue(r.output.contains("</html>"), "chromium printed no page for \(url):\n\(r.output.suffix(2000))", file: file, line: line)
        return r.output
    }

    /// The search page's results for `query`: each result's first link (the page), relative to the output.
    func results(_ query: String, file: StaticString = #filePath, line: UInt = #line) throws -> (pages: [String], html: String) {
        let q = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let page = try Self.dom("file://" + site.output + "/search.html?q=" + q, file: file, line: line)
        guard let start = page.range(of: "<ol class=\"search-results\">"),
              let end = page.range(of: "</ol>", range: start.upperBound..<page.endIndex) else {
            XCTFail("no results list", file: file, line: line)
            return ([], page)
        }
        let list = String(page[start.upperBound..<end.lowerBound])
        let prefix = "<li><a href=\"file://" + site.output + "/"
        let pages = list.components(separatedBy: prefix).dropFirst().map { String($0.prefix { $0 != "\"" }) }
        XCTAssertFalse(page.contains("Search is not available"), "index or lunr missing", file: file, line: line)
        return (pages, list)
    }

    func testAccentsAreIgnoredBothWays() throws {
        XCTAssertEqual(try results("cafe").pages, ["cafe.html"])
        XCTAssertEqual(try results("café").pages, ["cafe.html"])
        XCTAssertEqual(try results("diataxis").pages, ["diataxis.html"])
        XCTAssertEqual(try results("DIÁTAXIS").pages, ["diataxis.html"])
    }

    func testFullCaseFoldingFindsStrasseForStrasseWithSharpS() throws {
        XCTAssertEqual(Set(try results("strasse").pages), ["strasse.html", "upper.html"])
        XCTAssertEqual(Set(try results("Straße").pages), ["strasse.html", "upper.html"])
        XCTAssertEqual(try results("Backlinks").pages.first, "backlinks.html", "typed with its capital")
    }

    func testDecomposedTextIsFoundByComposedQueriesAndKoreanIsIndexedAsSyllables() throws {
        XCTAssertEqual(try results("Zoë").pages, ["nfd.html"])
        XCTAssertEqual(try results("한국어").pages, ["nfd.html"])
        let index = try String(contentsOfFile: site.output + "/_notepress/search/t-all.js", encoding: .utf8)
        XCTAssertTrue(index.contains("\"한국어\""), "syllables in the index")
        XCTAssertFalse(index.contains("\u{1112}"), "no jamo in the index")
    }

    func testThaiIsSplitIntoWords() throws {
        XCTAssertEqual(try results("สวยงาม").pages, ["thai.html"])
        XCTAssertEqual(try results("ประวัติศาสตร์").pages, ["thai.html"])
    }

    func testOneChineseCharacterFindsTheNote() throws {
        XCTAssertEqual(try results("中").pages, ["zh.html"])
        XCTAssertEqual(try results("国").pages, ["zh.html"], "a character inside the word 中国")
        XCTAssertEqual(try results("中国").pages, ["zh.html"])
        XCTAssertEqual(try results("学习").pages, ["zh.html"])
    }

    func testAllWordsMustMatch() throws {
        XCTAssertEqual(try results("metric proxy").pages, ["both.html"])
        XCTAssertEqual(try results("metr").pages.sorted(), ["both.html", "metric.html"], "a prefix matches while typing")
    }

    func testQuotedPhraseMatchesInOrderAndMinusExcludes() throws {
        XCTAssertEqual(try results("\"red fox\"").pages, ["fox1.html"])
        XCTAssertEqual(Set(try results("red fox").pages), ["fox1.html", "fox2.html"])
        XCTAssertEqual(try results("fox -jumps").pages, ["fox2.html"])
        XCTAssertEqual(try results("fox -\"red fox\"").pages, ["fox2.html"])
    }

    func testResultsShowTheSectionHeadingAndAnExcerptWithTheTermsMarked() throws {
        let r = try results("wombat")
        XCTAssertEqual(r.pages, ["deep.html"])
        XCTAssertTrue(r.html.contains("<a class=\"search-heading\" href=\"file://\(site.output)/deep.html#harbour-notes\">Harbour notes</a>"), r.html)
        XCTAssertTrue(r.html.contains("a cargo of <mark>wombat</mark> wool."), r.html)
        let cafe = try results("cafe station")
        XCTAssertTrue(cafe.html.contains("We met at the <mark>café</mark> near the <mark>station</mark>."), cafe.html)
    }

    /// `/` focuses the box, typing lists suggestions and the count in a live region, ArrowDown
    /// marks the first, Enter opens it.
    func testKeyboardAndAnnouncedCount() throws {
        let page = try String(contentsOfFile: site.output + "/index.html", encoding: .utf8)
        let driver = """
        <script>
        window.addEventListener("load", function () {
          var log = [];
          document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "/", bubbles: true }));
          var input = document.querySelector(".site-search input");
          log.push("focused:" + (document.activeElement === input));
          input.value = "fox";
          input.dispatchEvent(new Event("input"));
          var tries = 0, t = setInterval(function () {
            var live = document.querySelector(".search-count");
            if ((!live || !live.textContent) && ++tries < 200) return;
            clearInterval(t);
            log.push("live:" + (live && live.getAttribute("aria-live")) + ":" + (live && live.textContent));
            input.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowDown", bubbles: true }));
            var a = document.querySelector(".search-suggestions a.active");
            log.push("active:" + (a && a.getAttribute("href").split("/").pop()));
            document.title = log.join("|");
            input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
          }, 50);
        });
        </script>
        """
        let probe = site.output + "/probe.html"
        try page.replacingOccurrences(of: "</body>", with: driver + "</body>").write(toFile: probe, atomically: true, encoding: .utf8)
        let opened = try Self.dom("file://" + probe)
        XCTAssertTrue(opened.contains("<h1") && opened.contains("Fox one"), "Enter opened the first suggestion: \(opened.prefix(800))")
        // The log, from a copy that does not navigate.
        let still = page.replacingOccurrences(of: "</body>", with: driver.replacingOccurrences(of: "key: \"Enter\"", with: "key: \"x\"") + "</body>")
        try still.write(toFile: probe, atomically: true, encoding: .utf8)
        let logged = try Self.dom("file://" + probe)
        XCTAssertTrue(logged.contains("<title>focused:true|live:polite:2 results for “fox”|active:fox1.html</title>"), String(logged.prefix(600)))
    }
}
