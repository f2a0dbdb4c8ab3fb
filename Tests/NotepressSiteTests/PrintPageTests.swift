import Foundation
import XCTest
import NotepressTestSupport

/// Issue 47 item 5: mdBook's `print.html`: every note of a folder run on one page in the
/// sidebar's order, ids unique across the page, links between notes turned into in-page links,
/// images rebased to the site root, page breaks between notes in print, a Print link in every
/// header; rewritten when a note changes, left out with `--no-print-page` or past the size limit.
final class PrintPageTests: XCTestCase {
    /// A 1×1 PNG, so Chromium can tell that a rebased image loads.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC")!

    /// A book: SUMMARY.md orders Zeta, Alpha (in a folder, with an image), Beta (a footnote);
    /// every note has a `## Usage` section (the same id on every page).
    static let book: [String: String] = [
        "SUMMARY.md": "# Summary\n\n- [Zeta first](zeta.md)\n- [Alpha](notes/alpha.md)\n- [Beta](beta.md)\n",
        "zeta.md": "# Zeta\n\nZeta links to [Alpha usage](notes/alpha.md#usage), [Beta](beta.md) and [the web](https://example.com/page.html).\n\n"
            + "## Usage\n\nZeta usage.\n",
        "notes/alpha.md": "# Alpha\n\nAlpha links back to [zeta](../zeta.md) and [its own usage](#usage).\n\n![pixel](../img/p.png)\n\n"
            + "## Usage\n\nAlpha usage.\n",
        "beta.md": "# Beta\n\nBeta text[^1].\n\n## Usage\n\nBeta usage.\n\n[^1]: A footnote.\n",
    ]

    func makeBook() throws -> (input: String, output: String) {
        let (input, out, _) = try makeSiteFolder(self, Self.book)
        try FileManager.default.createDirectory(atPath: input + "/img", withIntermediateDirectories: true)
        try Self.png.write(to: URL(fileURLWithPath: input + "/img/p.png"))
        return (input, out)
    }

