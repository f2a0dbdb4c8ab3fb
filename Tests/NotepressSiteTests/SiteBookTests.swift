import Foundation
import XCTest
import NotepressTestSupport

/// Issue 34's open points through the user's door (the real binary, Chromium): an mdBook
/// `SUMMARY.md` with a prefix chapter, part titles, separators and drafts; the 404 page from any
/// depth; tag pages in the sitemap; one `site-head` partial; the theme toggle's memory.
extension SiteNavigationTests {
    static let book: [String: String] = [
        "SUMMARY.md": """
        # Summary

        [Introduction](README.md)

        # Getting started

        - [Installing it](ch1/install.md)
            - [On Debian](ch1/debian.md)
        - [First steps](first.md)

        ---

        # Reference

        - [Options](options.md)
        - [Draft chapter]()
        - [Gone](missing.md)

        [Afterword](after.md)

        """,
        "README.md": "# Intro page\n\nWelcome.\n",
        "ch1/install.md": "# Install\n\nInstall it.\n",
        "ch1/debian.md": "# Debian\n\napt.\n",
        "first.md": "---\nnav_order: soon\n---\n# First\n\nFirst steps.\n",
        "options.md": "---\ntags: [ref]\n---\n# Options list\n\nOptions.\n",
        "after.md": "# After\n\nThe end.\n",
    ]

    /// mdBook's SUMMARY.md: the prefix chapter is a top-level entry (nothing nests under it), part
    /// titles head the chapters after them, `---` is a separator, labels are SUMMARY's link text
    /// (sidebar, breadcrumbs, previous/next), the draft is left out with a warning at its line and
    /// column, as are the missing file and the bad nav_order; SUMMARY.md is no page (not written,
    /// not in the sitemap, the notes list or the search).
    /// A page SUMMARY.md does not list came after the last part's chapters as if it were one of
    /// them (the new-user try-out): it comes after a separator.
    func testPagesSummaryDoesNotListComeAfterASeparator() throws {
        var book = Self.book
        book["extra.md"] = "# Extra\n\nNot in the summary.\n"
        let site = try makeSiteFolder(self, book)
        _ = try run(["convert", site.input, "-o", site.output])
        let entries = try python(Self.sidebarReader, [site.output + "/extra.html"], in: URL(fileURLWithPath: site.dir))
        XCTAssertEqual(entries.suffix(2), ["1\tafter.html\tAfterword\t", "1\textra.html\tExtra\tcurrent"], entries.joined(separator: "\n"))
        let page = try String(contentsOfFile: site.output + "/extra.html", encoding: .utf8)
        let separator = "<li class=\"nav-separator\" role=\"separator\"></li>"
        XCTAssertEqual(page.components(separatedBy: separator).count - 1, 2, "SUMMARY's --- and the one before the unlisted page")
        let afterword = try XCTUnwrap(page.range(of: "Afterword")), last = try XCTUnwrap(page.range(of: separator, options: .backwards))
        XCTAssertLessThan(afterword.lowerBound, last.lowerBound)
    }

