import Foundation
import Notepress
import NotepressAST
import NotepressHTML
import NotepressReaders
import XCTest
import NotepressTestSupport

/// `--toc` (issue 14 item 2): one ``TableOfContents`` of the top-level headings with the ids of
/// ``Document/headingIDs()``, written by HTML, RTF, ANSI and TEI; none in man pages or the JSON
/// dump. Expected outputs are written out by hand.
final class TableOfContentsTests: XCTestCase {
    /// Headings with a jump (1 → 4), a heading inside a quote (counted for ids, not listed),
    /// duplicates, an image (its description is not part of the id), markup and a long text.
    static let markdown = """
        # Café *intro*

        Text.

        #### Jump ![img](x.png "t") deep

        ## Back & "forth"

        > ## Quoted, not listed

        ### Three

        # Café intro

        ## A long heading that wraps when the terminal is narrow enough to need it

        """

    func convert(_ args: [String], _ input: String = markdown, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try NotepressBinary.run(["convert", "-", "-f", "gfm"] + args, stdin: Data(input.utf8), file: file, line: line)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return r.stdoutText
    }

    // MARK: The shared model

    /// An entry nests under the nearest earlier entry of a smaller level: a jump nests one step,
    /// a later `##` comes back beside the nested `####`.
    func testNestingFollowsTheNearestHigherLevel() {
        let levels = [1, 4, 2, 3, 6, 1, 3, 2, 5, 5]
        let toc = TableOfContents(headings: levels.enumerated().map { ($0.element, "h\($0.offset)", "id\($0.offset)") }, maxLevel: 6)
        XCTAssertEqual(toc.entries.map(\.depth), [0, 1, 1, 2, 3, 0, 1, 1, 2, 2])
        XCTAssertEqual(toc.entries.map(\.id), (0..<10).map { "id\($0)" })
        let shallow = TableOfContents(headings: levels.enumerated().map { ($0.element, "h\($0.offset)", "id\($0.offset)") })
        XCTAssertEqual(shallow.entries.map(\.level), [1, 2, 3, 1, 3, 2])
        XCTAssertEqual(shallow.entries.map(\.depth), [0, 1, 2, 0, 1, 1])
        XCTAssertTrue(TableOfContents(headings: [(4, "x", "x")], maxLevel: 3).isEmpty)
        // A document starting below level 1 starts at depth 0.
        XCTAssertEqual(TableOfContents(headings: [(3, "a", "a"), (2, "b", "b"), (3, "c", "c")]).entries.map(\.depth), [0, 0, 1])
    }

    /// Ids are GitHub's over every heading in document order (the quoted one takes `quoted-not-listed`
    /// and the duplicate gets `-1`); only top-level headings are listed.
    func testHeadingIDsCountEveryHeadingAndListTopLevelOnes() {
        let doc = MarkdownReader(format: .gfm).parse(Self.markdown, path: "t.md").document
        let ids = doc.headingIDs()
        XCTAssertEqual(ids.map(\.id), ["café-intro", "jump--deep", "back--forth", "quoted-not-listed", "three", "café-intro-1",
                                       "a-long-heading-that-wraps-when-the-terminal-is-narrow-enough-to-need-it"])
        XCTAssertEqual(ids.map(\.isTopLevel), [true, true, true, false, true, true, true])
        XCTAssertEqual(ids.map(\.text)[1], "Jump img deep")
        XCTAssertEqual(ids[3].position, SourcePosition(line: 9, column: 3))
        XCTAssertEqual(TableOfContents(doc, maxLevel: 6).entries.map(\.id),
                       ["café-intro", "jump--deep", "back--forth", "three", "café-intro-1",
                        "a-long-heading-that-wraps-when-the-terminal-is-narrow-enough-to-need-it"])
    }

