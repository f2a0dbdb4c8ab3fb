import Foundation
import XCTest
import NotepressTestSupport

/// Issue 45 through the real binary: folders written for other tools (a numbered journal, a
/// folder of man-page Markdown, a TiddlyWiki folder, an Obsidian vault) convert whole.
final class FolderConventionsTests: XCTestCase {
    static let env = ["SOURCE_DATE_EPOCH": "1700000000"]

    /// A folder holding `files` (relative path → text) and an output folder beside it.
    func folder(_ files: [String: String]) throws -> (input: String, output: String) {
        let s = try makeSiteFolder(self, files)
        return (s.input, s.output)
    }

    func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// The `href`s of the links inside the first element that starts with `open` and ends with
    /// `close`, in document order.
    func hrefs(_ html: String, from open: String, to close: String) -> [String] {
        guard let start = html.range(of: open), let end = html.range(of: close, range: start.upperBound..<html.endIndex) else { return [] }
        let part = html[start.upperBound..<end.lowerBound]
        var out: [String] = []
        var rest = part[...]
        while let h = rest.range(of: "href=\"") {
            let tail = rest[h.upperBound...]
            guard let q = tail.firstIndex(of: "\"") else { break }
            out.append(String(tail[..<q]))
            rest = tail[q...]
        }
        return out
    }

    // MARK: 4. Natural order

    /// "Entry 8999 → Entry 9 → Entry 90" was the order of every list (titles compared as
    /// strings): numbers compare as numbers, case is ignored, in the sidebar, previous/next, the
    /// notes list and a tag page.
    func testNotesAreListedInNaturalOrderEntry9BeforeEntry90BeforeEntry8999() throws {
        let (input, out) = try folder([
            "Entry 8999.md": "---\ntags: [log]\n---\nlast\n", "Entry 9.md": "---\ntags: [log]\n---\nfirst\n",
            "Entry 90.md": "---\ntags: [log]\n---\nmiddle\n", "Zebra.md": "---\ntags: [log]\n---\nz\n",
            "apple pie.md": "---\ntags: [log]\n---\na\n",
        ])
        let r = try NotepressBinary.run(["convert", input, "-o", out], environment: Self.env)
        XCTAssertEqual(r.status, 0, r.stderr)
        let expected = ["apple%20pie.html", "Entry%209.html", "Entry%2090.html", "Entry%208999.html", "Zebra.html"]
        // The sidebar of a page.
        let page = try read(out + "/Entry 90.html")
        XCTAssertEqual(hrefs(page, from: "id=\"site-sidebar\"", to: "</nav>").filter { $0.hasSuffix(".html") && $0 != "index.html" },
                       expected, page)
        // Previous and next follow it.
        XCTAssertEqual(hrefs(page, from: "class=\"pager\"", to: "</nav>"), ["Entry%209.html", "Entry%208999.html"])
        // The notes list (no dates: by title) and the tag page.
        let list = try read(out + "/index.html")
        XCTAssertEqual(hrefs(list, from: "<main", to: "</main>").filter { !$0.contains("tags/") && $0.hasSuffix(".html") }, expected, list)
        let tag = try read(out + "/tags/log.html")
        XCTAssertEqual(hrefs(tag, from: "<main", to: "</main>").filter { !$0.contains("tags/") && $0.hasSuffix(".html") && $0 != "../index.html" }
                        .map { $0.replacingOccurrences(of: "../", with: "") }, expected, tag)
    }

    // MARK: 5. Man pages from a folder

