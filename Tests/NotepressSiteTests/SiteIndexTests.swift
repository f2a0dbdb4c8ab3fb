import Foundation
import XCTest
import NotepressTestSupport
@testable import Notepress
@testable import NotepressSite
import NotepressAST

/// Issue 14 item 9 through the real binary: the notes index (title, date, folder, tags, excerpt),
/// one page per tag, hashtags and page tags linking to them, backlinks with `--backlinks`; all from
/// the site table, through the Mustache templates, incremental, in the manifest and `--prune`.
final class SiteIndexTests: XCTestCase {
    let env = ["SOURCE_DATE_EPOCH": "1700000000", "NO_COLOR": "1"]

    /// A fresh `in` folder with `files` (relative path → text) and the path of `out` beside it.
    func site(_ files: [String: String]) throws -> (input: String, output: String) {
        let s = try makeSiteFolder(self, files)
        return (s.input, s.output)
    }

    func write(_ files: [String: String], into folder: String) throws { try writeTestFiles(files, into: folder) }

    func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// The lines of `text` that start with `<li class="index-entry">`.
    func rows(_ text: String) -> [String] { text.components(separatedBy: "\n").filter { $0.hasPrefix("<li class=\"index-entry\">") } }

    /// Modification times of the regular files below `folder`, by relative path.
    func times(_ folder: String) -> [String: Date] {
        var out: [String: Date] = [:]
        for url in TestPaths.files(under: URL(fileURLWithPath: folder)) {
            let rel = String(url.path.dropFirst(folder.count + 1))
            out[rel] = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
        }
        return out
    }

    static let alpha = """
        ---
        tags: [Work, "Reading List", "café/été", "a b", a-b]
        created: 2024-05-01
        ---
        # Alpha

        First paragraph of alpha links [beta](sub/beta.md) and #work here.

        """
    static let beta = "---\ntags: [work]\n---\n# Beta\n\nBeta text [[alpha]].\n"
    static let gamma = "# Gamma\n\nNo tags. [alpha](alpha.md)\n"

    // MARK: The index

