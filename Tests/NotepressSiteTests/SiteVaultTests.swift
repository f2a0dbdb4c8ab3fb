import Foundation
import XCTest
import NotepressTestSupport
@testable import Notepress
@testable import NotepressSite

/// End to end over a real note vault (`../shared/corpus/vault-foam`, Foam's documentation):
/// the real binary converts it, Python's `html.parser` reads every page it wrote, and every
/// internal `href`/`src` must reach an existing file and id, except exactly the links the link
/// report lists (checked by hand: GIFs left out of the corpus, files outside the vault, two
/// links to headings the page does not have, a wiki link to a folder without an index page and
/// one to a note that does not exist).
final class SiteVaultTests: XCTestCase {
    var vault: String { TestPaths.corpus.appendingPathComponent("vault-foam").path }

    /// The link report on the vault, in order (paths below the vault).
    static let report = [
        "dev/contribution-guide.md:3:37: warning: link to '../../CONTRIBUTING.md': outside the input folder; not copied",
        "dev/design/static-site-publishing-research.md:11:3: warning: link to '../../user/publishing/publishing.md': no such file user/publishing/publishing.md",
        "index.md:97:1: warning: image 'assets/images/foam-navigation-demo.gif': no such file assets/images/foam-navigation-demo.gif",
        // The all-contributors table's raw HTML links (issue 53: raw HTML links are checked too).
        "index.md:114:1: warning: link to '#content-theowenyoung': no heading 'content-theowenyoung' in this page (index.md)",
        "index.md:114:1: warning: link to '#question-thomaskoppelaar': no heading 'question-thomaskoppelaar' in this page (index.md)",
        "index.md:114:1: warning: link to '#tool-cliffordfajardo': no heading 'tool-cliffordfajardo' in this page (index.md)",
        "index.md:114:1: warning: link to '#tool-hezhizhen': no heading 'tool-hezhizhen' in this page (index.md)",
        "index.md:114:1: warning: link to '#userTesting-thomaskoppelaar': no heading 'userTesting-thomaskoppelaar' in this page (index.md)",
        "index.md:301:28: warning: link to 'LICENSE.txt': no such file LICENSE.txt",
        "principles.md:40:97: warning: link to 'LICENSE.txt': no such file LICENSE.txt",
        "user/features/custom-snippets.md:8:4: warning: image '../../assets/images/custom-snippet.gif': no such file assets/images/custom-snippet.gif",
        "user/features/graph-view.md:172:1: warning: image '../../assets/images/graph-style.gif': no such file assets/images/graph-style.gif",
        "user/features/templates.md:25:1: warning: image '../../assets/images/create-new-template.gif': no such file assets/images/create-new-template.gif",
        "user/features/templates.md:34:1: warning: image '../../assets/images/create-new-note-from-template.gif': no such file assets/images/create-new-note-from-template.gif",
        "user/index.md:69:5: warning: wiki link '[[publishing]]': no note or file named 'publishing'",
        "user/recipes/automatically-expand-urls-to-well-titled-links.md:13:1: warning: image '../../assets/images/prettify-links-demo.gif': no such file assets/images/prettify-links-demo.gif",
        "user/recipes/generate-material-for-mkdocs-site.md:35:4: warning: link to '#further-customise-material-for-mkdocs': no heading 'further-customise-material-for-mkdocs' in this page (user/recipes/generate-material-for-mkdocs-site.md)",
        "user/recipes/generate-material-for-mkdocs-site.md:39:4: warning: link to '#publish-your-site': no heading 'publish-your-site' in this page (user/recipes/generate-material-for-mkdocs-site.md)",
        "user/recipes/how-to-write-recipes.md:27:1: warning: image '../../assets/images/foam-navigation-demo.gif': no such file assets/images/foam-navigation-demo.gif",
        "user/recipes/predefined-user-snippets.md:27:1: warning: image '../../assets/images/snippets.gif': no such file assets/images/snippets.gif",
        "user/recipes/predefined-user-snippets.md:47:1: warning: image '../../assets/images/markdown-snippets.gif': no such file assets/images/markdown-snippets.gif",
        "user/tools/cli/search.md:11:35: warning: wiki link '[[cli-grep]]': no note or file named 'cli-grep'",
        "user/tools/workspace-lint.md:21:1: warning: image '../../assets/images/foam-janitor-demo.gif': no such file assets/images/foam-janitor-demo.gif",
    ]