    /// 100 000 headings with jumps in both directions: built and written in linear time.
    func testLargeTableIsLinear() throws {
        let levels = [1, 6, 2, 5, 3, 4]
        let headings = (0..<100_000).map { (levels[$0 % 6], "Heading \($0)", "heading-\($0)") }
        let start = processCPUSeconds()
        let toc = TableOfContents(headings: headings, maxLevel: 6)
        let html = HTMLTableOfContents.markup(toc)
        XCTAssertLessThan(processCPUSeconds() - start, 10, "CPU seconds")
        XCTAssertEqual(toc.entries.count, 100_000)
        XCTAssertEqual(html.components(separatedBy: "<li>").count - 1, 100_000)
        XCTAssertEqual(html.components(separatedBy: "<ul>").count, html.components(separatedBy: "</ul>").count)
        XCTAssertEqual(toc.entries.prefix(6).map(\.depth), [0, 1, 1, 2, 2, 3])
    }

    // MARK: Per format, through the binary

    func testHTMLFragmentStartsWithANestedNav() throws {
        let html = try convert(["--toc", "--toc-depth", "4", "--fragment"])
        XCTAssertTrue(html.hasPrefix("""
            <nav class="toc" aria-label="Contents">
            <ul>
            <li><a href="#caf%C3%A9-intro">Café intro</a>
            <ul>
            <li><a href="#jump--deep">Jump img deep</a></li>
            <li><a href="#back--forth">Back &amp; &quot;forth&quot;</a>
            <ul>
            <li><a href="#three">Three</a></li>
            </ul>
            </li>
            </ul>
            </li>
            <li><a href="#caf%C3%A9-intro-1">Café intro</a>
            <ul>
            <li><a href="#a-long-heading-that-wraps-when-the-terminal-is-narrow-enough-to-need-it">A long heading that wraps when the terminal is narrow enough to need it</a></li>
            </ul>
            </li>
            </ul>
            </nav>
            <h1>Café <em>intro</em></h1>

            """), html)
        // Without --toc the fragment is cmark-gfm's, unchanged.
        XCTAssertTrue(try convert(["--fragment"]).hasPrefix("<h1>Café <em>intro</em></h1>\n<p>Text.</p>\n"))
    }

    /// In a page the table comes after the date badge and before the body (default depth 3: the
    /// `####` is left out).
    func testHTMLPagePutsTheNavBetweenBadgeAndBody() throws {
        let html = try convert(["--toc"], "---\ncreated: 2026-11-29\n---\n# A\n\n#### Four\n\n## B\n")
        XCTAssertTrue(html.contains("""
            <time class="date-badge" datetime="2026-11-29T00:00:00Z"><span class="day">29</span> <span class="month">Nov</span> <span class="year">2026</span></time>
            <nav class="toc" aria-label="Contents">
            <ul>
            <li><a href="#a">A</a>
            <ul>
            <li><a href="#b">B</a></li>
            </ul>
            </li>
            </ul>
            </nav>
            <h1 id="a" dir="auto">A</h1>

            """), html)
    }

    func testANSIIndentedList() throws {
        let text = try convert(["--toc", "-t", "ansi", "--color", "never", "--width", "40", "-M", "title=T"])
        XCTAssertTrue(text.hasPrefix("""
            T
            ─

            Contents
              Café intro
                Back & "forth"
                  Three
              Café intro
                A long heading that wraps when the
                terminal is narrow enough to need it

            # Café intro

            """), text)
        // view takes --toc too.
        let file = try makeTempDir(self).appendingPathComponent("v.md")
        try "# One\n\n## Two\n".write(to: file, atomically: true, encoding: .utf8)
        let view = try NotepressBinary.run(["view", "--toc", "--color", "never", "--width", "30", file.path])
        XCTAssertEqual(view.status, 0, view.stderr)
        XCTAssertTrue(view.stdoutText.contains("\n\nContents\n  One\n    Two\n\n# One\n"), view.stdoutText)
    }

