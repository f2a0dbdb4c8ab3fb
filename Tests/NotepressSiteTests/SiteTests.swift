import Foundation
import XCTest
import NotepressTestSupport
@testable import Notepress
@testable import NotepressSite

/// Issue 14 through the real binary: a folder becomes a site (index pages, heading ids, links
/// rewritten per format, wiki links, assets, the link report, titles, layout).
final class SiteTests: XCTestCase {
    /// A fresh `in` folder with `files` (relative path → text) and the path of `out` beside it.
    func site(_ files: [String: String]) throws -> (input: String, output: String) {
        let s = try makeSiteFolder(self, files)
        return (s.input, s.output)
    }

    func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// The `<article>` of an HTML page.
    func article(_ path: String) throws -> String {
        let page = try read(path)
        guard let a = page.range(of: "<article class=\"note\">\n"), let b = page.range(of: "</article>") else { return page }
        return String(page[a.upperBound..<b.lowerBound])
    }

    let env = ["SOURCE_DATE_EPOCH": "1700000000", "NO_COLOR": "1"]

    // MARK: 1. No collisions

    /// Regression (issue 14): `in/index.md` was converted to `out/index.html` and then replaced by
    /// the generated notes list, and every re-run converted it again.
    func testFolderIndexPageIsKeptAndTheNotesListMovesAndRerunIsANoOp() throws {
        let (input, out) = try site(["index.md": "# Home\n\nWelcome.\n", "sub/other.md": "# Other\n"])
        let r = try NotepressBinary.run(["convert", input, "-o", out], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(try article(out + "/index.html").contains("<h1 id=\"home\" dir=\"auto\">Home</h1>\n<p dir=\"auto\">Welcome.</p>"))
        let list = try read(out + "/notes-index.html")
        XCTAssertTrue(list.contains("href=\"index.html\">Home</a>"), list)
        XCTAssertTrue(list.contains("href=\"sub/other.html\">Other</a>"), list)
        XCTAssertTrue(list.contains("<nav class=\"site-nav\" aria-label=\"Site\"><a href=\"index.html\">Home</a></nav>"), list)
        XCTAssertTrue(try read(out + "/index.html").contains("<nav class=\"site-nav\" aria-label=\"Site\"><a href=\"notes-index.html\">All notes</a></nav>"))
        XCTAssertTrue(try read(out + "/sub/other.html").contains("<a href=\"../notes-index.html\">All notes</a>"))
        let times = try [out + "/index.html", out + "/notes-index.html", out + "/" + Manifest.fileName].map {
            try FileManager.default.attributesOfItem(atPath: $0)[.modificationDate] as! Date
        }
        let again = try NotepressBinary.run(["convert", input, "-o", out], environment: env)
        XCTAssertTrue(again.stderr.contains("converted 0, skipped 2 (unchanged)"), again.stderr)
        let after = try [out + "/index.html", out + "/notes-index.html", out + "/" + Manifest.fileName].map {
            try FileManager.default.attributesOfItem(atPath: $0)[.modificationDate] as! Date
        }
        XCTAssertEqual(after, times, "a re-run writes nothing")
    }

    /// A folder's README is its index page (`index.html`) when it has no `index.*`; a folder link
    /// and a link to the README go there. Without a root index page the notes list is `index.html`.
    func testReadmeIsTheFolderIndexAndFolderLinksGoThere() throws {
        let (input, out) = try site([
            "a.md": "[sub](sub/) [readme](sub/README.md) [[sub]]\n",
            "sub/README.md": "# Sub\n", "both/index.md": "# I\n", "both/README.md": "# R\n",
        ])
        let r = try NotepressBinary.run(["convert", input, "-o", out], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(exists(out + "/sub/index.html"))
        XCTAssertFalse(exists(out + "/sub/README.html"))
        XCTAssertTrue(exists(out + "/both/index.html") && exists(out + "/both/README.html"), "index.md wins; README stays README")
        XCTAssertTrue(try article(out + "/a.html").contains(
            "<p dir=\"auto\"><a href=\"sub/index.html\">sub</a> <a href=\"sub/index.html\">readme</a> <a href=\"sub/index.html\">sub</a></p>"))
        XCTAssertTrue(try read(out + "/index.html").contains("<ol class=\"index-list\" reversed>"), "the notes list is the root index")
        XCTAssertFalse(exists(out + "/notes-index.html"))
    }

    /// A generated file never replaces a converted input: `notes-index.md` beside `index.md`.
    func testNotesListNeverReplacesAnInputsPage() throws {
        let (input, out) = try site(["index.md": "# Home\n", "notes-index.md": "# Mine\n"])
        let r = try NotepressBinary.run(["convert", input, "-o", out], environment: env)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("notes-index.md: error: the generated notes list \(out)/notes-index.html would replace this page's output; list not written"), r.stderr)
        XCTAssertTrue(try article(out + "/notes-index.html").contains("<h1 id=\"mine\" dir=\"auto\">Mine</h1>"))
    }

    // MARK: 2. Heading ids

    func testPagesAndTEIGetGitHubHeadingIDsAndFragmentsOnlyWithTheOption() throws {
        let (input, out) = try site(["a.md": "# Über uns\n\n## Part two\n\n## Part two\n\n> ### 1. Nested!\n"])
        let r = try NotepressBinary.run(["convert", input, "-o", out, "-t", "html,tei"], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try article(out + "/a.html").components(separatedBy: "\n").filter { $0.contains("<h") }, [
            "<h1 id=\"über-uns\" dir=\"auto\">Über uns</h1>", "<h2 id=\"part-two\" dir=\"auto\">Part two</h2>", "<h2 id=\"part-two-1\" dir=\"auto\">Part two</h2>",
            "<h3 id=\"1-nested\" dir=\"auto\">1. Nested!</h3>",
        ])
        let tei = try read(out + "/a.xml")
        for id in ["über-uns", "part-two", "part-two-1", "h.1-nested"] { XCTAssertTrue(tei.contains("xml:id=\"\(id)\""), id) }
        XCTAssertEqual(try runTool("xmllint", ["--noout", out + "/a.xml"]).status, 0)
        // A fragment is cmark-gfm's HTML unless --heading-ids.
        let file = input + "/a.md"
        let plain = try NotepressBinary.run(["convert", file, "--fragment"])
        XCTAssertEqual(plain.stdout, try runTool("cmark-gfm", [file]).output.data(using: .utf8))
        XCTAssertTrue(plain.stdoutText.hasPrefix("<h1>Über uns</h1>\n<h2>Part two</h2>"))
        let ids = try NotepressBinary.run(["convert", file, "--fragment", "--heading-ids"])
        XCTAssertTrue(ids.stdoutText.hasPrefix("<h1 id=\"über-uns\">Über uns</h1>\n<h2 id=\"part-two\">Part two</h2>"), ids.stdoutText)
        // A single page gets ids too.
        XCTAssertTrue(try NotepressBinary.run(["convert", file]).stdoutText.contains("<h2 id=\"part-two-1\" dir=\"auto\">Part two</h2>"))
    }

    // MARK: 3. Links between inputs, per format

    func testLinksToOtherInputsPointAtTheConvertedFilesOfEachFormat() throws {
        let (input, out) = try site([
            "a.md": "[b](sub/b.md#part-two) [dir](sub/) [n](n.note) [run](podman-run.1.md) [podman-run](podman-run.1.md)\n",
            "sub/b.md": "# B\n\n## Part two\n", "sub/index.md": "# Sub\n", "n.note": "note\n",
            "podman-run.1.md": "---\nsection: 1\n---\n# NAME\n\npodman-run - run\n",
        ])
        let r = try NotepressBinary.run(["convert", input, "-o", out, "-t", "html,rtf,tei,ansi,man,json", "--color", "never"], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(try article(out + "/a.html").contains(
            "<p dir=\"auto\"><a href=\"sub/b.html#part-two\">b</a> <a href=\"sub/index.html\">dir</a> <a href=\"n.html\">n</a> "
            + "<a href=\"podman-run.1.html\">run</a> <a href=\"podman-run.1.html\">podman-run</a></p>"))
        let rtf = try read(out + "/a.rtf")
        // A fragment is the target file's bookmark (\l) of that heading id.
        XCTAssertTrue(rtf.contains(#"HYPERLINK "sub/b.rtf" \\l "id_part_two""#), rtf)
        for target in ["sub/index.rtf", "n.rtf", "podman-run.1.rtf"] {
            XCTAssertTrue(rtf.contains("HYPERLINK \"\(target)\""), target)
        }
        XCTAssertTrue(try read(out + "/sub/b.rtf").contains(#"{\*\bkmkstart id_part_two}{\*\bkmkend id_part_two}Part two\par"#))
        let tei = try read(out + "/a.xml")
        XCTAssertTrue(tei.contains("<ref target=\"sub/b.xml#part-two\">b</ref> <ref target=\"sub/index.xml\">dir</ref>"), tei)
        XCTAssertTrue(try read(out + "/a.ans").contains("b (sub/b.ans#part-two) dir (sub/index.ans) n (n.ans)"))
        XCTAssertTrue(try read(out + "/a.json").contains("\"destination\": \"sub/b.json#part-two\""))
        // A man page names the page and its section, never a .md path.
        let man = try read(out + "/a.man")
        // The link text is the name: the name alone; else the text, then the name.
        XCTAssertTrue(man.hasSuffix(".PP\nb(1) dir (index(1)) n(7) run (podman-run(1)) podman-run(1)\n"), man)
        XCTAssertFalse(man.contains(".md"), man)
    }

    // MARK: 4. Wiki links

    func testWikiLinksResolveByNameCaseInsensitivelyShortestPathFirst() throws {
        let (input, out) = try site([
            "a.note": "See [[Other]], [[other|the label]], [[Other#Part Two]], [[deep/other]], [[sub]], [[Nope]].\n",
            "x/other.md": "# O\n\n## Part two\n", "x/deep/other.md": "# Deep\n", "sub/README.md": "# Sub\n",
            "m.md": "[[x/other]] `[[in code]]` [[#Heading]]\n\n# Heading\n\n[[other]]\n\n[other]: x/other.md \"Other\"\n",
        ])
        let r = try NotepressBinary.run(["convert", input, "-o", out], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(try article(out + "/a.html").contains(
            "<p dir=\"auto\">See <a href=\"x/other.html\">Other</a>, <a href=\"x/other.html\">the label</a>, "
            + "<a href=\"x/other.html#part-two\">Other#Part Two</a>, <a href=\"x/deep/other.html\">deep/other</a>, "
            + "<a href=\"sub/index.html\">sub</a>, <span class=\"wikilink-missing\">Nope</span>.</p>"))
        // Markdown in a folder reads them (Foam's [[other]] with a reference definition too), never in code.
        XCTAssertTrue(try article(out + "/m.html").contains(
            "<p dir=\"auto\"><a href=\"x/other.html\">x/other</a> <code>[[in code]]</code> <a href=\"#heading\">#Heading</a></p>\n"
            + "<h1 id=\"heading\" dir=\"auto\">Heading</h1>\n<p dir=\"auto\"><a href=\"x/other.html\">other</a></p>"))
        XCTAssertTrue(r.stderr.contains("/a.note:1:82: warning: wiki link '[[Nope]]': no note or file named 'Nope'\n"), r.stderr)
        // --no-wikilinks: cmark-gfm's reading.
        let off = try NotepressBinary.run(["convert", input, "-o", out + "2", "--no-wikilinks"], environment: env)
        XCTAssertEqual(off.status, 0, off.stderr)
        XCTAssertTrue(try article(out + "2/m.html").contains(
            "<p dir=\"auto\">[[x/other]] <code>[[in code]]</code> [[#Heading]]</p>\n<h1 id=\"heading\" dir=\"auto\">Heading</h1>\n"
            + "<p dir=\"auto\">[<a href=\"x/other.html\" title=\"Other\">other</a>]</p>"))
        // One file: cmark-gfm's reading unless --wikilinks (then text: nothing to resolve against).
        XCTAssertEqual(try NotepressBinary.run(["convert", input + "/m.md", "--fragment"]).stdoutText.components(separatedBy: "\n")[0],
                       "<p>[[x/other]] <code>[[in code]]</code> [[#Heading]]</p>")
        XCTAssertEqual(try NotepressBinary.run(["convert", input + "/m.md", "--fragment", "--wikilinks"]).stdoutText.components(separatedBy: "\n")[0],
                       "<p><span class=\"wikilink-missing\">x/other</span> <code>[[in code]]</code> <span class=\"wikilink-missing\">#Heading</span></p>")
    }

    /// Regression: `view` of a note showed a wiki link's raw target after its label
    /// (`the label (Other)`); a single file has no pages to resolve it against: the text alone.
    func testViewShowsAWikiLinkAsItsText() throws {
        let (input, _) = try site(["v.note": "See [[Other|the label]] now.\n"])
        let r = try NotepressBinary.run(["view", "--color", "never", input + "/v.note"], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdoutText.hasSuffix("\nSee the label now.\n"), r.stdoutText)
    }

    // MARK: 5. Assets

    func testReferencedAssetsAreCopiedOnceAndOnlyThem() throws {
        let (input, out) = try site([
            "a.md": "![d](img/d.png) [pdf](docs/x.pdf) [up](../secret.txt) ![[img/e.png]]\n",
            "img/d.png": "PNG", "img/e.png": "PNG2", "img/unused.png": "U", "docs/x.pdf": "PDF",
        ])
        try Data("secret".utf8).write(to: URL(fileURLWithPath: input + "/../secret.txt"))
        let r = try NotepressBinary.run(["convert", input, "-o", out, "-t", "html,rtf"], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try read(out + "/img/d.png"), "PNG")
        XCTAssertEqual(try read(out + "/docs/x.pdf"), "PDF")
        XCTAssertEqual(try read(out + "/img/e.png"), "PNG2")
        XCTAssertFalse(exists(out + "/img/unused.png"))
        XCTAssertFalse(exists(out + "/../secret.txt.copy") || exists(out + "/secret.txt"))
        XCTAssertTrue(r.stderr.contains("/a.md:1:35: warning: link to '../secret.txt': outside the input folder; not copied"), r.stderr)
        XCTAssertTrue(r.stderr.contains("; assets: copied 3, unchanged 0; broken links: 1"), r.stderr)
        XCTAssertTrue(try article(out + "/a.html").contains("<img src=\"img/d.png\" alt=\"d\" /> <a href=\"docs/x.pdf\">pdf</a>"))
        // Re-run: nothing copied again. --copy-all copies the unused one too.
        let again = try NotepressBinary.run(["convert", input, "-o", out, "-t", "html,rtf"], environment: env)
        XCTAssertTrue(again.stderr.contains("; assets: copied 0, unchanged 3;"), again.stderr)
        let all = try NotepressBinary.run(["convert", input, "-o", out, "-t", "html,rtf", "--copy-all"], environment: env)
        XCTAssertTrue(all.stderr.contains("; assets: copied 1, unchanged 3;"), all.stderr)
        XCTAssertEqual(try read(out + "/img/unused.png"), "U")
        // An asset no page uses any more is removed by --prune.
        try Data("no images\n".utf8).write(to: URL(fileURLWithPath: input + "/a.md"))
        let pruned = try NotepressBinary.run(["convert", input, "-o", out, "-t", "html,rtf", "--prune"], environment: env)
        XCTAssertEqual(pruned.status, 0, pruned.stderr)
        for gone in ["img/d.png", "img/e.png", "img/unused.png", "docs/x.pdf"] {
            XCTAssertFalse(exists(out + "/" + gone), gone)
            XCTAssertTrue(pruned.stderr.contains("removed \(out)/\(gone)\n"), pruned.stderr)
        }
        XCTAssertFalse(exists(out + "/img"), "an emptied folder goes too")
    }

    // MARK: 6. Link report

    func testLinkReportListsEachBrokenLinkOnceInOrderAndStrictMakesThemErrors() throws {
        let (input, out) = try site([
            "a.md": "# A\n\n[x](b.md#nope) [y](missing.md) ![i](i.gif) [z](#top) [[Gone]] [ok](b.md#part)\n\n```\n[code](nowhere.md)\n```\n",
            "b.md": "## Part\n\n[back](a.md#a) [self](#part) [dup](missing.md) [dup](missing.md)\n",
        ])
        let r = try NotepressBinary.run(["convert", input, "-o", out], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        let report = r.stderr.split(separator: "\n").filter { $0.contains(": warning: ") }.map(String.init)
        XCTAssertEqual(report, [
            "\(input)/a.md:3:1: warning: link to 'b.md#nope': no heading 'nope' in b.md",
            "\(input)/a.md:3:16: warning: link to 'missing.md': no such file missing.md",
            "\(input)/a.md:3:32: warning: image 'i.gif': no such file i.gif",
            "\(input)/a.md:3:44: warning: link to '#top': no heading 'top' in this page (a.md)",
            "\(input)/a.md:3:54: warning: wiki link '[[Gone]]': no note or file named 'Gone'",
            "\(input)/b.md:3:30: warning: link to 'missing.md': no such file missing.md",
            "\(input)/b.md:3:48: warning: link to 'missing.md': no such file missing.md",
        ])
        XCTAssertTrue(r.stderr.contains("; broken links: 7\n"), r.stderr)
        let strict = try NotepressBinary.run(["convert", input, "-o", out, "--strict-links"], environment: env)
        XCTAssertEqual(strict.status, 1)
        XCTAssertTrue(strict.stderr.contains("\(input)/a.md:3:1: error: link to 'b.md#nope': no heading 'nope' in b.md\n"), strict.stderr)
        XCTAssertTrue(strict.stderr.hasSuffix("7 broken links (--strict-links)\n"), strict.stderr)
    }

    // MARK: 7. Titles

    func testMarkdownTitleIsTheFirstHeadingShownOnceAndNotesKeepTheirStem() throws {
        let (input, out) = try site([
            "page.md": "Intro line.\n\n# My *Title*\n\nText.\n", "front.md": "---\ntitle: Given\n---\n# Heading\n",
            "plain.md": "no heading\n", "n.note": "# not a heading\n",
        ])
        let r = try NotepressBinary.run(["convert", input, "-o", out, "-t", "html,rtf"], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        let page = try read(out + "/page.html")
        XCTAssertTrue(page.contains("<title>My Title</title>"))
        XCTAssertFalse(page.contains("note-title letterpress\" dir=\"auto\">"), "the title is not shown twice")
        XCTAssertTrue(try read(out + "/front.html").contains("<h1 class=\"note-title letterpress\" dir=\"auto\">Given</h1>"))
        XCTAssertTrue(try read(out + "/plain.html").contains("<h1 class=\"note-title letterpress\" dir=\"auto\">plain</h1>"))
        XCTAssertTrue(try read(out + "/n.html").contains("<h1 class=\"note-title letterpress\" dir=\"auto\">n</h1>"))
        let list = try read(out + "/index.html")
        for title in ["My Title", "Given", "plain", "n"] { XCTAssertTrue(list.contains("\">\(title)</a>"), title) }
        XCTAssertFalse(try read(out + "/page.rtf").contains("\\impr My Title"), "RTF shows it once too")
    }

    // MARK: 10. Layout

    func testOneLayoutRuleForAnyNumberOfFormatsAndPruneRemovesAnEarlierLayout() throws {
        let (input, out) = try site(["a.md": "# A\n\n![i](i.png)\n", "i.png": "P"])
        XCTAssertEqual(try NotepressBinary.run(["convert", input, "-o", out], environment: env).status, 0)
        XCTAssertTrue(exists(out + "/a.html") && exists(out + "/i.png"))
        XCTAssertEqual(try NotepressBinary.run(["convert", input, "-o", out, "-t", "html,rtf"], environment: env).status, 0)
        XCTAssertTrue(exists(out + "/a.html") && exists(out + "/a.rtf"), "two formats: the same tree")
        let mirror = try NotepressBinary.run(["convert", input, "-o", out, "-t", "html", "--layout", "mirror", "--prune"], environment: env)
        XCTAssertEqual(mirror.status, 0, mirror.stderr)
        XCTAssertTrue(exists(out + "/html/a.html") && exists(out + "/html/i.png") && exists(out + "/html/index.html"))
        for gone in ["a.html", "a.rtf", "i.png", "index.html"] {
            XCTAssertFalse(exists(out + "/" + gone), gone)
            XCTAssertTrue(mirror.stderr.contains("removed \(out)/\(gone)\n"), mirror.stderr)
        }
        let back = try NotepressBinary.run(["convert", input, "-o", out, "--prune"], environment: env)
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertFalse(exists(out + "/html"), "the mirror tree is gone, folder and all")
        XCTAssertTrue(exists(out + "/a.html"))
    }

    // MARK: Incremental: what a page reads from the table

    /// a.md links to a heading of b.md. Renaming that heading changes nothing in a.md, yet a.md's
    /// page must be written again (its link now names no heading) and the report says so; a
    /// re-run with no change converts nothing.
    func testEditingAHeadingAnotherPageLinksToRendersThatPageAgain() throws {
        let (input, out) = try site(["a.md": "# A\n\n[b](b.md#part-two)\n", "b.md": "# B\n\n## Part two\n", "c.md": "# C\n"])
        let first = try NotepressBinary.run(["convert", input, "-o", out, "--verbose"], environment: env)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertFalse(first.stderr.contains("warning"), first.stderr)
        try Data("# B\n\n## Part 2\n".utf8).write(to: URL(fileURLWithPath: input + "/b.md"))
        let second = try NotepressBinary.run(["convert", input, "-o", out, "--verbose"], environment: env)
        XCTAssertTrue(second.stderr.contains("converted \(input)/a.md\n"), second.stderr)
        XCTAssertTrue(second.stderr.contains("converted \(input)/b.md\n"), second.stderr)
        XCTAssertTrue(second.stderr.contains("skipped \(input)/c.md\n"), second.stderr)
        XCTAssertTrue(second.stderr.contains("\(input)/a.md:3:1: warning: link to 'b.md#part-two': no heading 'part-two' in b.md\n"), second.stderr)
        try Data("# B\n\n## Part two\n".utf8).write(to: URL(fileURLWithPath: input + "/b.md"))
        let third = try NotepressBinary.run(["convert", input, "-o", out], environment: env)
        XCTAssertTrue(third.stderr.hasPrefix("converted 2, skipped 1 (unchanged)"), third.stderr)
        let fourth = try NotepressBinary.run(["convert", input, "-o", out], environment: env)
        XCTAssertTrue(fourth.stderr.hasPrefix("converted 0, skipped 3 (unchanged)"), fourth.stderr)
    }
}
