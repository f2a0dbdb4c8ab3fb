import Foundation
import XCTest
import NotepressTestSupport

/// Issue 45, item 2 (part A): a folder in MkDocs' own layout (`mkdocs.yml`, `docs_dir`, `nav:`,
/// `markdown_extensions:`) converts as `mkdocs build` would, through the real binary: 436
/// admonitions, collapsible blocks and content tabs were left literal, `nav:` and `site_name`
/// were ignored.
final class MkDocsTests: XCTestCase {
    static let epoch = ["SOURCE_DATE_EPOCH": "1700000000"]

    /// `notepress ARGS`, which must succeed.
    func run(_ args: [String], stdin: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> NotepressBinary.Result {
        let r = try NotepressBinary.run(args, stdin: stdin.map { Data($0.utf8) }, environment: Self.epoch, file: file, line: line)
        XCTAssertEqual(r.status, 0, "notepress \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return r
    }

    static let config = """
    site_name: Widget Docs
    docs_dir: pages
    nav:
      - Home: index.md
      - Guide:
          - Install: guide/install.md
          - guide/usage.md
          - guide/gone.md
      - GitHub: https://github.com/example/widget
    markdown_extensions:
      - admonition
      - pymdownx.details
      - pymdownx.snippets
      - pymdownx.tabbed:
          alternate_style: true
      - pymdownx.emoji:
          emoji_index: !!python/name:material.extensions.emoji.twemoji
      - tables

    """

    static let index = """
    # Welcome

    !!! note "Read this *first*"
        The body of the note.

        A second paragraph.

        !!! warning ""
            Nested, without a title.

    ??? tip "Folded"
        Hidden body.

    ???+ danger
        Open body.

    ```
    !!! note "stays code"
    ```

    --8<-- "snippets/part.md"

    - Item

        --8<-- "snippets/part.md:2:2"

    --8<-- "snippets/missing.md"

    """

    static let tabs = """
    # Tabs

    === "C"

        ```c
        int main(void) { return 0; }
        ```

    === "Rust"

        Use `cargo`.

    ===+ "Go"
        go run .

    After the tabs.

    """

    /// The project: `mkdocs.yml` (docs_dir `pages`), the pages, a snippet beside `pages/`.
    func makeProject() throws -> (dir: URL, project: String, output: String) {
        let dir = try makeTempDir(self)
        _ = try writeTestFile(Self.config, "proj/mkdocs.yml", in: dir)
        _ = try writeTestFile(Self.index, "proj/pages/index.md", in: dir)
        _ = try writeTestFile(Self.tabs, "proj/pages/tabs.md", in: dir)
        _ = try writeTestFile("# Install\n\nInstall it.\n", "proj/pages/guide/install.md", in: dir)
        _ = try writeTestFile("# Usage\n\nUse it.\n", "proj/pages/guide/usage.md", in: dir)
        _ = try writeTestFile("# Aardvark\n\nNot in nav.\n", "proj/pages/aardvark.md", in: dir)
        _ = try writeTestFile("Included **snippet** text.\nSecond snippet line.\n", "proj/snippets/part.md", in: dir)
        return (dir, dir.appendingPathComponent("proj").path, dir.appendingPathComponent("out").path)
    }

    /// The part of `html` between `<h1` and `</article>`.
    static func body(_ html: String) -> String {
        guard let s = html.range(of: "<h1"), let e = html.range(of: "</article>") else { return html }
        return String(html[s.lowerBound..<e.lowerBound])
    }

    func testNavIsTheSidebarOrderWithSectionsAndExternalLinksAndSiteNameTheTitle() throws {
        let p = try makeProject()
        let r = try run(["convert", p.project, "-o", p.output])
        // A nav entry without its page: said at its line, left out.
        XCTAssertTrue(r.stderr.contains("mkdocs.yml:8:1: warning: nav entry 'guide/gone.md' names no page in"), r.stderr)
        let html = try String(contentsOfFile: p.output + "/index.html", encoding: .utf8)
        XCTAssertTrue(html.contains("<a class=\"site-title\" href=\"index.html\">Widget Docs</a>"), html)
        guard let s = html.range(of: "<ul class=\"nav-tree\">"), let e = html.range(of: "</nav>", range: s.upperBound..<html.endIndex) else {
            return XCTFail("no sidebar: \(html)")
        }
        let sidebar = String(html[s.upperBound..<e.lowerBound])
        let labels = sidebar.components(separatedBy: ">").compactMap { part -> String? in
            let t = part.components(separatedBy: "<")[0]
            return t.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : t
        }
        // nav's order (by title, Aardvark would come before Guide), then the pages nav leaves out, by title.
        XCTAssertEqual(labels, ["Home", "Guide", "Install", "Usage", "GitHub", "Aardvark", "Tabs"], sidebar)
        XCTAssertTrue(sidebar.contains("<li class=\"nav-section\"><details><summary><span>Guide</span></summary>"), sidebar)
        XCTAssertTrue(sidebar.contains("<a href=\"https://github.com/example/widget\">GitHub</a>"), sidebar)
        // The pages are docs_dir's: no snippets/ folder, no mkdocs page.
        XCTAssertFalse(FileManager.default.fileExists(atPath: p.output + "/snippets"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: p.output + "/guide/install.html"))
    }

    func testAdmonitionsAndDetailsAreAlertsWithTitlesAndFolding() throws {
        let p = try makeProject()
        _ = try run(["convert", p.project, "-o", p.output])
        let body = Self.body(try String(contentsOfFile: p.output + "/index.html", encoding: .utf8))
        XCTAssertTrue(body.contains("""
        <div class="markdown-alert markdown-alert-note" dir="auto">
        <p class="markdown-alert-title" dir="auto">Read this <em>first</em></p>
        <p dir="auto">The body of the note.</p>
        <p dir="auto">A second paragraph.</p>
        <div class="markdown-alert markdown-alert-warning" dir="auto">
        """), body)
        XCTAssertTrue(body.contains("<p dir=\"auto\">Nested, without a title.</p>\n</div>\n</div>"), body)
        XCTAssertTrue(body.contains("<details class=\"markdown-alert markdown-alert-tip\" dir=\"auto\">\n<summary class=\"markdown-alert-title\" dir=\"auto\">Folded</summary>\n<p dir=\"auto\">Hidden body.</p>\n</details>"), body)
        XCTAssertTrue(body.contains("open dir=\"auto\">\n<summary class=\"markdown-alert-title\" dir=\"auto\">Danger</summary>\n<p dir=\"auto\">Open body.</p>"), body)
        // In fenced code the marker stays code; nowhere else is it left literal.
        XCTAssertTrue(body.contains("<pre><code>!!! note &quot;stays code&quot;\n</code></pre>"), body)
        XCTAssertEqual(body.components(separatedBy: "!!!").count, 2, body)
        XCTAssertFalse(body.contains("???"), body)
    }

    func testAdmonitionsAreAlertsInRTFANSIAndMan() throws {
        let p = try makeProject()
        _ = try run(["convert", p.project, "-t", "rtf,ansi,man", "-o", p.output])
        let ansi = try String(contentsOfFile: p.output + "/index.ans", encoding: .utf8)
            .replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        XCTAssertTrue(ansi.contains("┃ Read this first\n┃ The body of the note."), ansi)
        XCTAssertTrue(ansi.contains("┃ Folded"), ansi)
        let man = try String(contentsOfFile: p.output + "/index.man", encoding: .utf8)
        XCTAssertTrue(man.contains("Read this"), man)
        XCTAssertTrue(man.contains("The body of the note."), man)
        let rtf = try String(contentsOfFile: p.output + "/index.rtf", encoding: .utf8)
        XCTAssertTrue(rtf.contains("Folded"), rtf)
        for (name, text) in [("ansi", ansi), ("man", man), ("rtf", rtf)] {
            XCTAssertEqual(text.components(separatedBy: "!!! note").count, 2, "\(name): only the fenced code's marker stays: \(text)")
            XCTAssertFalse(text.contains("??? tip"), "\(name): \(text)")
        }
    }

    func testContentTabsAreRadioTabsInHTMLAndLabelledSectionsInANSI() throws {
        let p = try makeProject()
        _ = try run(["convert", p.project, "-t", "html,ansi", "-o", p.output])
        let body = Self.body(try String(contentsOfFile: p.output + "/tabs.html", encoding: .utf8))
        XCTAssertTrue(body.contains("<div class=\"tabbed-set\" data-tabs=\"1:3\">\n<input type=\"radio\" name=\"__tabbed_1\" id=\"__tabbed_1_1\"><label for=\"__tabbed_1_1\" dir=\"auto\">C</label>\n<div class=\"tabbed-content\">\n<pre><code class=\"language-c\">"), body)
        XCTAssertTrue(body.contains("<label for=\"__tabbed_1_2\" dir=\"auto\">Rust</label>\n<div class=\"tabbed-content\">\n<p dir=\"auto\">Use <code>cargo</code>.</p>\n</div>"), body)
        // `===+` is the tab shown first; the style that shows it without script is in the page.
        XCTAssertTrue(body.contains("<input type=\"radio\" name=\"__tabbed_1\" id=\"__tabbed_1_3\" checked><label for=\"__tabbed_1_3\" dir=\"auto\">Go</label>"), body)
        XCTAssertTrue(body.contains(".tabbed-set>input:checked+label+.tabbed-content{display:block}"), body)
        XCTAssertTrue(body.contains("</div>\n</div>\n<p dir=\"auto\">After the tabs.</p>"), body)
        XCTAssertFalse(body.contains("==="), body)
        let ansi = try String(contentsOfFile: p.output + "/tabs.ans", encoding: .utf8)
            .replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        XCTAssertTrue(ansi.contains("Rust\n\nUse cargo.\n\nGo\n\ngo run ."), ansi)
        XCTAssertFalse(ansi.contains("==="), ansi)
        // `===!` starts a new set (audit: it joined the set before).
        let sets = try run(["convert", "-", "-t", "html", "--markdown-extension", "pymdownx.tabbed"], stdin:
            "=== \"A\"\n\n    a\n\n=== \"B\"\n\n    b\n\n===! \"C\"\n\n    c\n\n=== \"D\"\n\n    d\n")
        let html = String(decoding: sets.stdout, as: UTF8.self)
        XCTAssertEqual(html.components(separatedBy: "<div class=\"tabbed-set\" data-tabs=\"").count - 1, 2, html)
        XCTAssertTrue(html.contains("data-tabs=\"2:2\""), html)
    }

    func testSnippetsAreIncludedAndAMissingSnippetIsWarnedAtFileLineColumn() throws {
        let p = try makeProject()
        let r = try run(["convert", p.project, "-o", p.output])
        let body = Self.body(try String(contentsOfFile: p.output + "/index.html", encoding: .utf8))
        XCTAssertTrue(body.contains("<p dir=\"auto\">Included <strong>snippet</strong> text.\nSecond snippet line.</p>"), body)
        // Indented under a list item: the line range, indented as the snippet line was.
        XCTAssertTrue(body.contains("<li dir=\"auto\">\n<p dir=\"auto\">Item</p>\n<p dir=\"auto\">Second snippet line.</p>\n</li>"), body)
        XCTAssertTrue(r.stderr.contains("pages/index.md:27:1: warning: --8<-- \"snippets/missing.md\": no such file"), r.stderr)
        XCTAssertTrue(body.contains("--8&lt;-- &quot;snippets/missing.md&quot;"), "kept as text: \(body)")
        XCTAssertTrue(r.stderr.contains("not converted: 1"), r.stderr)
    }

    func testAnExtensionNotImplementedIsWarnedOnceAndNativeOnesAreNot() throws {
        let p = try makeProject()
        let r = try run(["convert", p.project, "-o", p.output])
        XCTAssertEqual(r.stderr.components(separatedBy: "Markdown extension").count, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("mkdocs.yml:10:1: warning: Markdown extension 'pymdownx.emoji' is not implemented"), r.stderr)
        XCTAssertFalse(r.stderr.contains("'tables'"), r.stderr)
    }

    func testAMarkerLineMkDocsDoesNotReadIsWarnedAtFileLineColumnAndKeptAsText() throws {
        let p = try makeProject()
        _ = try writeTestFile("---\ntitle: Odd\n---\n# Odd\n\n!!! note \"unclosed\n    body\n\n=== Tab without quotes\n", "proj/pages/odd.md", in: p.dir)
        let r = try run(["convert", p.project, "-o", p.output])
        XCTAssertTrue(r.stderr.contains("pages/odd.md: 2 warnings (input)"), r.stderr)
        let verbose = try run(["convert", p.project, "-o", p.output + "-v", "--verbose"])
        XCTAssertTrue(verbose.stderr.contains("pages/odd.md:6:1: warning: '!!! note \"unclosed' is not a marker line MkDocs reads"), verbose.stderr)
        XCTAssertTrue(verbose.stderr.contains("pages/odd.md:9:1: warning: '=== Tab without quotes' is not a marker line MkDocs reads"), verbose.stderr)
        XCTAssertTrue(r.stderr.contains("not converted: 3"), r.stderr)
    }

    func testAPlainFolderAndASingleFileStayCmarkGFMsReading() throws {
        let p = try makeProject()
        // The same page in a folder without mkdocs.yml, and the project's page alone.
        let plain = try writeTestFile(Self.index, "plain/index.md", in: p.dir)
        _ = try run(["convert", plain.deletingLastPathComponent().path, "-o", p.output + "-plain"])
        let body = Self.body(try String(contentsOfFile: p.output + "-plain/index.html", encoding: .utf8))
        XCTAssertTrue(body.contains("<p dir=\"auto\">!!! note &quot;Read this <em>first</em>&quot;\nThe body of the note.</p>"), body)
        XCTAssertFalse(body.contains("markdown-alert"), body)
        let single = try run(["convert", p.project + "/pages/tabs.md", "-t", "html", "--fragment"])
        let fragment = String(decoding: single.stdout, as: UTF8.self)
        XCTAssertTrue(fragment.contains("<p>=== &quot;C&quot;</p>"), fragment)
        XCTAssertFalse(fragment.contains("tabbed-set"), fragment)
    }

    /// New-user try-out: `exclude_docs: drafts/` was ignored and `drafts/secret.md` published.
    /// `exclude_docs` and `draft_docs` leave their files out of the site, as `mkdocs build` does;
    /// a negated pattern, which is not read, is said once at its line.
    func testExcludeDocsAndDraftDocsAreNotPublished() throws {
        let dir = try makeTempDir(self)
        let project = dir.appendingPathComponent("p")
        try writeTestFiles([
            "mkdocs.yml": "site_name: X\nexclude_docs: |\n  drafts/\n  *.secret.md\n  !keep.secret.md\ndraft_docs: |\n  sub/wip.md\n",
            "docs/index.md": "# Home\n\nText.\n", "docs/drafts/secret.md": "# Secret\n", "docs/a.secret.md": "# S\n",
            "docs/sub/wip.md": "# W\n", "docs/sub/ok.md": "# OK\n",
        ], into: project.path)
        let out = dir.appendingPathComponent("out").path
        let r = try run(["convert", project.path, "-o", out])
        let fm = FileManager.default
        XCTAssertTrue(fm.fileExists(atPath: out + "/sub/ok.html"), r.stderr)
        for gone in ["drafts/secret.html", "a.secret.html", "sub/wip.html"] {
            XCTAssertFalse(fm.fileExists(atPath: out + "/" + gone), gone)
        }
        XCTAssertTrue(r.stderr.contains("mkdocs.yml:2:1: warning: exclude_docs: '!keep.secret.md' (a negated pattern) is not read"), r.stderr)
        let index = try String(contentsOfFile: out + "/search.html", encoding: .utf8) + (try String(contentsOfFile: out + "/index.html", encoding: .utf8))
        XCTAssertFalse(index.contains("Secret"), "nor listed or linked")
    }

    /// `toc: { permalink: "#" }` writes its own text after each heading (audit: `¶` was written
    /// whatever the option said); `permalink: true` writes `¶`.
    func testTocPermalinkTextComesFromMkdocsYml() throws {
        for (option, mark) in [("\"#\"", "#"), ("true", "\u{B6}")] {
            let dir = try makeTempDir(self)
            let project = dir.appendingPathComponent("p")
            try writeTestFiles(["mkdocs.yml": "site_name: X\nmarkdown_extensions:\n  - toc:\n      permalink: \(option)\n",
                                "docs/index.md": "# Home\n\n## Usage\n\nText.\n"], into: project.path)
            let out = dir.appendingPathComponent("out").path
            _ = try run(["convert", project.path, "-o", out])
            let page = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
            XCTAssertTrue(page.contains("<a class=\"headerlink\" href=\"#usage\" title=\"Permanent link\">\(mark)</a></h2>"), page)
        }
    }
}
