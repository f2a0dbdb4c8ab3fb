import Foundation
import XCTest
import NotepressTestSupport

/// MkDocs Markdown extensions (issue 45 item 2, part B) through the real binary, each turned on
/// with `--markdown-extension NAME` (a MkDocs project's `mkdocs.yml` sets the same set): each is
/// read only when asked, in HTML and at least one other format; constructs in code stay as written.
final class MkDocsExtensionTests: XCTestCase {
    /// Converts `markdown` with the extensions `names` to `format` (extra `args`); stdout, after
    /// checking the exit status is 0.
    func convert(_ markdown: String, _ names: [String], to format: String = "html", _ args: [String] = [],
                 file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let dir = try makeTempDir(self)
        let input = try writeTestFile(markdown, "doc.md", in: dir)
        let r = try NotepressBinary.run(names.flatMap { ["--markdown-extension", $0] } + ["-t", format] + args + [input.path],
                                        file: file, line: line)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return r.stdoutText
    }

    // MARK: attr_list

    func testAttrListHeadingIDBecomesTheAnchorAndIsNotLeftInTheText() throws {
        let md = "## Install it { #setup .big }\n\nSee [setup](#setup).\n"
        let html = try convert(md, ["attr_list"], ["--fragment", "--heading-ids"])
        XCTAssertTrue(html.contains("<h2 id=\"setup\" class=\"big\">Install it</h2>"), html)
        XCTAssertFalse(html.contains("{"), html)
        // Without the extension: cmark-gfm's reading, the braces in the text.
        let plain = try convert(md, [], ["--fragment"])
        XCTAssertTrue(plain.contains("<h2>Install it { #setup .big }</h2>"), plain)
        let json = try convert(md, ["attr_list"], to: "json")
        XCTAssertTrue(json.contains("\"id\": \"setup\""), json)
        let tei = try convert(md, ["attr_list"], to: "tei")
        XCTAssertTrue(tei.contains("xml:id=\"setup\""), tei)
    }

