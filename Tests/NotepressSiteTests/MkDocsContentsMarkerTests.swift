import Foundation
import XCTest
import NotepressTestSupport

/// Issue 45, MkDocs: Python-Markdown's `toc` marker, a paragraph that is only `[TOC]`, was left
/// literal. MkDocs loads `toc` in every project (its `markdown_extensions` built-ins: `toc`,
/// `tables`, `fenced_code`), so a folder with `mkdocs.yml` puts the page's table of contents
/// there, listed or not: the `--toc` table (same headings, same ids), in every format that has
/// one; a man page keeps the text with a warning at `file:line:column`. A plain folder keeps
/// `[TOC]` as cmark-gfm does. Through the real binary, read back with the formats' own tools.
final class MkDocsContentsMarkerTests: XCTestCase {
    static let epoch = ["SOURCE_DATE_EPOCH": "1700000000"]

    /// `[TOC]` at the top, in a list item and in a quote; once more in code (stays code).
    static let page = """
    # Guide

    [TOC]

    Intro.

    ## Install

    Text.

    ### From source

    More.

    #### Too deep for the table

    ## Use

    - item

        [TOC]

    > [TOC]

    ```
    [TOC]
    ```

    """

    /// The `--toc` nav of the page (levels 1 to 3).
    static let nav = """
    <nav class="toc" aria-label="Contents">
    <ul>
    <li><a href="#guide">Guide</a>
    <ul>
    <li><a href="#install">Install</a>
    <ul>
    <li><a href="#from-source">From source</a></li>
    </ul>
    </li>
    <li><a href="#use">Use</a></li>
    </ul>
    </li>
    </ul>
    </nav>
    """