    /// What the HTML checker finds broken: the report's links (its two wiki links are text, not links).
    static let unreachable = [
        "dev/contribution-guide.html\t../../CONTRIBUTING.md\tno file",
        "dev/design/static-site-publishing-research.html\t../../user/publishing/publishing.md\tno file",
        "index.html\tassets/images/foam-navigation-demo.gif\tno file",
        "index.html\t#question-thomaskoppelaar\tno id",
        "index.html\t#userTesting-thomaskoppelaar\tno id",
        "index.html\t#content-theowenyoung\tno id",
        "index.html\t#tool-cliffordfajardo\tno id",
        "index.html\t#tool-hezhizhen\tno id",
        "index.html\tLICENSE.txt\tno file",
        "principles.html\tLICENSE.txt\tno file",
        "user/features/custom-snippets.html\t../../assets/images/custom-snippet.gif\tno file",
        "user/features/graph-view.html\t../../assets/images/graph-style.gif\tno file",
        "user/features/templates.html\t../../assets/images/create-new-template.gif\tno file",
        "user/features/templates.html\t../../assets/images/create-new-note-from-template.gif\tno file",
        "user/recipes/automatically-expand-urls-to-well-titled-links.html\t../../assets/images/prettify-links-demo.gif\tno file",
        "user/recipes/generate-material-for-mkdocs-site.html\t#further-customise-material-for-mkdocs\tno id",
        "user/recipes/generate-material-for-mkdocs-site.html\t#publish-your-site\tno id",
        "user/recipes/how-to-write-recipes.html\t../../assets/images/foam-navigation-demo.gif\tno file",
        "user/recipes/predefined-user-snippets.html\t../../assets/images/snippets.gif\tno file",
        "user/recipes/predefined-user-snippets.html\t../../assets/images/markdown-snippets.gif\tno file",
        "user/tools/workspace-lint.html\t../../assets/images/foam-janitor-demo.gif\tno file",
    ]

    /// Reads every `.html` below the folder with `html.parser`; prints one line per internal
    /// `href`/`src` whose file is missing or whose fragment names no `id` in it (`PAGE\tURL\tWHY`),
    /// then `missing-wiki N` (spans of class `wikilink-missing`), then one `ids PAGE id…` line per
    /// page (heading ids in order), and the number of links checked on standard error.
    static let checker = """
    import sys, os
    from html.parser import HTMLParser
    from urllib.parse import urlsplit, unquote
    root = sys.argv[1]
    class P(HTMLParser):
        def __init__(self):
            super().__init__(); self.ids = set(); self.refs = []; self.headings = []; self.missing = 0
        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if 'id' in a:
                self.ids.add(a['id'])
                if tag in ('h1', 'h2', 'h3', 'h4', 'h5', 'h6'): self.headings.append(a['id'])
            if tag == 'a' and 'href' in a: self.refs.append(a['href'])
            if tag == 'img' and 'src' in a: self.refs.append(a['src'])
            if tag == 'span' and a.get('class') == 'wikilink-missing': self.missing += 1
    pages = {}
    for d, _, fs in os.walk(root):
        for f in fs:
            if f.endswith('.html'):
                p = os.path.join(d, f); x = P(); x.feed(open(p, encoding='utf-8').read()); pages[os.path.relpath(p, root)] = x
    checked = 0
    for rel, x in sorted(pages.items()):
        for url in x.refs:
            u = urlsplit(url)
            if u.scheme or url.startswith('//'): continue
            checked += 1
            # A path from the root (the not-found page's links: the site served at a host's root).
            base = '' if u.path.startswith('/') else os.path.dirname(rel)
            target = rel if u.path == '' else os.path.normpath(os.path.join(base, unquote(u.path).lstrip('/')))
            if target.startswith('..') or not os.path.isfile(os.path.join(root, target)):
                print(rel + '\\t' + url + '\\tno file'); continue
            if u.fragment and (target not in pages or unquote(u.fragment) not in pages[target].ids):
                print(rel + '\\t' + url + '\\tno id')
    print('missing-wiki', sum(x.missing for x in pages.values()))
    for rel, x in sorted(pages.items()): print('ids', rel, ' '.join(x.headings))
    print('checked', checked, file=sys.stderr)
    """