    /// A folder of man-page Markdown gave `buildah-add.1.man`, and its `README.md` `index.man`:
    /// pages are named `NAME.SECTION` as `man` installs them (from the title line, else the file
    /// name), and a page with no man title is reported at its file and keeps its own name.
    func testManPagesOfAFolderAreNamedNameDotSectionAndAnUntitledReadmeIsReported() throws {
        let (input, out) = try folder([
            "buildah-add.1.md": "# NAME\n\nbuildah-add - add content\n\nSee [ls](ls.md).\n",
            "ls.md": "# ls(1) -- list directory contents\n\n## SYNOPSIS\n\n`ls` [*OPTION*]...\n",
            "podman.md": "% podman 8\n\n# NAME\n\npodman - pods\n",
            "README.md": "# Buildah man pages\n\nThe pages.\n",
        ])
        let r = try NotepressBinary.run(["convert", input, "-o", out, "-t", "man", "--verbose"], environment: Self.env)
        XCTAssertEqual(r.status, 0, r.stderr)
        let written = (try FileManager.default.contentsOfDirectory(atPath: out)).filter { !$0.hasPrefix(".") }.sorted()
        XCTAssertEqual(written, ["README.man", "buildah-add.1", "ls.1", "podman.8"], r.stderr)
        XCTAssertTrue(r.stderr.contains("README.md:1:1: warning: man: no man page title"), r.stderr)
        XCTAssertFalse(r.stderr.contains("buildah-add.1.md:1:1: warning: man: no man page title"), r.stderr)
        // A link names the page as it is installed.
        XCTAssertTrue(try read(out + "/buildah-add.1").contains("See ls(1)."))
        // mandoc reads the installed name's section.
        let lint = try runTool("mandoc", ["-T", "lint", "-W", "error", out + "/ls.1"])
        XCTAssertEqual(lint.status, 0, lint.output)
    }

    // MARK: 6. TiddlyWiki

    /// Links named tiddlers by file name (`$:/AdvancedSearch` is stored as `$__AdvancedSearch.tid`
    /// and never resolved), and a `.tid` with no header lost all its text.
    func testTiddlerLinksResolveByTitleAndATidWithoutHeaderIsAllBody() throws {
        let (input, out) = try folder([
            "$__AdvancedSearch.tid": "title: $:/AdvancedSearch\ntype: text/vnd.tiddlywiki\n\nSearch everything.\n",
            "HelloThere.tid": "title: Hello There\ntags: Intro\n\nSee [[$:/AdvancedSearch]] and [[search|$:/AdvancedSearch]].\n",
            "Start.tid": "title: Start\n\nGo to [[the greeting|Hello There]].\n",
            "plain.tid": "Just a paragraph: nothing else.\n\nA second one.\n",
        ])
        let r = try NotepressBinary.run(["convert", input, "-o", out], environment: Self.env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("no note or file named"), r.stderr)
        let hello = try read(out + "/HelloThere.html")
        XCTAssertTrue(hello.contains("<a href=\"$__AdvancedSearch.html\">$:/AdvancedSearch</a> and <a href=\"$__AdvancedSearch.html\">search</a>"), hello)
        XCTAssertTrue(try read(out + "/Start.html").contains("<a href=\"HelloThere.html\">the greeting</a>"))
        let plain = try read(out + "/plain.html")
        XCTAssertTrue(plain.contains("Just a paragraph: nothing else.") && plain.contains("A second one."), plain)
        XCTAssertFalse(r.stderr.contains("plain.tid"), r.stderr)
    }

    // MARK: 3. Obsidian vaults

    /// A vault's templates folder (named by `.obsidian/templates.json`, notes holding
    /// `created: {{date}}`) failed the whole run with exit 1: it is not published (one notice),
    /// like `.obsidian/` and `.trash/`, and a note elsewhere with such a field is published
    /// without it, with a warning at the value's line and column.
    func testVaultTemplatesFolderIsNotPublishedAndATemplatePlaceholderFieldIsAWarning() throws {
        let (input, out) = try folder([
            ".obsidian/templates.json": "{\"folder\":\"Meta/Templates\"}",
            ".obsidian/app.json": "{}",
            ".trash/old.md": "# Old\n",
            "Meta/Templates/Daily.md": "---\ncreated: {{date}}\ntitle: {{title}}\n---\n# {{title}}\n",
            "Meta/About.md": "# About\n",
            "Journal.md": "---\ntags: [log]\ncreated: {{date}}\n---\n# Journal\n\nToday.\n",
        ])
        let r = try NotepressBinary.run(["convert", input, "-o", out, "--verbose"], environment: Self.env)
        XCTAssertEqual(r.status, 0, r.stderr)
        let fm = FileManager.default
        XCTAssertFalse(fm.fileExists(atPath: out + "/Meta/Templates"), r.stderr)
        XCTAssertFalse(fm.fileExists(atPath: out + "/.trash"))
        XCTAssertTrue(fm.fileExists(atPath: out + "/Meta/About.html"))
        XCTAssertEqual(r.stderr.components(separatedBy: "templates folder").count - 1, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("Meta/Templates: warning: Obsidian's templates folder"), r.stderr)
        XCTAssertTrue(r.stderr.contains("Journal.md:3:10: warning: front matter: `created` is not a date"), r.stderr)
        let journal = try read(out + "/Journal.html")
        XCTAssertTrue(journal.contains("Today."), journal)
    }