    func testMdBookSummaryWithPrefixChapterPartsSeparatorsAndDrafts() throws {
        let site = try makeSiteFolder(self, Self.book)
        let r = try run(["convert", site.input, "-o", site.output, "--base-url", "https://example.org/book/"])
        XCTAssertTrue(r.stderr.contains("SUMMARY.md:16:3: warning: draft chapter 'Draft chapter' has no file; not listed in the navigation"), r.stderr)
        XCTAssertTrue(r.stderr.contains("SUMMARY.md:17:3: warning: link to 'missing.md': no such file missing.md"), r.stderr)
        XCTAssertTrue(r.stderr.contains("first.md:2:12: warning: nav_order 'soon' is not a number; ignored"), r.stderr)
        let entries = try python(Self.sidebarReader, [site.output + "/ch1/debian.html"], in: URL(fileURLWithPath: site.dir))
        XCTAssertEqual(entries, ["1\t../index.html\tIntroduction\t", "1\t\tGetting started\t", "1\tinstall.html\tInstalling it\t",
                                 "2\tdebian.html\tOn Debian\tcurrent", "1\t../first.html\tFirst steps\t", "1\t\tReference\t",
                                 "1\t../options.html\tOptions\t", "1\t../after.html\tAfterword\t"])
        let debian = try String(contentsOfFile: site.output + "/ch1/debian.html", encoding: .utf8)
        XCTAssertTrue(debian.contains("<li class=\"nav-part\"><span>Getting started</span></li>"))
        XCTAssertEqual(debian.components(separatedBy: "<li class=\"nav-separator\" role=\"separator\"></li>").count - 1, 1)
        XCTAssertTrue(debian.contains("<li><a href=\"install.html\">Installing it</a></li><li><span aria-current=\"page\">On Debian</span></li>"),
                      "breadcrumbs by label")
        XCTAssertTrue(debian.contains("rel=\"prev\" href=\"install.html\"><span class=\"pager-label\">Previous</span> <span class=\"pager-title\" dir=\"auto\">Installing it</span>"))
        XCTAssertTrue(debian.contains("rel=\"next\" href=\"../first.html\"><span class=\"pager-label\">Next</span> <span class=\"pager-title\" dir=\"auto\">First steps</span>"))
        // The reading order: Introduction first (the prefix chapter), Afterword last.
        let intro = try String(contentsOfFile: site.output + "/index.html", encoding: .utf8)
        XCTAssertFalse(intro.contains("rel=\"prev\""))
        XCTAssertTrue(intro.contains("rel=\"next\" href=\"ch1/install.html\""))
        XCTAssertTrue(try String(contentsOfFile: site.output + "/after.html", encoding: .utf8).contains("rel=\"prev\" href=\"options.html\""))
        // SUMMARY.md is not a page.
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.output + "/SUMMARY.html"))
        let sitemap = try String(contentsOfFile: site.output + "/sitemap.xml", encoding: .utf8)
        XCTAssertFalse(sitemap.contains("SUMMARY"), sitemap)
        XCTAssertFalse(try String(contentsOfFile: site.output + "/notes-index.html", encoding: .utf8).contains("SUMMARY"))
        for u in TestPaths.files(under: URL(fileURLWithPath: site.output + "/_notepress/search")) {
            XCTAssertFalse(try String(contentsOf: u, encoding: .utf8).contains("SUMMARY"), u.path)
        }
        // Chromium: the part title and separator are shown, and the page's links resolve.
        let dom = try dom(URL(fileURLWithPath: site.output + "/first.html").absoluteString)
        XCTAssertTrue(dom.contains("<li class=\"nav-part\"><span>Reference</span></li>"), String(dom.prefix(3000)))
    }

    /// The hrefs and srcs of an HTML page (`#…` left out).
    func links(_ html: String) -> [String] {
        let re = try! NSRegularExpression(pattern: "(?:href|src|action)=\"([^\"#][^\"]*)\"")
        let ns = html as NSString
        return re.matches(in: html, range: NSRange(location: 0, length: ns.length)).map { ns.substring(with: $0.range(at: 1)) }
    }

    /// The not-found page, the folder's own `404.md` with relative links and the generated one, is
    /// shown by a server at any depth: with --base-url every link of it is absolute under the base;
    /// without, every link starts from the host's root (`/x.html`: the site served at a host's root,
    /// as `notepress serve` serves it). Checked through `notepress serve`: a missing page three
    /// folders down answers 404 with that page, and every link on it answers 200.
    func testNotFoundPageLinksWorkFromAnyDepth() throws {
        let files = ["index.md": "# Home\n", "deep/er/page.md": "---\ntags: [t]\n---\n# Deep page\n\n![p](../../pic.png)\n",
                     "pic.png": "\u{89}PNG\r\n\u{1A}\n",
                     "404.md": "# Lost\n\nTry [home](index.md), [the deep page](deep/er/page.md#deep-page) or ![a picture](pic.png).\n"]
        let based = try makeSiteFolder(self, files)
        try run(["convert", based.input, "-o", based.output, "-q", "--base-url", "https://example.org/notes"])
        let own = try String(contentsOfFile: based.output + "/404.html", encoding: .utf8)
        XCTAssertTrue(own.contains("<a href=\"https://example.org/notes/deep/er/page.html#deep-page\">the deep page</a>"), own)
        XCTAssertTrue(own.contains("src=\"https://example.org/notes/pic.png\""), own)
        let all = links(own)
        XCTAssertGreaterThan(all.count, 8)
        XCTAssertEqual(all.filter { !$0.hasPrefix("https://example.org/notes/") }, [], "every link under the base")
        XCTAssertFalse(try String(contentsOfFile: based.output + "/sitemap.xml", encoding: .utf8).contains("404"), "not in the sitemap")

        for own404 in [true, false] {
            var f = files
            if !own404 { f["404.md"] = nil }
            let plain = try makeSiteFolder(self, f)
            let s = try ServedSite([plain.input, "-o", plain.output, "-q", "--copy-all"])
            addTeardownBlock { _ = s.stop(SIGKILL) }
            let missing = try s.get("/a/b/c/missing.html")
            XCTAssertEqual(missing.status, 404)
            XCTAssertTrue(missing.body.contains(own404 ? "Lost" : "Page not found"), missing.body)
            let found = links(missing.body).filter { !$0.hasPrefix("/__notepress/") }
            XCTAssertGreaterThan(found.count, own404 ? 8 : 5, missing.body)
            for l in found {
                XCTAssertTrue(l.hasPrefix("/"), "\(l): from the root")
                let path = l.components(separatedBy: "?")[0].components(separatedBy: "#")[0]
                XCTAssertEqual(try s.get(path).status, 200, "\(l) from /a/b/c/missing.html")
            }
            XCTAssertEqual(s.stop(), 0)
        }
    }

    /// With --base-url the sitemap lists every tag page and every page of a paginated list.
    func testSitemapListsTagPagesAndEveryListPage() throws {
        var files: [String: String] = ["index.md": "# Home\n"]
        for i in 0..<5 { files["n\(i).md"] = "---\ntags: [t, other]\n---\n# Note \(i)\n" }
        let site = try makeSiteFolder(self, files)
        try run(["convert", site.input, "-o", site.output, "-q", "--list-page-size", "2", "--base-url", "https://example.org/"])
        let sitemap = try String(contentsOfFile: site.output + "/sitemap.xml", encoding: .utf8)
        let locs = sitemap.components(separatedBy: "<loc>").dropFirst().map { String($0.prefix { $0 != "<" }) }
        let expected = ["notes-index.html", "notes-index.page2.html", "notes-index.page3.html",
                        "tags/other.html", "tags/other.page2.html", "tags/other.page3.html",
                        "tags/t.html", "tags/t.page2.html", "tags/t.page3.html"].map { "https://example.org/" + $0 }
        XCTAssertEqual(Array(locs.suffix(expected.count)), expected, sitemap)
        XCTAssertEqual(locs.count, 6 + expected.count)
        for l in locs { XCTAssertTrue(FileManager.default.fileExists(atPath: site.output + "/" + l.dropFirst("https://example.org/".count)), l) }
    }

    /// One `site-head` partial makes the <head> of every page kind (note page, notes list, tag
    /// page, search page, 404 page); `templates print` and `templates list` show it; a user's
    /// `--data-dir` copy of it changes every page.
    func testOneSiteHeadPartialMakesEveryPagesHead() throws {
        let list = try run(["templates", "list"])
        XCTAssertTrue(list.stdoutText.contains("html/site-head.html\n"), list.stdoutText)
        let printed = try run(["templates", "print", "html/site-head.html"])
        XCTAssertTrue(printed.stdoutText.contains("<meta name=\"viewport\""), printed.stdoutText)
        for t in ["page", "index", "tag", "search", "not-found"] {
            let text = try run(["templates", "print", "html/\(t).html"]).stdoutText
            XCTAssertTrue(text.contains("<head>\n{{> site-head}}\n</head>"), "\(t): \(text.prefix(300))")
            XCTAssertFalse(text.contains("<meta"), "\(t) repeats the head")
        }
        let site = try makeSiteFolder(self, ["index.md": "# Home\n", "a.md": "---\ntags: [x]\n---\n# A\n"])
        let data = URL(fileURLWithPath: site.dir).appendingPathComponent("data/html")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let head = try XCTUnwrap(printed.stdoutText.replacingOccurrences(of: "<title>", with: "<meta name=\"x-mine\" content=\"1\">\n<title>"))
        try head.write(to: data.appendingPathComponent("site-head.html"), atomically: true, encoding: .utf8)
        try run(["convert", site.input, "-o", site.output, "-q", "--data-dir", data.deletingLastPathComponent().path])
        for p in ["index.html", "a.html", "notes-index.html", "tags/x.html", "search.html", "404.html"] {
            let text = try String(contentsOfFile: site.output + "/" + p, encoding: .utf8)
            XCTAssertEqual(text.components(separatedBy: "<meta name=\"x-mine\" content=\"1\">").count - 1, 1, p)
            XCTAssertEqual(text.components(separatedBy: "<meta name=\"viewport\"").count - 1, 1, p)
        }
    }

    /// The light/dark toggle remembers the choice (localStorage) across a reload in Chromium:
    /// auto → light → dark → auto, the page's colours following; automatic is the default.
    func testThemeToggleRemembersTheChoiceAcrossAReload() throws {
        let site = try makeSiteFolder(self, ["index.md": "# Home\n", "a.md": "# A\n"])
        try run(["convert", site.input, "-o", site.output, "-q"])
        let r = try runTool("python3", [TestPaths.root.appendingPathComponent("Benchmarks/chromium_probe.py").path, "theme",
                                        URL(fileURLWithPath: site.output + "/a.html").absoluteString])
        XCTAssertEqual(r.status, 0, r.output)
        let json = try XCTUnwrap(r.output.split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any], r.output)
        let steps = try XCTUnwrap(json["steps"] as? [[String: Any]], r.output)
        XCTAssertEqual(steps.count, 4)
        XCTAssertEqual(steps[0]["label"] as? String, "Theme: auto")
        XCTAssertTrue(steps[0]["data_theme"] is NSNull, "automatic by default: \(steps[0])")
        let light = steps[0]["background"] as? String
        for (k, want) in [(1, "light"), (2, "dark")] {
            let after = try XCTUnwrap(steps[k]["after_reload"] as? [String: Any])
            XCTAssertEqual(steps[k]["data_theme"] as? String, want)
            XCTAssertEqual(after["stored"] as? String, want, "remembered: \(after)")
            XCTAssertEqual(after["data_theme"] as? String, want, "applied after the reload")
            XCTAssertEqual(after["label"] as? String, "Theme: \(want)")
        }
        let darkAfter = try XCTUnwrap(steps[2]["after_reload"] as? [String: Any])
        XCTAssertNotEqual(darkAfter["background"] as? String, light, "dark colours after the reload")
        let auto = try XCTUnwrap(steps[3]["after_reload"] as? [String: Any])
        XCTAssertTrue(auto["stored"] is NSNull && auto["data_theme"] is NSNull, "back to automatic: \(auto)")
        XCTAssertEqual(auto["label"] as? String, "Theme: auto")
    }

    /// A site past the full-tree size: each page's sidebar (closed sections rendered once per
    /// output folder and reused) links from that page's own folder: every sidebar link of a page
    /// in each folder resolves to a written page, and the page itself is the one marked.
    func testLargeSiteSidebarLinksResolveFromEveryFolder() throws {
        var files: [String: String] = [:]
        for i in 0..<450 { files["f\(i % 3)/\(i % 2 == 0 ? "deep/" : "")n\(i).md"] = "# Note \(i)\n" }
        let site = try makeSiteFolder(self, files)
        try run(["convert", site.input, "-o", site.output, "-q"])
        for page in ["f0/deep/n0.html", "f1/n1.html", "f2/deep/n2.html", "f0/n3.html", "f1/deep/n4.html"] {
            let entries = try python(Self.sidebarReader, [site.output + "/" + page], in: URL(fileURLWithPath: site.dir))
            XCTAssertGreaterThan(entries.count, 5, page)
            let folder = (page as NSString).deletingLastPathComponent
            for e in entries {
                let f = e.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                guard !f[1].isEmpty else { continue }
                let target = URL(fileURLWithPath: site.output + "/" + folder + "/" + f[1]).standardizedFileURL.path
                XCTAssertTrue(FileManager.default.fileExists(atPath: target), "\(page): \(e)")
                XCTAssertEqual(f[3] == "current", target == URL(fileURLWithPath: site.output + "/" + page).standardizedFileURL.path, "\(page): \(e)")
            }
        }
    }

    /// A sharded build of the mdBook folder (scan, two shards, index) writes the same files,
    /// byte for byte, as one process: the summary travels in the site table (`summary` key).
    func testShardedBookBuildIsTheOneProcessBuild() throws {
        let site = try makeSiteFolder(self, Self.book)
        let one = site.dir + "/one", sharded = site.dir + "/sharded", table = site.dir + "/site.jsonl"
        let base = ["--base-url", "https://example.org/book/"]
        try run(["convert", site.input, "-o", one, "-q"] + base)
        try run(["scan", site.input, "-o", table])
        XCTAssertTrue(try String(contentsOfFile: table, encoding: .utf8).contains("\"summary\":[{\"kind\":\"chapter\",\"title\":\"Introduction\",\"target\":\"README.md\",\"depth\":0,\"line\":3,\"column\":1}"))
        for k in 1...2 { try run(["convert", site.input, "-o", sharded, "-q", "--site-table", table, "--shard", "\(k)/2"] + base) }
        try run(["index", sharded, "--site-table", table, "-q"] + base)
        func files(_ root: String) throws -> [String: Data] {
            var out: [String: Data] = [:]
            for u in TestPaths.files(under: URL(fileURLWithPath: root)) where !u.lastPathComponent.hasPrefix(".notepress") {
                out[String(u.path.dropFirst(root.count + 1))] = try Data(contentsOf: u)
            }
            return out
        }
        let a = try files(one), b = try files(sharded)
        XCTAssertEqual(a.keys.sorted(), b.keys.sorted())
        XCTAssertFalse(a.keys.contains("SUMMARY.html"))
        for (k, v) in a { XCTAssertEqual(v, b[k], k) }
    }
}