    /// Regression (issue 14 item 9): the index listed titles and dates only.
    func testIndexRowsShowTitleDateFolderTagsAndExcerpt() throws {
        let (input, out) = try site(["alpha.md": Self.alpha, "sub/beta.md": Self.beta, "gamma.md": Self.gamma])
        let r = try NotepressBinary.run(["convert", input, "-o", out, "--hashtags"], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(rows(try read(out + "/index.html")), [
            "<li class=\"index-entry\"><a class=\"index-title text-headline letterpress\" dir=\"auto\" href=\"alpha.html\">Alpha</a>"
                + " <time class=\"index-date\" datetime=\"2024-05-01T00:00:00Z\">1 May 2024</time> <span class=\"index-tags\">"
                + " <a class=\"tag\" dir=\"auto\" href=\"tags/work.html\">#Work</a>"
                + " <a class=\"tag\" dir=\"auto\" href=\"tags/reading-list.html\">#Reading List</a>"
                + " <a class=\"tag\" dir=\"auto\" href=\"tags/caf%C3%A9/%C3%A9t%C3%A9.html\">#café/été</a>"
                + " <a class=\"tag\" dir=\"auto\" href=\"tags/a-b.html\">#a b</a>"
                + " <a class=\"tag\" dir=\"auto\" href=\"tags/a-b.html\">#a-b</a></span>"
                + " <p class=\"index-excerpt\" dir=\"auto\">First paragraph of alpha links beta and #work here.</p></li>",
            "<li class=\"index-entry\"><a class=\"index-title text-headline letterpress\" dir=\"auto\" href=\"sub/beta.html\">Beta</a>"
                + " <time class=\"index-date\" datetime=\"2023-11-14T22:13:20Z\">14 Nov 2023</time> <span class=\"index-folder\" dir=\"auto\">sub</span>"
                + " <span class=\"index-tags\"> <a class=\"tag\" dir=\"auto\" href=\"tags/work.html\">#work</a></span>"
                + " <p class=\"index-excerpt\" dir=\"auto\">Beta text alpha.</p></li>",
            "<li class=\"index-entry\"><a class=\"index-title text-headline letterpress\" dir=\"auto\" href=\"gamma.html\">Gamma</a>"
                + " <time class=\"index-date\" datetime=\"2023-11-14T22:13:20Z\">14 Nov 2023</time>"
                + " <p class=\"index-excerpt\" dir=\"auto\">No tags. alpha</p></li>",
        ])
    }

    // MARK: Tag pages

    /// Tag names become file names by one rule (``Hashtags/pagePath(_:)``): lower case, `/` a
    /// folder, spaces and unsafe characters `-`, other scripts kept; tags that map to one file
    /// share its page, which names them all.
    func testTagPagePathsAreSafeFileNamesAndCollidingTagsShareAPage() {
        XCTAssertEqual(Hashtags.pagePath("Work"), "work")
        XCTAssertEqual(Hashtags.pagePath("Reading List"), "reading-list")
        XCTAssertEqual(Hashtags.pagePath("café/été"), "café/été")
        XCTAssertEqual(Hashtags.pagePath("a/../b//c/"), "a/b/c")
        XCTAssertEqual(Hashtags.pagePath("what?*<>|\"x:y\\z"), "what------x-y-z")
        XCTAssertEqual(Hashtags.pagePath(".hidden"), "_hidden")
        XCTAssertEqual(Hashtags.pagePath("tab\there"), "tab-here")
        XCTAssertEqual(Hashtags.pagePath("/"), "_")
        XCTAssertEqual(Hashtags.pagePath(String(repeating: "é", count: 150)), String(repeating: "é", count: 100), "200 bytes at most")
    }

    func testOnePagePerTagListingItsNotesWithSharedPagesForCollidingNames() throws {
        let (input, out) = try site(["alpha.md": Self.alpha, "sub/beta.md": Self.beta, "gamma.md": Self.gamma])
        let r = try NotepressBinary.run(["convert", input, "-o", out], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        let tagPages = TestPaths.files(under: URL(fileURLWithPath: out + "/tags")).map { String($0.path.dropFirst(out.count + 1)) }.sorted()
        XCTAssertEqual(tagPages, ["tags/a-b.html", "tags/café/été.html", "tags/reading-list.html", "tags/work.html"])
        let work = try read(out + "/tags/work.html")
        XCTAssertTrue(work.contains("<title>#Work, #work</title>"), work)
        XCTAssertTrue(work.contains("<h1 class=\"note-title letterpress\" dir=\"auto\">#Work, #work</h1>"), work)
        XCTAssertTrue(work.contains("<nav class=\"site-nav\" aria-label=\"Site\"><a href=\"../index.html\">All notes</a></nav>"), work)
        XCTAssertEqual(rows(work).map { $0.components(separatedBy: "</a>")[0] }, [
            "<li class=\"index-entry\"><a class=\"index-title text-headline letterpress\" dir=\"auto\" href=\"../alpha.html\">Alpha",
            "<li class=\"index-entry\"><a class=\"index-title text-headline letterpress\" dir=\"auto\" href=\"../sub/beta.html\">Beta",
        ])
        let ab = try read(out + "/tags/a-b.html")
        XCTAssertTrue(ab.contains("<title>#a b, #a-b</title>"), ab)
        XCTAssertEqual(rows(ab).count, 1, "alpha has both tags and is listed once")
        let nested = try read(out + "/tags/café/été.html")
        XCTAssertTrue(nested.contains("href=\"../../alpha.html\">Alpha</a>"), nested)
        XCTAssertTrue(nested.contains("<a href=\"../../index.html\">All notes</a>"), nested)
        // The page's tags link to their pages; gamma has none and shows no list.
        let alpha = try read(out + "/alpha.html")
        XCTAssertTrue(alpha.contains("""
            <ul class="note-tags" aria-label="Tags">
            <li><a class="tag" dir="auto" href="tags/work.html">#Work</a></li>
            <li><a class="tag" dir="auto" href="tags/reading-list.html">#Reading List</a></li>
            <li><a class="tag" dir="auto" href="tags/caf%C3%A9/%C3%A9t%C3%A9.html">#café/été</a></li>
            <li><a class="tag" dir="auto" href="tags/a-b.html">#a b</a></li>
            <li><a class="tag" dir="auto" href="tags/a-b.html">#a-b</a></li>
            </ul>
            """), alpha)
        XCTAssertTrue(try read(out + "/sub/beta.html").contains("<li><a class=\"tag\" dir=\"auto\" href=\"../tags/work.html\">#work</a></li>"))
        XCTAssertFalse(try read(out + "/gamma.html").contains("<ul class=\"note-tags\""))
    }

    /// No page has a tag: no tag pages, and hashtag-free pages show no tag list.
    func testNoTagsNoTagPages() throws {
        let (input, out) = try site(["gamma.md": Self.gamma, "alpha.md": "# Alpha\n"])
        let r = try NotepressBinary.run(["convert", input, "-o", out], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(exists(out + "/tags"))
        XCTAssertFalse(try read(out + "/alpha.html").contains("<ul class=\"note-tags\""))
    }

    /// With `--hashtags`, `#work` in the text links to the tag page (relative to the page);
    /// without tag pages it stays a span.
    func testHashtagsLinkToTheirTagPages() throws {
        let (input, out) = try site(["alpha.md": Self.alpha, "sub/beta.md": "# Beta\n\nSee #Work and #new-tag.\n"])
        let r = try NotepressBinary.run(["convert", input, "-o", out, "--hashtags"], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(try read(out + "/alpha.html").contains("and <a class=\"tag\" href=\"tags/work.html\">#work</a> here."))
        XCTAssertTrue(try read(out + "/sub/beta.html").contains(
            "See <a class=\"tag\" href=\"../tags/work.html\">#Work</a> and <a class=\"tag\" href=\"../tags/new-tag.html\">#new-tag</a>."))
        XCTAssertTrue(try read(out + "/tags/new-tag.html").contains("href=\"../sub/beta.html\">Beta</a>"))
    }

    /// A tag page never replaces a converted input's page: `tags/work.md` is an input.
    func testTagPageNeverReplacesAnInputsPage() throws {
        let (input, out) = try site(["alpha.md": Self.alpha, "tags/work.md": "# Mine\n"])
        let r = try NotepressBinary.run(["convert", input, "-o", out], environment: env)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("tags/work.md: error: the generated tag page \(out)/tags/work.html would replace this page's output; page not written"), r.stderr)
        XCTAssertTrue(try read(out + "/tags/work.html").contains("<h1 id=\"mine\" dir=\"auto\">Mine</h1>"))
        XCTAssertTrue(exists(out + "/tags/reading-list.html"), "the other tag pages are written")
    }

    // MARK: Backlinks

    func testBacklinksListTheLinkingPagesByTitleOnlyWithTheOption() throws {
        let (input, out) = try site(["alpha.md": Self.alpha, "sub/beta.md": Self.beta, "gamma.md": Self.gamma,
                                     "self.md": "# Self\n\n[me](self.md) [alpha](alpha.md) [again](alpha.md#alpha)\n"])
        let plain = try NotepressBinary.run(["convert", input, "-o", out + "1"], environment: env)
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertFalse(try read(out + "1/alpha.html").contains("Linked from"))
        let r = try NotepressBinary.run(["convert", input, "-o", out, "--backlinks"], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        let alphaPage = try read(out + "/alpha.html")
        XCTAssertTrue(alphaPage.contains("""
            <nav class="backlinks" aria-label="Linked from">
            <p class="backlinks-title">Linked from</p>
            <ul>
            <li><a dir="auto" href="sub/beta.html">Beta</a></li>
            <li><a dir="auto" href="gamma.html">Gamma</a></li>
            <li><a dir="auto" href="self.html">Self</a></li>
            </ul>
            </nav>
            </article>
            """), alphaPage)
        XCTAssertTrue(try read(out + "/sub/beta.html").contains("<li><a dir=\"auto\" href=\"../alpha.html\">Alpha</a></li>"))
        XCTAssertFalse(try read(out + "/self.html").contains("Linked from"), "a page's links to itself are no backlinks")
        XCTAssertFalse(try read(out + "/gamma.html").contains("Linked from"))
    }

    // MARK: Incremental, manifest, prune

    /// A no-change re-run writes nothing; a changed tag set renders again exactly the page whose
    /// tags changed and writes exactly the tag pages whose lists changed; a changed link graph
    /// renders the pages whose backlinks changed; `--prune` removes the page of a tag no note has.
    func testChangedTagsAndLinksRenderExactlyTheAffectedPages() throws {
        let (input, out) = try site(["alpha.md": Self.alpha, "sub/beta.md": Self.beta, "gamma.md": Self.gamma])
        let args = ["convert", input, "-o", out, "--backlinks", "--verbose"]
        let first = try NotepressBinary.run(args, environment: env)
        XCTAssertEqual(first.status, 0, first.stderr)
        // The shared assets are site assets, not tag pages (the new-user try-out: every
        // _notepress/ file was listed as "tag page:").
        let assets = first.stderr.split(separator: "\n").filter { $0.contains("/_notepress/") }
        XCTAssertTrue(assets.contains("site asset: \(out)/_notepress/notepress.css"), first.stderr)
        XCTAssertTrue(assets.allSatisfy { $0.hasPrefix("site asset: \(out)/_notepress/") }, first.stderr)
        XCTAssertTrue(first.stderr.contains("tag page: \(out)/tags/work.html\n"), first.stderr)
        let manifest = try read(out + "/" + Manifest.fileName)
        XCTAssertTrue(manifest.contains("\nI\tindex.html\t"), manifest)
        // Hashed (issue 44 item 5): `--prune` after a copy without times decides from the hash.
        XCTAssertNotNil(manifest.range(of: "\nG\ttags/a-b.html\t[0-9a-f]{64}\t", options: .regularExpression), manifest)
        XCTAssertTrue(manifest.contains("\nG\ttags/work.html\t"), manifest)

        let before = times(out)
        let again = try NotepressBinary.run(args, environment: env)
        XCTAssertTrue(again.stderr.contains("converted 0, skipped 3 (unchanged)"), again.stderr)
        XCTAssertEqual(times(out), before, "a re-run writes nothing")

        // beta's tags: work → work, garden.
        try write(["sub/beta.md": "---\ntags: [work, garden]\n---\n# Beta\n\nBeta text [[alpha]].\n"], into: input)
        let tags = try NotepressBinary.run(args, environment: env)
        XCTAssertEqual(tags.status, 0, tags.stderr)
        XCTAssertTrue(tags.stderr.contains("converted \(input)/sub/beta.md\n"), tags.stderr)
        XCTAssertTrue(tags.stderr.contains("skipped \(input)/alpha.md\n"), tags.stderr)
        XCTAssertTrue(tags.stderr.contains("skipped \(input)/gamma.md\n"), tags.stderr)
        XCTAssertTrue(tags.stderr.contains("tag page: \(out)/tags/garden.html\n"), tags.stderr)
        XCTAssertTrue(tags.stderr.contains("tag page: \(out)/tags/work.html\n"), tags.stderr)
        XCTAssertFalse(tags.stderr.contains("tag page: \(out)/tags/a-b.html"), tags.stderr)
        let afterTags = times(out)
        XCTAssertEqual(afterTags["tags/a-b.html"], before["tags/a-b.html"], "an unchanged tag page is not written")
        XCTAssertEqual(afterTags["alpha.html"], before["alpha.html"])
        XCTAssertTrue(try read(out + "/tags/garden.html").contains("href=\"../sub/beta.html\">Beta</a>"))

        // gamma stops linking to alpha: gamma (its input) and alpha (its backlinks) are rendered.
        try write(["gamma.md": "# Gamma\n\nNo tags, no links.\n"], into: input)
        let links = try NotepressBinary.run(args, environment: env)
        XCTAssertTrue(links.stderr.contains("converted \(input)/alpha.md\n"), links.stderr)
        XCTAssertTrue(links.stderr.contains("converted \(input)/gamma.md\n"), links.stderr)
        XCTAssertTrue(links.stderr.contains("skipped \(input)/sub/beta.md\n"), links.stderr)
        // (The sidebar still lists gamma; its backlink is gone.)
        XCTAssertFalse(try read(out + "/alpha.html").contains("<li><a dir=\"auto\" href=\"gamma.html\">"))

        // alpha drops its tags: their pages stay until --prune removes them.
        try write(["alpha.md": "# Alpha\n\nNo tags now.\n"], into: input)
        let dropped = try NotepressBinary.run(args, environment: env)
        XCTAssertEqual(dropped.status, 0, dropped.stderr)
        XCTAssertTrue(exists(out + "/tags/a-b.html"))
        let pruned = try NotepressBinary.run(args + ["--prune"], environment: env)
        XCTAssertEqual(pruned.status, 0, pruned.stderr)
        XCTAssertTrue(pruned.stderr.contains("removed \(out)/tags/a-b.html\n"), pruned.stderr)
        XCTAssertTrue(pruned.stderr.contains("removed \(out)/tags/café/été.html\n"), pruned.stderr)
        XCTAssertTrue(pruned.stderr.contains("removed \(out)/tags/reading-list.html\n"), pruned.stderr)
        XCTAssertFalse(exists(out + "/tags/café"), "an emptied folder goes too")
        XCTAssertTrue(exists(out + "/tags/work.html"), "beta still has work")
        XCTAssertFalse(try read(out + "/" + Manifest.fileName).contains("tags/a-b.html"))
    }

    // MARK: Templates

    /// The rows are the partial `html/note-entry.html` and tag pages `html/tag.html`, both
    /// overridable with `--data-dir`; changing one renders the site-wide pages again.
    func testIndexAndTagTemplatesComeFromTheDataFolder() throws {
        let (input, out) = try site(["alpha.md": Self.alpha, "gamma.md": Self.gamma])
        let data = (input as NSString).deletingLastPathComponent + "/data"
        try write(["html/note-entry.html": "<li>{{title}}|{{date}}|{{folder}}|{{#tags}}{{name}}>{{{href}}};{{/tags}}|{{excerpt}}</li>\n",
                   "html/tag.html": "TAG {{title}} ({{tag}})\n{{#notes}}\n{{> note-entry}}\n{{/notes}}\n"], into: data)
        let r = try NotepressBinary.run(["convert", input, "-o", out, "--data-dir", data], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(try read(out + "/index.html").contains(
            "<li>Alpha|1 May 2024||Work>tags/work.html;Reading List>tags/reading-list.html;café/été>tags/caf%C3%A9/%C3%A9t%C3%A9.html;"
            + "a b>tags/a-b.html;a-b>tags/a-b.html;|First paragraph of alpha links beta and #work here.</li>\n"
            + "<li>Gamma|14 Nov 2023|||No tags. alpha</li>\n"))
        XCTAssertEqual(try read(out + "/tags/work.html"),
                       "TAG #Work (Work)\n<li>Alpha|1 May 2024||Work>../tags/work.html;Reading List>../tags/reading-list.html;"
                       + "café/été>../tags/caf%C3%A9/%C3%A9t%C3%A9.html;a b>../tags/a-b.html;a-b>../tags/a-b.html;|"
                       + "First paragraph of alpha links beta and #work here.</li>\n")
    }
}