    /// The values of `attribute` in `html`, in order.
    func values(_ attribute: String, in html: String) -> [String] {
        html.components(separatedBy: " \(attribute)=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    func testPrintPageHoldsEveryNoteInSummaryOrderWithUniqueIdsAndInPageLinks() throws {
        let (input, out) = try makeBook()
        let r = try NotepressBinary.run(["convert", input, "-o", out, "--strict-links"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let print = try String(contentsOfFile: out + "/print.html", encoding: .utf8)
        let main = try XCTUnwrap(print.components(separatedBy: "<main class=\"print-notes\">").last?.components(separatedBy: "</main>").first)
        // SUMMARY.md's order, each note a section headed by its title.
        let sections = main.components(separatedBy: "<article class=\"note print-note\" id=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        XCTAssertEqual(sections, ["index", "notes-alpha", "beta"], main)
        let titles = main.components(separatedBy: "<h1 ").dropFirst().map { $0.components(separatedBy: ">")[1].prefix { $0 != "<" } }
        XCTAssertEqual(titles, ["Zeta", "Alpha", "Beta"])
        // Ids unique across the page (three `usage` sections, a footnote).
        let ids = values("id", in: print)
        XCTAssertEqual(ids.count, Set(ids).count, "duplicate ids: \(ids)")
        for id in ["index-usage", "notes-alpha-usage", "beta-usage", "beta-fn-1", "beta-fnref-1"] { XCTAssertTrue(ids.contains(id), "\(id) in \(ids)") }
        // Links between notes are in-page links, and every in-page link lands on an id.
        let hrefs = values("href", in: main)
        XCTAssertTrue(hrefs.contains("#notes-alpha-usage"), "\(hrefs)")
        XCTAssertTrue(hrefs.contains("#beta"), "\(hrefs)")
        XCTAssertTrue(hrefs.contains("#index"), "\(hrefs)")
        XCTAssertTrue(hrefs.contains("https://example.com/page.html"), "external links as written: \(hrefs)")
        XCTAssertFalse(hrefs.contains { $0.hasSuffix(".html") && !$0.hasPrefix("https:") }, "a link to a note left a page link: \(hrefs)")
        for h in hrefs where h.hasPrefix("#") { XCTAssertTrue(ids.contains(String(h.dropFirst())), "\(h) lands on no id") }
        // Alpha's `#usage` is its own usage, not Zeta's.
        XCTAssertTrue(main.contains("<a href=\"#notes-alpha-usage\">its own usage</a>"), main)
        // The image of notes/alpha.md from the root.
        XCTAssertEqual(values("src", in: main), ["img/p.png"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/img/p.png"))
        // Every page's header links the print page.
        XCTAssertTrue(try String(contentsOfFile: out + "/notes/alpha.html", encoding: .utf8).contains("<a class=\"print-link\" href=\"../print.html\">Print</a>"))
        XCTAssertTrue(try String(contentsOfFile: out + "/beta.html", encoding: .utf8).contains("<a class=\"print-link\" href=\"print.html\">Print</a>"))
        // In print: each note after the first on a new sheet, no Print link.
        let css = try String(contentsOfFile: out + "/_notepress/notepress.css", encoding: .utf8)
        let prints = css.components(separatedBy: "@media print {").dropFirst().map { $0.components(separatedBy: "} }").first ?? "" }
        XCTAssertTrue(prints.contains { $0.contains(".print-note + .print-note { break-before: page") }, "\(prints)")
        XCTAssertTrue(prints.contains { $0.contains(".print-link") && $0.contains("display: none") }, "\(prints)")
    }

    func testPrintPageLoadsInChromiumWithEveryLinkLandingAndTheImageShown() throws {
        let (input, out) = try makeBook()
        let r = try NotepressBinary.run(["convert", input, "-o", out, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        // Script errors recorded from the start (the probe itself runs after the page's load).
        let page = try String(contentsOfFile: out + "/print.html", encoding: .utf8)
        try page.replacingOccurrences(of: "<head>", with: "<head><script>window.__errors = []; window.addEventListener('error', "
                                      + "e => window.__errors.push(String(e.message || (e.target && e.target.src) || e)), true);</script>")
            .write(toFile: out + "/print-errors.html", atomically: true, encoding: .utf8)
        let result = try probeInChromium(out + "/print-errors.html", width: 1280, """
            const links = [...document.querySelectorAll('main a[href^="#"]')];
            return { errors: window.__errors, scriptRan: document.documentElement.classList.contains('js'),
              unresolved: links.filter(a => !document.getElementById(decodeURIComponent(a.getAttribute('href').slice(1)))).map(a => a.getAttribute('href')),
              links: links.length,
              titles: [...document.querySelectorAll('article.print-note > h1')].map(h => h.textContent.replace('¶', '')),
              image: [...document.images].map(i => i.naturalWidth),
              printLink: !!document.querySelector('.site-header a.print-link[href="print.html"]') };
            """)
        XCTAssertEqual(result["errors"] as? [String], [], "\(result)")
        XCTAssertEqual(result["scriptRan"] as? Bool, true)
        XCTAssertEqual(result["unresolved"] as? [String], [], "\(result)")
        XCTAssertGreaterThanOrEqual(result["links"] as? Int ?? 0, 5, "\(result)")
        XCTAssertEqual(result["titles"] as? [String], ["Zeta", "Alpha", "Beta"])
        XCTAssertEqual(result["image"] as? [Int], [1], "the rebased image loads")
        XCTAssertEqual(result["printLink"] as? Bool, true)
    }

    func testAnEditedNoteRewritesThePrintPageAndNoPrintPageLeavesItOut() throws {
        let (input, out) = try makeBook()
        XCTAssertEqual(try NotepressBinary.run(["convert", input, "-o", out, "-q"]).status, 0)
        // Nothing changed: not written again.
        let again = try NotepressBinary.run(["convert", input, "-o", out, "-v"])
        XCTAssertFalse(again.stderr.contains("print.html") || again.stdoutText.contains("print.html"), again.stderr)
        // A note changed: the print page holds its new text.
        try writeTestFiles(["beta.md": Self.book["beta.md"]! + "\nA NEWWORD at the end.\n"], into: input)
        let edited = try NotepressBinary.run(["convert", input, "-o", out, "-v"])
        XCTAssertEqual(edited.status, 0, edited.stderr)
        XCTAssertTrue(try String(contentsOfFile: out + "/print.html", encoding: .utf8).contains("A NEWWORD at the end."))
        // --no-print-page: no Print link, and --prune removes the page an earlier run wrote.
        let off = try NotepressBinary.run(["convert", input, "-o", out, "--no-print-page", "--prune", "-q"])
        XCTAssertEqual(off.status, 0, off.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/print.html"))
        XCTAssertFalse(try String(contentsOfFile: out + "/beta.html", encoding: .utf8).contains("print-link"))
    }

    func testASiteOverTheNoteLimitGetsNoPrintPageAndOneWarning() throws {
        var files: [String: String] = [:]
        for i in 0...2_000 { files["n\(i).md"] = "# N\(i)\n\nText.\n" }
        let (input, out, _) = try makeSiteFolder(self, files)
        let r = try NotepressBinary.run(["convert", input, "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr.components(separatedBy: "print.html not written: the site has more than 2000 pages").count - 1, 1, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/print.html"))
        XCTAssertFalse(try String(contentsOfFile: out + "/n1.html", encoding: .utf8).contains("print-link"))
    }
}