    /// A quoted `title: "{{title}}"` became the page's title, unwarned, and Templater's
    /// `created: <% tp.file.creation_date() %>` failed the note ("not an ISO 8601 date"): both are
    /// a template's placeholders, left out with a warning at the value; the note is published.
    func testQuotedTitlePlaceholderAndTemplaterCommandsAreLeftOutWithAWarning() throws {
        let (input, out) = try folder([
            "Daily.md": "---\ntitle: \"{{title}}\"\ncreated: <% tp.file.creation_date() %>\n---\nBody text.\n",
        ])
        let r = try NotepressBinary.run(["convert", input, "-o", out, "--verbose"], environment: Self.env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("Daily.md:2:8: warning: front matter: `title` is a template's placeholder"), r.stderr)
        XCTAssertTrue(r.stderr.contains("Daily.md:3:10: warning: front matter: `created` is a template's placeholder"), r.stderr)
        let page = try read(out + "/Daily.html")
        XCTAssertTrue(page.contains("Body text."), page)
        XCTAssertFalse(page.contains("{{title}}"), page)
    }

    /// `[[Note#A#B]]` (Obsidian's heading path) was a broken link: it opens heading B under A,
    /// the second "Usage" of the note when A is the second section.
    func testWikiLinkHeadingPathOpensTheHeadingUnderItsParent() throws {
        let (input, out) = try folder([
            ".obsidian/app.json": "{}",
            "Tool.md": "# Tool\n\n## Install\n\n### Usage\n\nOne.\n\n## Run\n\n### Usage\n\nTwo.\n",
            "Home.md": "See [[Tool#Run#Usage]] and [[Tool#Install#Usage|install]].\n",
        ])
        let r = try NotepressBinary.run(["convert", input, "-o", out, "--strict-links"], environment: Self.env)
        XCTAssertEqual(r.status, 0, r.stderr)
        let home = try read(out + "/Home.html")
        XCTAssertTrue(home.contains("<a href=\"Tool.html#usage-1\">"), home)
        XCTAssertTrue(home.contains("<a href=\"Tool.html#usage\">install</a>"), home)
        // A path that matches no heading is reported, and its href stays one URL (one `#`).
        let broken = try folder([".obsidian/app.json": "{}", "Tool.md": "# Tool\n\n## Install\n",
                                 "Home.md": "See [[Tool#Nope#Usage]].\n"])
        let b = try NotepressBinary.run(["convert", broken.0, "-o", broken.1], environment: Self.env)
        XCTAssertEqual(b.status, 0, b.stderr)
        XCTAssertTrue(b.stderr.contains("broken links: 1"), b.stderr)
        let page = try read(broken.1 + "/Home.html")
        XCTAssertTrue(page.contains("<a href=\"Tool.html#Nope%23Usage\">"), page)
    }

    /// Image sizes were dropped (`![[shot.png|400]]`) or left in the alt text
    /// (`![alt|100x100](shot.png)`): HTML gets width and height, the alt text loses `|100x100`,
    /// TEI's graphic the same size.
    func testImageSizesInWikiAndMarkdownImagesBecomeWidthAndHeight() throws {
        let (input, out) = try folder([
            ".obsidian/app.json": "{}",
            "shot.png": "not really a PNG",
            "Page.md": "![[shot.png|400]]\n\n![[shot.png|400x300]]\n\n![A screen|100x80](shot.png)\n",
        ])
        let r = try NotepressBinary.run(["convert", input, "-o", out, "-t", "html,tei"], environment: Self.env)
        XCTAssertEqual(r.status, 0, r.stderr)
        let page = try read(out + "/Page.html")
        XCTAssertTrue(page.contains("<img src=\"shot.png\" alt=\"shot.png\" width=\"400\" />"), page)
        XCTAssertTrue(page.contains("<img src=\"shot.png\" alt=\"shot.png\" width=\"400\" height=\"300\" />"), page)
        XCTAssertTrue(page.contains("<img src=\"shot.png\" alt=\"A screen\" width=\"100\" height=\"80\" />"), page)
        let tei = try read(out + "/Page.xml")
        XCTAssertTrue(tei.contains("<graphic url=\"shot.png\" width=\"400px\" height=\"300px\"/>"), tei)
        XCTAssertTrue(tei.contains("<figDesc>A screen</figDesc>"), tei)
    }
}
