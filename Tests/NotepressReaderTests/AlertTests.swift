import Foundation
import NotepressAST
import NotepressReaders
import XCTest
import NotepressTestSupport
@testable import Notepress

/// Issue 16: GitHub alerts (`> [!NOTE]`, `[!TIP]`, `[!IMPORTANT]`, `[!WARNING]`, `[!CAUTION]`)
/// showed the literal marker. They are an `alert` block of the AST, written in every format;
/// `--fragment` keeps cmark-gfm's block quote.
final class AlertTests: XCTestCase {
    func blocks(_ md: String, format: SourceFormat = .gfm) -> [Block] {
        MarkdownReader(format: format).parse(md).document.blocks
    }

    func convert(_ md: String, _ args: [String]) throws -> NotepressBinary.Result {
        try NotepressBinary.runExpectingSuccess(["convert", "-q", "-f", "gfm"] + args + ["-"], stdin: Data(md.utf8))
    }

    func testReaderMakesAlertsOfTopLevelQuotesWithAMarkerLine() throws {
        let b = blocks("> [!NOTE]\n> Useful *information*.\n")
        guard case .alert(let a)? = b.first?.kind else { return XCTFail("\(b)") }
        XCTAssertEqual(a.kind, .note)
        XCTAssertEqual(a.marker, "[!NOTE]")
        XCTAssertEqual(a.markerEnd, .softBreak)
        XCTAssertEqual(a.blocks.count, 1)
        guard case .paragraph(let p) = a.blocks[0].kind else { return XCTFail("\(a.blocks)") }
        XCTAssertEqual(p.plainText, "Useful information.")
        XCTAssertEqual(a.blocks[0].position, SourcePosition(line: 2, column: 3))
        XCTAssertEqual(b.first?.position, SourcePosition(line: 1, column: 1))

        // Any case; the marker alone as the first paragraph; after a hard break.
        guard case .alert(let tip)? = blocks("> [!tip]\n> x\n").first?.kind else { return XCTFail() }
        XCTAssertEqual(tip.kind, .tip)
        XCTAssertEqual(tip.marker, "[!tip]")
        guard case .alert(let own)? = blocks("> [!Important]\n>\n> para\n").first?.kind else { return XCTFail() }
        XCTAssertEqual(own.kind, .important)
        XCTAssertEqual(own.markerEnd, .paragraphEnd)
        guard case .alert(let hard)? = blocks("> [!WARNING]  \n> x\n").first?.kind else { return XCTFail() }
        XCTAssertEqual(hard.markerEnd, .hardBreak)
        guard case .alert(let caution)? = blocks("> [!CAUTION]\n> - a list\n").first?.kind else { return XCTFail() }
        XCTAssertEqual(caution.kind, .caution)
        // GitHub's five first (issue 36 added Obsidian's other callout kinds after them).
        XCTAssertEqual(Alert.Kind.allCases.filter(\.isGitHubAlert).map(\.title), ["Note", "Tip", "Important", "Warning", "Caution"])
    }

    func testEverythingElseStaysABlockQuote() {
        for md in [
            "> [!NOTE]\n",                       // nothing after the marker
            "> [!INFO]\n> x\n",                  // not one of GitHub's five
            "> [!NOTE] Title\n> x\n",            // text after the marker on its line
            "> **[!NOTE]**\n> x\n",              // the marker in a span
            "> Text [!NOTE]\n> x\n",             // not at the start
        ] {
            guard case .blockQuote? = blocks(md).first?.kind else { XCTFail("\(md): \(blocks(md))"); continue }
        }
        // Alerts cannot be nested (GitHub Docs): inside a list or a quote they stay quotes.
        guard case .list(let l)? = blocks("- > [!NOTE]\n  > x\n").first?.kind,
              case .blockQuote? = l.items.first?.blocks.first?.kind else { return XCTFail() }
        guard case .blockQuote(let outer)? = blocks("> > [!NOTE]\n> > x\n").first?.kind,
              case .blockQuote? = outer.first?.kind else { return XCTFail() }
        // A GitHub extension: plain CommonMark input keeps the quote.
        guard case .blockQuote? = blocks("> [!NOTE]\n> x\n", format: .commonmark).first?.kind else { return XCTFail() }
    }