    func testVaultConvertsToASiteWhoseOnlyBrokenLinksAreTheReportedOnes() throws {
        let dir = try makeTempDir(self)
        let out = dir.appendingPathComponent("out").path
        let r = try NotepressBinary.run(["convert", vault, "-o", out], environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let warnings = r.stderr.split(separator: "\n").filter { $0.contains(": warning: ") }
            .map { String($0.dropFirst(vault.count + 1)) }
        XCTAssertEqual(warnings, Self.report)
        XCTAssertTrue(r.stderr.hasSuffix("; assets: copied 9, unchanged 0; broken links: 23\n"), r.stderr)
        XCTAssertTrue(r.stderr.contains("converted 86, skipped 0 (unchanged), skipped 14 (unknown kind), failed 0"), r.stderr)

        let script = dir.appendingPathComponent("check.py").path
        try Self.checker.write(toFile: script, atomically: true, encoding: .utf8)
        let check = try runTool("python3", [script, out])
        XCTAssertEqual(check.status, 0, check.output)
        let lines = check.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.contains("\t") && !$0.hasPrefix("print.html\t") }, Self.unreachable)
        // print.html (issue 47 item 5) holds the pages' broken links, each once, and no other.
        XCTAssertEqual(lines.filter { $0.hasPrefix("print.html\t") }.count, Self.unreachable.count, check.output)
        // Two in the pages, the same two again in print.html.
        XCTAssertTrue(lines.contains("missing-wiki 4"), check.output)
        let checked = lines.first { $0.hasPrefix("checked ") }.flatMap { Int($0.dropFirst(8)) } ?? 0
        XCTAssertGreaterThan(checked, 400, "internal links and images checked")