    func testAttrListOnASiteResolvesTheLinkToTheWrittenID() throws {
        let dir = try makeTempDir(self)
        _ = try writeTestFile("# A\n\n## Options {: #opts }\n\ntext\n", "in/a.md", in: dir)
        _ = try writeTestFile("# B\n\nSee [options](a.md#opts).\n", "in/b.md", in: dir)
        let out = dir.appendingPathComponent("out")
        let r = try NotepressBinary.run(["--markdown-extension", "attr_list", dir.appendingPathComponent("in").path, "-o", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("opts"), "no broken-link warning: \(r.stderr)")
        let a = try String(contentsOf: out.appendingPathComponent("a.html"), encoding: .utf8)
        XCTAssertTrue(a.contains("id=\"opts\""), a)
        let without = try NotepressBinary.run([dir.appendingPathComponent("in").path, "-o", dir.appendingPathComponent("out2").path])
        XCTAssertTrue(without.stderr.contains("opts"), "without the extension the link is reported: \(without.stderr)")
    }

    func testAttrListOnLinksImagesAndParagraphsKeepsOnlySafeAttributes() throws {
        let md = "See [t](u.html){ .button onclick=\"evil()\" data-x=1 } and ![a](i.png){ width=300 style=\"x\" }\n{ .note }\n"
        let html = try convert(md, ["attr_list"], ["--fragment"])
        XCTAssertTrue(html.contains("<p class=\"note\">"), html)
        XCTAssertTrue(html.contains("<a href=\"u.html\" class=\"button\" data-x=\"1\">t</a>"), html)
        XCTAssertTrue(html.contains("<img src=\"i.png\" alt=\"a\" width=\"300\" />"), html)
        XCTAssertFalse(html.contains("onclick") || html.contains("style=") || html.contains("{"), html)
        // The image's size in another format too (TEI's graphic width).
        let tei = try convert(md, ["attr_list"], to: "tei")
        XCTAssertTrue(tei.contains("width=\"300px\""), tei)
        XCTAssertFalse(tei.contains("{ .note }"), tei)
    }

    // MARK: def_list

    static let definitions = "Apple\n:   A red fruit\n:   A company\n\nPear\n:   Green `code`\n\n    A second paragraph.\n"

    func testDefListIsADefinitionListInEveryWriter() throws {
        let names = ["def_list"]
        let html = try convert(Self.definitions, names, ["--fragment"])
        XCTAssertTrue(html.contains("<dl>\n<dt>Apple</dt>\n<dd>A red fruit</dd>\n<dd>A company</dd>\n<dt>Pear</dt>\n<dd>\n<p>Green <code>code</code></p>\n<p>A second paragraph.</p>\n</dd>\n</dl>"), html)
        let tei = try convert(Self.definitions, names, to: "tei")
        XCTAssertTrue(tei.contains("<list type=\"gloss\">"), tei)
        XCTAssertTrue(tei.contains("<label>Apple</label>"), tei)
        let man = try convert(Self.definitions, names, to: "man")
        XCTAssertTrue(man.contains(".TP\nApple\nA red fruit\n"), man)
        let json = try convert(Self.definitions, names, to: "json")
        XCTAssertTrue(json.contains("\"type\": \"definition_list\""), json)
        let ansi = try convert(Self.definitions, names, to: "ansi", ["--color", "never"])
        XCTAssertTrue(ansi.contains("Apple\n    A red fruit\n"), ansi)
        XCTAssertFalse(ansi.contains(":   "), ansi)
        let rtf = try convert(Self.definitions, names, to: "rtf")
        XCTAssertTrue(rtf.contains("\\b Apple\\par"), rtf)
        XCTAssertTrue(rtf.contains("\\li360"), rtf)
        let plain = try convert(Self.definitions, [], ["--fragment"])
        XCTAssertFalse(plain.contains("<dl>"), plain)
    }

    /// MkDocs Material's changelog writes `{ id="9.7.0" }` and its option lists a raw HTML term
    /// (`<!-- md:option name -->`) before `:   definition`: both were left literal.
    func testAttrListIDKeyAndADefinitionAfterAnHTMLComment() throws {
        let md = "### 9.7.0 <small>Nov</small> { id=\"9.7.0\" }\n\n<!-- md:option x -->\n\n:   Defines x.\n"
        let html = try convert(md, ["attr_list", "def_list"], ["--fragment", "--heading-ids"])
        XCTAssertTrue(html.contains("<h3 id=\"9.7.0\">9.7.0 <small>Nov</small></h3>"), html)
        XCTAssertTrue(html.contains("<dl>\n<dt></dt>\n<dd>Defines x.</dd>\n</dl>"), html)
        let ansi = try convert(md, ["attr_list", "def_list"], to: "ansi", ["--color", "never"])
        XCTAssertFalse(ansi.contains(":   ") || ansi.contains("{"), ansi)
    }

    /// A definition's indented text is read again, definitions within it too, but only 8 deep:
    /// 40 nested definitions were read 40 deep (each level read again by every level above).
    func testNestedDefinitionsAreReadABoundedNumberOfLevelsDeep() throws {
        var md = ""
        for i in 0..<40 { md += String(repeating: "    ", count: i) + "T\n" + String(repeating: "    ", count: i) + ":   d\n\n" }
        let html = try convert(md, ["def_list"], ["--fragment"])
        XCTAssertEqual(html.components(separatedBy: "<dl>").count - 1, 9, html)
    }

    // MARK: abbr

    func testAbbrDefinitionsLeaveTheTextAndWrapTheWord() throws {
        let md = "The HTML spec, not HTMLX. `HTML`\n\n*[HTML]: Hyper Text Markup Language\n"
        let html = try convert(md, ["abbr"], ["--fragment"])
        XCTAssertTrue(html.contains("The <abbr title=\"Hyper Text Markup Language\">HTML</abbr> spec, not HTMLX. <code>HTML</code>"), html)
        XCTAssertFalse(html.contains("*["), html)
        let ansi = try convert(md, ["abbr"], to: "ansi", ["--color", "never"])
        XCTAssertTrue(ansi.contains("The HTML spec"), ansi)
        XCTAssertFalse(ansi.contains("Hyper Text"), ansi)
    }

    // MARK: pymdownx

    func testKeysAreKbdElementsAndPlainTextElsewhere() throws {
        let md = "Press ++ctrl+alt+del++, not `++a++`.\n"
        let html = try convert(md, ["pymdownx.keys"], ["--fragment"])
        XCTAssertTrue(html.contains("Press <kbd>Ctrl</kbd>+<kbd>Alt</kbd>+<kbd>Del</kbd>, not <code>++a++</code>."), html)
        let man = try convert(md, ["pymdownx.keys"], to: "man")
        XCTAssertTrue(man.contains("Press Ctrl+Alt+Del,"), man)
    }

    func testCaretMarkTildeReadInsertsSuperscriptsMarksSubscripts() throws {
        let md = "^^new^^ x^2^ ==hot== H~2~O ~~gone~~\n"
        let names = ["pymdownx.caret", "pymdownx.mark", "pymdownx.tilde"]
        let html = try convert(md, names, ["--fragment"])
        XCTAssertTrue(html.contains("<ins>new</ins> x<sup>2</sup> <mark>hot</mark> H<sub>2</sub>O <del>gone</del>"), html)
        let rtf = try convert(md, names, to: "rtf")
        XCTAssertTrue(rtf.contains("{\\ul new}"), rtf)
        XCTAssertTrue(rtf.contains("{\\super 2}"), rtf)
        XCTAssertTrue(rtf.contains("{\\sub 2}"), rtf)
        let tei = try convert(md, names, to: "tei")
        XCTAssertTrue(tei.contains("<hi rend=\"underline\">new</hi>"), tei)
        // Without pymdownx.tilde one tilde is cmark-gfm's strikethrough.
        let plain = try convert(md, [], ["--fragment"])
        XCTAssertTrue(plain.contains("H<del>2</del>O"), plain)
    }

    // MARK: toc

    func testTocPermalinkFollowsEachHeadingInPages() throws {
        let dir = try makeTempDir(self)
        _ = try writeTestFile("# One\n\n## Two\n", "doc.md", in: dir)
        let r = try NotepressBinary.run(["--markdown-extension", "toc", dir.appendingPathComponent("doc.md").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdoutText.contains("Two<a class=\"headerlink\" href=\"#two\" title=\"Permanent link\">\u{B6}</a></h2>"), r.stdoutText)
        let without = try NotepressBinary.run([dir.appendingPathComponent("doc.md").path])
        XCTAssertFalse(without.stdoutText.contains("headerlink"))
    }

    // MARK: only when asked

    func testAPlainRunAndFragmentStayCmarkGFMsBytes() throws {
        let md = "## H { #x }\n\nT\n:   D\n\n++a++ ^^b^^ H~2~O\n\n*[H]: h\n"
        let html = try convert(md, [], ["--fragment"])
        XCTAssertEqual(html, "<h2>H { #x }</h2>\n<p>T\n:   D</p>\n<p>++a++ ^^b^^ H<del>2</del>O</p>\n<p>*[H]: h</p>\n")
    }

    /// Issue 45 item 7: syntax of an extension that is on but not read (around markup, in a list
    /// item) is reported at its block, not left silently.
    func testSyntaxLeftAsWrittenIsReported() throws {
        let dir = try makeTempDir(self)
        let input = try writeTestFile("A ^^**b**^^ c.\n\n- item { #x }\n\n`^^code^^` ^^fine^^\n", "doc.md", in: dir)
        let r = try NotepressBinary.run(["--markdown-extension", "pymdownx.caret", "--markdown-extension", "attr_list",
                                         "--fragment", "-v", input.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("doc.md:1:1: warning: ^^…^^ (pymdownx.caret)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("doc.md:3:3: warning: { … } (attr_list)"), r.stderr)
        XCTAssertFalse(r.stderr.contains("doc.md:5:"), r.stderr)
        XCTAssertTrue(r.stdoutText.contains("<code>^^code^^</code> <ins>fine</ins>"), r.stdoutText)
    }

    func testAnUnknownExtensionNameIsAUsageError() throws {
        let dir = try makeTempDir(self)
        let input = try writeTestFile("x\n", "doc.md", in: dir)
        let r = try NotepressBinary.run(["--markdown-extension", "nope", input.path])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("attr_list"), r.stderr)
    }
}