    func run(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws -> NotepressBinary.Result {
        let r = try NotepressBinary.run(args, environment: Self.epoch, file: file, line: line)
        XCTAssertEqual(r.status, 0, "notepress \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return r
    }

    /// A MkDocs project (`mkdocs.yml` naming no extension) holding `docs/index.md`; its folder.
    func project(_ config: String = "site_name: Demo\n") throws -> URL {
        let dir = try makeTempDir(self).appendingPathComponent("proj")
        try writeTestFiles(["mkdocs.yml": config, "docs/index.md": Self.page], into: dir.path)
        return dir
    }

    func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    func testContentsMarkerInAMkDocsFolderIsThePagesTableWithoutTocListed() throws {
        let proj = try project()
        let out = proj.deletingLastPathComponent().appendingPathComponent("out").path
        let r = try run(["convert", proj.path, "-o", out])
        XCTAssertFalse(r.stderr.contains("warning"), r.stderr)
        let html = try read(out + "/index.html")
        XCTAssertFalse(html.contains("<p dir=\"auto\">[TOC]</p>"), html)
        XCTAssertTrue(html.contains("<h1 id=\"guide\" dir=\"auto\">Guide</h1>\n" + Self.nav + "\n<p dir=\"auto\">Intro.</p>"), html)
        // In a list item and in a quote too; in code it stays code.
        XCTAssertTrue(html.contains("<p dir=\"auto\">item</p>\n" + Self.nav + "\n</li>"), html)
        XCTAssertTrue(html.contains("<blockquote dir=\"auto\">\n" + Self.nav + "\n</blockquote>"), html)
        XCTAssertTrue(html.contains("<pre><code>[TOC]\n</code></pre>"), html)
        XCTAssertEqual(html.components(separatedBy: "<nav class=\"toc\"").count - 1, 3, html)
        // The same table `--toc` writes on a single page of the same text.
        let single = proj.appendingPathComponent("docs/index.md").path
        let toc = try run(["convert", single, "-t", "html", "--toc"]).stdoutText
        XCTAssertTrue(toc.contains(Self.nav), toc)
        // `--toc-depth 4` deepens the marker's table as it deepens `--toc`'s.
        let deep = proj.deletingLastPathComponent().appendingPathComponent("deep").path
        _ = try run(["convert", proj.path, "-o", deep, "-q", "--toc-depth", "4"])
        XCTAssertTrue(try read(deep + "/index.html").contains("<li><a href=\"#too-deep-for-the-table\">Too deep for the table</a></li>"))

        // `toc` listed with options reads the same.
        let listed = try project("site_name: Demo\nmarkdown_extensions:\n  - toc:\n      permalink: true\n")
        let listedOut = listed.deletingLastPathComponent().appendingPathComponent("listed").path
        _ = try run(["convert", listed.path, "-o", listedOut, "-q"])
        XCTAssertEqual(try read(listedOut + "/index.html").components(separatedBy: "<nav class=\"toc\"").count - 1, 3)

        // A plain folder (no mkdocs.yml) keeps the text, as cmark-gfm does.
        let plain = try makeSiteFolder(self, ["index.md": Self.page])
        _ = try run(["convert", plain.input, "-o", plain.output, "-q"])
        let kept = try read(plain.output + "/index.html")
        XCTAssertTrue(kept.contains("<p dir=\"auto\">[TOC]</p>"), kept)
        XCTAssertFalse(kept.contains("<nav class=\"toc\""), kept)
    }

    /// `--markdown-extension toc` on a single file: the marker in a page and in a fragment (which
    /// then writes the headings' ids, so that the table's links land).
    func testContentsMarkerWithTheMarkdownExtensionOption() throws {
        let dir = try makeTempDir(self)
        let file = try writeTestFile("# A\n\n[TOC]\n\n## B\n", "a.md", in: dir)
        let fragment = try run(["convert", file.path, "-t", "html", "--fragment", "--markdown-extension", "toc"]).stdoutText
        XCTAssertTrue(fragment.hasPrefix("<h1 id=\"a\">A"), fragment)
        XCTAssertTrue(fragment.contains("</h1>\n<nav class=\"toc\" aria-label=\"Contents\">\n<ul>\n<li><a href=\"#a\">A</a>\n<ul>\n<li><a href=\"#b\">B</a></li>"), fragment)
        XCTAssertTrue(fragment.contains("<h2 id=\"b\">B"), fragment)
        let plain = try run(["convert", file.path, "-t", "html", "--fragment"]).stdoutText
        XCTAssertEqual(plain, "<h1>A</h1>\n<p>[TOC]</p>\n<h2>B</h2>\n")
    }

    /// Every other format: the table where the marker is, linked to the headings, read back with
    /// LibreOffice, qpdf, pdftotext, epubcheck and libxml2; a man page keeps the text with a
    /// warning per marker at its line and column; the JSON dump keeps the marker as a node.
    func testContentsMarkerInEveryFormat() throws {
        let proj = try project()
        let dir = proj.deletingLastPathComponent()
        let out = dir.appendingPathComponent("out")
        let r = try run(["convert", proj.path, "-o", out.path, "-t", "rtf,docx,odt,tei,ansi,pdf,epub,json", "--verbose"])
        XCTAssertFalse(r.stderr.contains("warning"), r.stderr)

        // RTF: three tables of four linked entries, each link to a bookmark at its heading.
        let rtf = try read(out.path + "/index.rtf")
        XCTAssertEqual(rtf.components(separatedBy: "HYPERLINK \\\\l \"_Toc").count - 1, 12, rtf)
        for k in 1...4 { XCTAssertEqual(rtf.components(separatedBy: "{\\*\\bkmkstart _Toc\(k)}").count - 1, 1, "_Toc\(k)") }
        XCTAssertEqual(rtf.components(separatedBy: "[TOC]").count - 1, 1, "only the code block's")

        // DOCX and ODT, as LibreOffice reads them: every entry a link to an anchor that exists.
        for name in ["index.docx", "index.odt"] {
            // Both convert to index.html: one folder each.
            let one = dir.appendingPathComponent("lo-" + name)
            try LibreOffice.soffice("html", [out.appendingPathComponent(name)], outDir: one)
            let html = try read(one.appendingPathComponent("index.html").path)
            let targets = html.components(separatedBy: "href=\"#").dropFirst().map { String($0.prefix { $0 != "\"" }) }
            XCTAssertEqual(targets.count, 12, "\(name): \(html)")
            for t in Set(targets) {
                XCTAssertTrue(html.contains("name=\"\(t)\"") || html.contains("id=\"\(t)\""), "\(name): no anchor \(t)")
            }
            XCTAssertEqual(html.components(separatedBy: "[TOC]").count - 1, 1, "\(name): only the code block's")
        }

        // TEI (validated against the schema when written): bulleted contents lists (three each:
        // the entries nest), each item a paragraph of a ref to its section.
        let tei = try read(out.path + "/index.xml")
        XCTAssertEqual(tei.components(separatedBy: "<list rend=\"bulleted\" type=\"contents\">").count - 1, 9, tei)
        let refs = tei.components(separatedBy: "<ref target=\"#").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        XCTAssertEqual(refs.count, 12)
        for id in Set(refs) { XCTAssertTrue(tei.contains("xml:id=\"\(id)\""), "no section \(id)") }
        XCTAssertEqual(try runTool("xmllint", ["--noout", out.path + "/index.xml"]).status, 0)

        // Terminal text (colours or not, as the environment says): a Contents caption and indented entries.
        let ansi = try read(out.path + "/index.ans").replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        XCTAssertTrue(ansi.contains("\nContents\n  Guide\n    Install\n      From source\n    Use\n\nIntro."), ansi)
        XCTAssertEqual(ansi.components(separatedBy: "[TOC]").count - 1, 1, "only the code block's")

        // PDF: the entries as text, each a link to its heading's destination.
        let pdf = out.appendingPathComponent("index.pdf").path
        let text = try runTool("pdftotext", ["-layout", pdf, "-"]).output
        XCTAssertTrue(text.contains("Contents"), text)
        XCTAssertEqual(text.components(separatedBy: "[TOC]").count - 1, 1, text)
        let qdf = dir.appendingPathComponent("q.pdf").path
        XCTAssertEqual(try runTool("qpdf", ["--qdf", "--object-streams=disable", pdf, qdf]).status, 0)
        let objects = String(decoding: try Data(contentsOf: URL(fileURLWithPath: qdf)), as: UTF8.self)
        XCTAssertEqual(objects.components(separatedBy: "/Subtype /Link").count - 1, 12, "three tables of four links")
        for id in ["guide", "install", "from-source", "use"] {
            // Three links and the outline's entry.
            XCTAssertEqual(objects.components(separatedBy: "/Dest (\(id))").count - 1, 4, "links to \(id)")
        }

        // EPUB: valid, its chapter holding the nav.
        let epub = try EPUBSupport.check(out.path + "/index.epub")
        XCTAssertEqual([epub.fatals, epub.errors, epub.warnings], [0, 0, 0], epub.output)
        let chapter = try runTool("unzip", ["-p", out.path + "/index.epub", "EPUB/ch001.xhtml"]).output
        XCTAssertEqual(chapter.components(separatedBy: "<nav class=\"toc\"").count - 1, 3, chapter)

        // JSON: the reader's node, its paragraph kept.
        let json = try read(out.path + "/index.json")
        XCTAssertTrue(json.contains("\"type\": \"unknown\",\n      \"name\": \"toc\",\n      \"position\": \"3:1\""), json)

        // man: no table of contents; the text stays, one warning per marker where it is written.
        let man = try NotepressBinary.run(["convert", proj.path, "-o", dir.appendingPathComponent("man").path, "-t", "man", "--verbose"],
                                          environment: Self.epoch)
        XCTAssertEqual(man.status, 0, man.stderr)
        for at in ["3:1", "21:5", "23:3"] {
            XCTAssertTrue(man.stderr.contains("docs/index.md:\(at): warning: man: [TOC] (a table of contents marker): a man page has no table of contents; kept as text"),
                          "\(at): \(man.stderr)")
        }
        let page = try read(dir.appendingPathComponent("man/index.man").path)
        XCTAssertEqual(page.components(separatedBy: "[TOC]").count - 1, 4, page)
    }
}