        // The site table and the pages agree on every heading id.
        let table = try XCTUnwrap(SiteTableCodec.load(outputRoot: out))
        var pageIDs: [String: String] = [:]
        for l in lines where l.hasPrefix("ids ") {
            let parts = l.dropFirst(4).split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            pageIDs[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        var compared = 0
        for r in table.records where r.kind == .page {
            let html = (table.outputStem(r.path) ?? "") + ".html"
            XCTAssertEqual(pageIDs[html], r.ids.joined(separator: " "), html)
            compared += 1
        }
        XCTAssertEqual(compared, 86)
        // The folder's own index.md is the site's index page; the notes list is beside it.
        XCTAssertTrue(try String(contentsOfFile: out + "/index.html", encoding: .utf8).contains("<h1 id=\"what-is-foam\" dir=\"auto\">What is Foam?</h1>"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/notes-index.html"))

        // A re-run converts nothing.
        let again = try NotepressBinary.run(["convert", vault, "-o", out], environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        XCTAssertTrue(again.stderr.contains("converted 0, skipped 86 (unchanged)"), again.stderr)
        XCTAssertTrue(again.stderr.contains("; assets: copied 0, unchanged 9; broken links: 23\n"), again.stderr)
    }

    /// Issue 14 item 9 on the vault: with `--backlinks --hashtags` the notes list, the tag pages
    /// (front matter `tags: [hello, bonjour]`, hashtags `#recipe`, `#book`, `#mobile-apps`), the
    /// pages' tag lists and hashtags and the backlinks all link to existing files: the checker
    /// finds exactly the same broken links as without them.
    func testVaultIndexTagPagesAndBacklinksAllResolve() throws {
        let dir = try makeTempDir(self)
        let out = dir.appendingPathComponent("out").path
        let r = try NotepressBinary.run(["convert", vault, "-o", out, "--backlinks", "--hashtags"],
                                        environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.hasSuffix("; assets: copied 9, unchanged 0; broken links: 23\n"), r.stderr)
        let tags = try FileManager.default.contentsOfDirectory(atPath: out + "/tags").sorted()
        XCTAssertEqual(tags, ["bonjour.html", "book.html", "hello.html", "mobile-apps.html", "recipe.html"])

        let script = dir.appendingPathComponent("check.py").path
        try Self.checker.write(toFile: script, atomically: true, encoding: .utf8)
        let check = try runTool("python3", [script, out])
        XCTAssertEqual(check.status, 0, check.output)
        XCTAssertEqual(check.output.split(separator: "\n").map(String.init).filter { $0.contains("\t") && !$0.hasPrefix("print.html\t") },
                       Self.unreachable)

        let list = try String(contentsOfFile: out + "/notes-index.html", encoding: .utf8)
        XCTAssertTrue(list.contains("<li class=\"index-entry\"><a class=\"index-title text-headline letterpress\" dir=\"auto\" "
            + "href=\"user/features/note-properties.html\">Note Properties</a> <time class=\"index-date\" datetime=\"2023-11-14T22:13:20Z\">"
            + "14 Nov 2023</time> <span class=\"index-folder\" dir=\"auto\">user/features</span> <span class=\"index-tags\">"
            + " <a class=\"tag\" dir=\"auto\" href=\"tags/hello.html\">#hello</a> <a class=\"tag\" dir=\"auto\" href=\"tags/bonjour.html\">#bonjour</a></span>"
            + " <p class=\"index-excerpt\" dir=\"auto\">At the top of the file you can have a section where you define your properties."), list)
        let recipe = try String(contentsOfFile: out + "/tags/recipe.html", encoding: .utf8)
        XCTAssertEqual(recipe.components(separatedBy: "class=\"index-entry\"").count - 1, 17, "the 17 notes with #recipe")
        XCTAssertTrue(recipe.contains("href=\"../user/recipes/web-clipper.html\">Web Clipper</a>"), recipe)
        let clipper = try String(contentsOfFile: out + "/user/recipes/web-clipper.html", encoding: .utf8)
        XCTAssertTrue(clipper.contains("This <a class=\"tag\" href=\"../../tags/recipe.html\">#recipe</a> allows you"), clipper)
        let wikilinks = try String(contentsOfFile: out + "/user/features/wikilinks.html", encoding: .utf8)
        XCTAssertTrue(wikilinks.contains("""
            <p class="backlinks-title">Linked from</p>
            <ul>
            <li><a dir="auto" href="block-anchors.html">Block Anchors</a></li>
            <li><a dir="auto" href="../recipes/migrating-from-obsidian.html">Coming from Obsidian</a></li>
            <li><a dir="auto" href="../tools/cli/rename.html">foam rename</a></li>
            <li><a dir="auto" href="footnotes.html">Footnotes</a></li>
            <li><a dir="auto" href="../frequently-asked-questions.html">Frequently Asked Questions</a></li>
            <li><a dir="auto" href="graph-view.html">Graph Visualization</a></li>
            <li><a dir="auto" href="../recipes/recipes.html">Recipes</a></li>
            <li><a dir="auto" href="../index.html">Using Foam</a></li>
            </ul>
            """), wikilinks)
        // A re-run writes nothing: no page, no tag page, not the list.
        let again = try NotepressBinary.run(["convert", vault, "-o", out, "--backlinks", "--hashtags", "--verbose"],
                                            environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        XCTAssertTrue(again.stderr.contains("converted 0, skipped 86 (unchanged)"), again.stderr)
        XCTAssertFalse(again.stderr.contains("tag page: "), again.stderr)
    }

    func testVaultInEveryFormat() throws {
        let dir = try makeTempDir(self)
        let out = dir.appendingPathComponent("out").path
        let r = try NotepressBinary.run(["convert", vault, "-o", out, "-t", "html,rtf,ansi,tei,man,json", "-q"],
                                        environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let files = TestPaths.files(under: URL(fileURLWithPath: out))
        for ext in ["html", "rtf", "ans", "xml", "man", "json"] {
            // HTML: 86 pages, the notes list, the tag pages of note-properties.md (hello, bonjour), search.html and print.html.
            XCTAssertEqual(files.filter { $0.pathExtension == ext }.count, ext == "html" ? 91 : 86, ext)
        }
        // Links between pages in each format's own files; a man page names the page.
        let wikilinks = "user/features/wikilinks"
        XCTAssertTrue(try String(contentsOfFile: "\(out)/\(wikilinks).xml", encoding: .utf8).contains("<ref target=\"graph-view.xml\">graph-view</ref>"))
        XCTAssertTrue(try String(contentsOfFile: "\(out)/\(wikilinks).rtf", encoding: .utf8).contains("HYPERLINK \"graph-view.rtf\""))
        XCTAssertTrue(try String(contentsOfFile: "\(out)/\(wikilinks).man", encoding: .utf8).contains("Example: graph-view(1)"))
        let lint = try runTool("xmllint", ["--noout", "\(out)/\(wikilinks).xml", "\(out)/index.xml"])
        XCTAssertEqual(lint.status, 0, lint.output)
    }
}