    /// TEI: `front/div[@type="contents"]` with `list`/`item`/`ref`, each `@target` the `xml:id`
    /// of its section's `div`; valid for the shipped schema (the writer validates) and for jing.
    func testTEIContentsDivLinksToTheSectionIDs() throws {
        let xml = try convert(["--toc", "-t", "tei"])
        XCTAssertTrue(xml.contains("""
              <text>
                <front>
                  <div type="contents">
                    <head>Contents</head>
                    <list>
                      <item>
                        <ref target="#café-intro">Café intro</ref>
                        <list>
                          <item>
                            <ref target="#back--forth">Back &amp; "forth"</ref>
                            <list>
                              <item>
                                <ref target="#three">Three</ref>
                              </item>
                            </list>
                          </item>
                        </list>
                      </item>
                      <item>
                        <ref target="#café-intro-1">Café intro</ref>
                        <list>
                          <item>
                            <ref target="#a-long-heading-that-wraps-when-the-terminal-is-narrow-enough-to-need-it">A long heading that wraps when the terminal is narrow enough to need it</ref>
                          </item>
                        </list>
                      </item>
                    </list>
                  </div>
                </front>
                <body>

            """), xml)
        // Every target is the xml:id of a div.
        let targets = xml.components(separatedBy: "<ref target=\"#").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        XCTAssertEqual(targets.count, 5)
        for t in targets { XCTAssertTrue(xml.contains("<div xml:id=\"\(t)\">"), t) }
        let file = try makeTempDir(self).appendingPathComponent("toc.xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        guard let (status, errors) = TEITestSupport.jing([file]) else { return }
        XCTAssertEqual(status, 0, errors.joined(separator: "\n"))
    }

    /// RTF: a caption, one linked paragraph per entry (indented 360 twips per depth), and the
    /// `_TocN` bookmark at the start of each listed heading.
    func testRTFInternalLinksAndBookmarks() throws {
        let rtf = try convert(["--toc", "-t", "rtf", "-M", "title=T"])
        XCTAssertTrue(rtf.contains("""
            \\pard\\plain\\sb240\\sa120\\sl560\\slmult0\\dbch\\af3\\rtlch\\af0\\afs44\\ab\\ltrch\\f0\\fs44\\b\\cf1 Contents\\par 
            \\pard\\plain\\sa60\\sl440\\slmult0\\dbch\\af3\\rtlch\\af0\\afs34\\ltrch\\f0\\fs34\\cf1{\\field{\\*\\fldinst{HYPERLINK \\\\l "_Toc1"}}{\\fldrslt{\\cf3\\ul Caf\\u233? intro}}}\\par 
            \\pard\\plain\\li360\\sa60\\sl440\\slmult0\\dbch\\af3\\rtlch\\af0\\afs34\\ltrch\\f0\\fs34\\cf1{\\field{\\*\\fldinst{HYPERLINK \\\\l "_Toc2"}}{\\fldrslt{\\cf3\\ul Back & "forth"}}}\\par 
            \\pard\\plain\\li720\\sa60\\sl440\\slmult0\\dbch\\af3\\rtlch\\af0\\afs34\\ltrch\\f0\\fs34\\cf1{\\field{\\*\\fldinst{HYPERLINK \\\\l "_Toc3"}}{\\fldrslt{\\cf3\\ul Three}}}\\par 
            """), rtf)
        XCTAssertTrue(rtf.contains("\\pard\\plain\\ltrpar\\outlinelevel0\\keepn\\sb240\\sa120\\sl680\\slmult0\\dbch\\af3\\rtlch\\af0\\afs56\\ab\\ltrch\\f0\\fs56\\b\\cf1"
            + "{\\*\\bkmkstart _Toc1}{\\*\\bkmkend _Toc1}{\\*\\bkmkstart ix_caf__intro_ec126488149b42de}{\\*\\bkmkend ix_caf__intro_ec126488149b42de}Caf\\u233? {\\rtlch\\ai\\ltrch\\i intro}\\par "), rtf)
        XCTAssertTrue(rtf.contains("\\outlinelevel2\\keepn\\sb240\\sa120\\sl500\\slmult0\\dbch\\af3\\rtlch\\af0\\afs40\\ab\\ltrch\\f0\\fs40\\b\\cf1{\\*\\bkmkstart _Toc3}{\\*\\bkmkend _Toc3}{\\*\\bkmkstart id_three}{\\*\\bkmkend id_three}Three\\par "))
        // Five table entries, and a bookmark per heading id (seven headings, the quoted one too
        // since issue 31; the long id and the two with `é` named by their hash).
        XCTAssertEqual(rtf.components(separatedBy: "\\bkmkstart _Toc").count - 1, 5)
        XCTAssertEqual(rtf.components(separatedBy: "\\bkmkstart id_").count - 1, 4)
        XCTAssertEqual(rtf.components(separatedBy: "\\bkmkstart ix_").count - 1, 3)
        XCTAssertTrue(rtf.contains("{\\*\\bkmkstart ix_a_long_heading_that__7e94f0ec8d5b1b51}"))
        // Without --toc: no caption, no table bookmark; the heading ids' bookmarks stay.
        let plain = try convert(["-t", "rtf"])
        XCTAssertFalse(plain.contains("Contents") || plain.contains("_Toc"))
        XCTAssertEqual(plain.components(separatedBy: "\\bkmkstart id_").count - 1 + plain.components(separatedBy: "\\bkmkstart ix_").count - 1, 7)
    }

    /// LibreOffice reads the links as internal links (`#_TocN`) to bookmarks that exist, in
    /// order, and lays the table out before the first heading (flat ODF: no unzip needed).
    func testLibreOfficeFollowsTheRTFLinksToBookmarks() throws {
        let dir = try makeTempDir(self)
        let rtf = dir.appendingPathComponent("toc.rtf")
        try convert(["--toc", "-t", "rtf"]).write(to: rtf, atomically: true, encoding: .utf8)
        try LibreOffice.soffice("fodt", [rtf], outDir: dir)
        let odf = try String(contentsOf: dir.appendingPathComponent("toc.fodt"), encoding: .utf8)
        let hrefs = odf.components(separatedBy: "<text:a xlink:type=\"simple\" xlink:href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        XCTAssertEqual(hrefs.filter { $0.hasPrefix("#") }, ["#_Toc1", "#_Toc2", "#_Toc3", "#_Toc4", "#_Toc5"])
        let bookmarks = odf.components(separatedBy: "<text:bookmark text:name=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        XCTAssertEqual(bookmarks.filter { $0.hasPrefix("_Toc") }, ["_Toc1", "_Toc2", "_Toc3", "_Toc4", "_Toc5"])
        // Each bookmark opens its heading (an outline-level paragraph of LibreOffice).
        XCTAssertNotNil(odf.range(of: #"<text:h [^>]*text:outline-level="1"><text:bookmark text:name="_Toc1"/><text:bookmark text:name="ix_caf__intro_ec126488149b42de"/><text:span [^>]*>Café </text:span>"#,
                                  options: .regularExpression), "bookmark _Toc1 is not at the start of the first heading")
        XCTAssertNotNil(odf.range(of: #"<text:h [^>]*text:outline-level="3"><text:bookmark text:name="_Toc3"/><text:bookmark text:name="id_three"/><text:span [^>]*>Three</text:span></text:h>"#,
                                  options: .regularExpression), "bookmark _Toc3 is not at the start of its heading")
    }

    /// Man pages and the JSON dump have no table of contents: the same bytes with and without --toc.
    func testManAndJSONAreUnchangedByToc() throws {
        for format in ["man", "json"] {
            XCTAssertEqual(try convert(["-t", format, "--toc"]), try convert(["-t", format]), format)
        }
    }

    /// A document without headings (a note) gets no table in any format.
    func testNoHeadingsNoTable() throws {
        for format in ["html", "rtf", "ansi", "tei"] {
            let out = try NotepressBinary.run(["convert", "-", "-f", "note", "-t", format, "--toc", "--color", "never"],
                                              stdin: Data("Just *a* note\n".utf8))
            XCTAssertEqual(out.status, 0, out.stderr)
            XCTAssertFalse(out.stdoutText.contains("Contents") || out.stdoutText.contains("class=\"toc\""), format)
        }
    }

    func testTocDepthOutOfRangeIsAUsageError() throws {
        let r = try NotepressBinary.run(["convert", "-", "--toc", "--toc-depth", "7"], stdin: Data("# x\n".utf8))
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.hasPrefix("notepress convert: option '--toc-depth' expects a whole number in 1...6, got '7'"), r.stderr)
    }
}