    /// `--fragment` stays byte for byte cmark-gfm's: the block quote, marker line and all.
    func testFragmentIsCmarkGFMsBlockQuote() throws {
        let md = "> [!NOTE]\n> Useful *information*.\n\n> [!tip]\n>\n> Own paragraph.\n\n> [!WARNING]  \n> Hard break.\n"
        let r = try convert(md, ["-t", "html", "--fragment"])
        XCTAssertEqual(r.stdoutText, "<blockquote>\n<p>[!NOTE]\nUseful <em>information</em>.</p>\n</blockquote>\n"
            + "<blockquote>\n<p>[!tip]</p>\n<p>Own paragraph.</p>\n</blockquote>\n"
            + "<blockquote>\n<p>[!WARNING]<br />\nHard break.</p>\n</blockquote>\n")
        let dir = try makeTempDir(self)
        let file = dir.appendingPathComponent("a.md")
        try md.write(to: file, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/cmark-gfm")
        p.arguments = ["--extension", "table", "--extension", "strikethrough", "--extension", "autolink", "--extension", "tagfilter",
                       "--extension", "tasklist", "--extension", "footnotes", file.path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let cmark = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(r.stdout, cmark)
    }

    /// Pages write GitHub's markup (with `dir="auto"`, as GitHub does).
    func testPageWritesGitHubsMarkup() throws {
        let r = try convert("> [!CAUTION]\n> Mind the *gap*.\n", ["-t", "html"])
        XCTAssertTrue(r.stdoutText.contains("<div class=\"markdown-alert markdown-alert-caution\" dir=\"auto\">\n"
            + "<p class=\"markdown-alert-title\" dir=\"auto\">Caution</p>\n<p dir=\"auto\">Mind the <em>gap</em>.</p>\n</div>\n"),
                      r.stdoutText)
    }

    func testJSONDumpShowsTheAlertNode() throws {
        let r = try convert("> [!NOTE]\n> x\n", ["-t", "json"])
        let json = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        let first = (json?["children"] as? [[String: Any]])?.first
        XCTAssertEqual(first?["type"] as? String, "alert")
        XCTAssertEqual(first?["kind"] as? String, "note")
        XCTAssertEqual(first?["position"] as? String, "1:1")
        XCTAssertEqual(((first?["children"] as? [[String: Any]])?.first)?["type"] as? String, "paragraph")
    }

    /// TEI: `note[@type]`, valid against the shipped schema (the writer validates; xmllint too).
    func testTEINoteTypedByKind() throws {
        let r = try convert("> [!IMPORTANT]\n> Key information.\n", ["-t", "tei"])
        XCTAssertTrue(r.stdoutText.contains("<note type=\"important\"><p>Key information.</p></note>"), r.stdoutText)
        let dir = try makeTempDir(self)
        let file = dir.appendingPathComponent("a.xml")
        try r.stdout.write(to: file)
        let schema = TestPaths.root.appendingPathComponent("Templates/tei/notepress-tei.rng").path
        let lint = try runTool("xmllint", ["--noout", "--relaxng", schema, file.path])
        XCTAssertEqual(lint.status, 0, lint.output)
    }

    /// RTF: the title bold in the kind's colour, a bar of that colour, the content indented.
    func testRTFTitleAndBarInTheKindsColour() throws {
        let r = try convert("> [!TIP]\n> Helpful advice.\n", ["-t", "rtf"])
        // GitHub's tip green #1a7f37 is colour 6, after the theme's five.
        XCTAssertTrue(r.stdoutText.contains("\\red242\\green242\\blue247;\\red26\\green127\\blue55;}"), r.stdoutText)
        XCTAssertTrue(r.stdoutText.contains("\\pard\\plain\\ltrpar\\keepn\\li360\\brdrl\\brdrs\\brdrw40\\brsp80\\brdrcf6\\sa60"), r.stdoutText)
        XCTAssertTrue(r.stdoutText.contains("\\b\\cf6 Tip\\par"), r.stdoutText)
        XCTAssertTrue(r.stdoutText.contains("\\pard\\plain\\ltrpar\\li360\\brdrl\\brdrs\\brdrw40\\brsp80\\brdrcf6\\sa120"), r.stdoutText)
    }

    /// Terminal: a bar in the kind's colour on every line, the title bold in it.
    func testANSIBarAndTitle() throws {
        let md = "> [!NOTE]\n> Useful information that users should know, even when skimming.\n"
        let plain = try convert(md, ["-t", "ansi", "--color", "never", "--width", "40"])
        XCTAssertEqual(plain.stdoutText, "┃ Note\n┃ Useful information that users should\n┃ know, even when skimming.\n")
        // In a file (256 colours): GitHub's note blue #0969da, the nearest cube entry 26.
        let file = try makeTempDir(self).appendingPathComponent("a.ans")
        _ = try convert(md, ["-t", "ansi", "--color", "always", "--width", "40", "-o", file.path])
        let color = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(color.hasPrefix("\u{1B}[0;38;5;26m┃ \u{1B}[0;1;38;5;26mNote\u{1B}[0m\n"), color)
        let ascii = try convert(md, ["-t", "ansi", "--color", "never", "--width", "40", "--ascii"])
        XCTAssertTrue(ascii.stdoutText.hasPrefix("| Note\n| Useful"), ascii.stdoutText)
    }

    /// man: `.RS` with the title in bold.
    func testManIndentedWithABoldTitle() throws {
        let r = try convert("---\ndate: 2024-01-02\n---\n# T(1)\n\n## NAME\n\nt - x\n\n> [!WARNING]\n> Urgent.\n", ["-t", "man"])
        XCTAssertTrue(r.stdoutText.hasSuffix(".PP\n.RS 4\n.PP\n\\fBWarning\\fR\n.PP\nUrgent.\n.RE\n"), r.stdoutText)
        let dir = try makeTempDir(self)
        let file = dir.appendingPathComponent("t.1")
        try r.stdout.write(to: file)
        let lint = try runTool("mandoc", ["-T", "lint", "-W", "warning", file.path])
        XCTAssertEqual(lint.output, "", lint.output)
    }

    /// Issue 45 item 3 (quartz#1275): a callout title's inline markup and math were flattened to
    /// plain text (`git rebase` no code, **carefully** no bold, `$\Sigma$` raw TeX). Now the title
    /// keeps them: HTML code, strong and a KaTeX math span; RTF the code font and bold; the JSON
    /// dump keeps `title` (plain) and adds `title_inlines`; a plain title is written as before; a
    /// wiki link in a title resolves to the note's page.
    func testCalloutTitleKeepsInlineMarkupAndMath() throws {
        let dir = try makeTempDir(self)
        let md = "# T\n\n> [!tip] Use `git rebase` **carefully** with $\\Sigma$\n> Body.\n\n> [!info] Plain title\n> More.\n\n> [!note] See [[o]]\n> Last.\n"
        _ = try writeTestFile("{}", "in/.obsidian/app.json", in: dir)
        _ = try writeTestFile(md, "in/t.md", in: dir)
        _ = try writeTestFile("# O\n", "in/o.md", in: dir)
        let out = dir.appendingPathComponent("out").path
        let r = try NotepressBinary.run(["convert", dir.appendingPathComponent("in").path, "-o", out, "-t", "html,rtf,json", "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let html = try String(contentsOfFile: out + "/t.html", encoding: .utf8)
        XCTAssertTrue(html.contains("<p class=\"markdown-alert-title\" dir=\"auto\">Use <code>git rebase</code> <strong>carefully</strong> with "
                                    + "<span class=\"math math-inline\">\\Sigma</span></p>"), html)
        XCTAssertTrue(html.contains("katex.min.js"), html)
        XCTAssertTrue(html.contains("markdown-alert-title\" dir=\"auto\">Plain title</p>"), html)
        // A link in a title resolves like one in the text (the site's link rewriting).
        XCTAssertTrue(html.contains("markdown-alert-title\" dir=\"auto\">See <a href=\"o.html\">o</a></p>"), html)
        let rtf = try String(contentsOfFile: out + "/t.rtf", encoding: .utf8)
        XCTAssertFalse(rtf.contains("`git rebase`"), rtf)
        XCTAssertFalse(rtf.contains("**carefully**"), rtf)
        XCTAssertTrue(rtf.contains(#"Use {\rtlch\af1\ltrch\f1 git rebase} {\rtlch\ab\ltrch\b carefully} with {\rtlch\af1\ltrch\f1 \\Sigma}\par"#), rtf)
        let json = try String(contentsOfFile: out + "/t.json", encoding: .utf8)
        XCTAssertTrue(json.contains("\"title\": \"Use git rebase carefully with \\\\Sigma\""), json)
        XCTAssertTrue(json.contains("\"title_inlines\""), json)
        XCTAssertEqual(json.components(separatedBy: "\"title_inlines\"").count - 1, 2, json)
    }
}
