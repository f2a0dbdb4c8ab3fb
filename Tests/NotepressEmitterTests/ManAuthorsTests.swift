import Foundation
import XCTest
import NotepressTestSupport

/// Issue 17: man pages as their authors write them (go-md2man, ronn and pandoc sources, notes),
/// in print and on the terminal. Every test converts through the real binary and checks the roff
/// and what mandoc and groff (`-Tutf8` and `-Tps`) say about it.
final class ManAuthorsTests: XCTestCase {
    /// The date every page here carries (`SOURCE_DATE_EPOCH`, 2024-05-06).
    static let environment = ["SOURCE_DATE_EPOCH": "1714953600"]

    /// Writes `input` to a file named `name` in a fresh folder, converts it with
    /// `notepress convert -t man`, and returns the page; fails the test on a non-zero exit.
    func convert(_ input: String, name: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let dir = try makeTempDir(self)
        let url = dir.appendingPathComponent(name)
        try input.write(to: url, atomically: true, encoding: .utf8)
        let r = try NotepressBinary.run(["convert", "-q", "-t", "man", url.path], environment: Self.environment, file: file, line: line)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return r.stdoutText
    }

    /// Converts a file of the man-page corpus or of samples/.
    func convert(file url: URL, line: UInt = #line) throws -> String {
        let r = try NotepressBinary.run(["convert", "-q", "-t", "man", url.path], environment: Self.environment)
        XCTAssertEqual(r.status, 0, r.stderr, line: line)
        return r.stdoutText
    }

    /// Asserts that mandoc and groff (terminal and PostScript) print nothing about `roff`.
    func assertLintClean(_ roff: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(ManTestSupport.lint(roff, name: "issue17"), "", what, file: file, line: line)
    }

    /// The page as man(1) shows it on an 80-column terminal (groff -Tutf8, line length 78, no
    /// bold or underline), one string.
    func terminal(_ roff: String) throws -> String {
        let dir = try makeTempDir(self)
        let url = dir.appendingPathComponent("page.1")
        try roff.write(to: url, atomically: true, encoding: .utf8)
        return try runTool("groff", ["-man", "-t", "-Tutf8", "-rLL=78n", "-rLT=78n", "-P-cbou", url.path]).output
    }

    // MARK: 1. Headings in lists and block quotes

    func testHeadingInsideListItemIsABoldParagraphNotSH() throws {
        let out = try convert("- a\n\n  ## H\n", name: "i1.md")
        XCTAssertEqual(out, """
            .TH "I1" "1" "2024-05-06"
            .IP "\\(bu" 2
            a
            .RS 2
            .PP
            \\fBH\\fR
            .RE

            """)
        assertLintClean(out, "heading in a list item")
    }

    /// A heading in a block quote is bold too, and does not make the document's own `##`
    /// headings `.SS` when it is shallower than them.
    func testHeadingInsideBlockQuoteLeavesSectionLevelsAlone() throws {
        let out = try convert("## Top\n\n> # Quoted\n>\n> text\n\n## Next\n\nMore.\n", name: "q.md")
        XCTAssertTrue(out.contains(".SH TOP\n.RS 4\n.PP\n\\fBQuoted\\fR\n.PP\ntext\n.RE\n.SH NEXT\nMore.\n"), out)
        assertLintClean(out, "heading in a block quote")
    }

    // MARK: 2. CJK text after a link

    func testCJKSentenceAfterLinkIsNotTheWholeUETrailer() throws {
        let input = "[連結](http://example.com/)，這是一個很長的中文句子用來測試換行是否正確處理而不會超出頁面寬度的限制因為中文沒有空格所以需要特別處理斷行的位置。\n"
        let out = try convert(input, name: "i2.md")
        // The trailer is the comma; the sentence goes on after \c, with break points, none before 。.
        XCTAssertTrue(out.contains(".UE \\[uFF0C]\\c\n\\[u9019]\\:\\[u662F]\\:\\[u4E00]\\:"), out)
        XCTAssertTrue(out.contains("\\[u4F4D]\\:\\[u7F6E]\\[u3002]\n"), out)
        assertLintClean(out, "CJK after a link (groff: can't break line)")
        let screen = try terminal(out)
        let lines = screen.split(separator: "\n").filter { $0.contains("中") || $0.contains("連") || $0.contains("。") }
        XCTAssertEqual(lines.count, 3, screen)
        XCTAssertTrue(lines[0].contains("連結 ⟨http://example.com/⟩，這是一個"), screen)  // no space before ，
        for l in lines { XCTAssertFalse(l.trimmingCharacters(in: .whitespaces).hasPrefix("。"), screen) }
    }

    /// A word glued to a link (`[x](u)s`) goes on after `.UE \c`; punctuation alone is the trailer.
    func testWordGluedToLinkFollowsBackslashC() throws {
        let out = try convert("See [the site](https://example.com/)s, or [this](https://example.org/).\n", name: "glued.md")
        XCTAssertTrue(out.contains("the site\n.UE \\c\ns, or\n"), out)
        XCTAssertTrue(out.contains("this\n.UE .\n"), out)
        assertLintClean(out, "glued word")
    }

    // MARK: 3. Paragraphs of dropped raw HTML

    func testParagraphOfDroppedHTMLWritesNoEmptyPP() throws {
        let out = try convert("Intro.\n\n<a href=\"https://example.com/\"><img src=\"logo.svg\"></a>\n\n## Next\n\nMore.\n", name: "i3.md")
        XCTAssertEqual(out, """
            .TH "I3" "1" "2024-05-06"
            .PP
            Intro.
            .SH NEXT
            More.

            """)
        assertLintClean(out, "dropped HTML paragraph")
    }

    // MARK: 4. Note lines that start with blanks

    func testNoteLineStartingWithTabKeepsItsIndentWithoutLeadingBlank() throws {
        let out = try convert("first line\n\tsecond line after a tab\n  two spaces\n", name: "i4.note")
        XCTAssertTrue(out.contains(".PP\nfirst line\n.br\n\\ \\ \\ \\ \\ \\ \\ \\ second line after a tab\n.br\n\\ \\ two spaces\n"), out)
        assertLintClean(out, "note line with a leading tab")
        XCTAssertTrue(try terminal(out).contains("\n               second line after a tab\n         two spaces\n"))
    }

    // MARK: 5. Several definitions under one term

    func testEachColonLineIsItsOwnDefinition() throws {
        let out = try convert("**--mode** _m_\n: Pick a mode.\n: In fast mode, checks are skipped.\n\n**--next**\n: Next.\n\n: Its second paragraph.\n",
                              name: "i5.md")
        XCTAssertTrue(out.contains("""
            .TP
            \\fB\\-\\-mode \\fIm\\fR
            Pick a mode.
            .RS
            .PP
            In fast mode, checks are skipped.
            .RE
            .TP
            \\fB\\-\\-next\\fR
            Next.
            .RS
            .PP
            Its second paragraph.
            .RE

            """), out)
        XCTAssertFalse(out.contains(": "), out)
        assertLintClean(out, "several definitions")
        XCTAssertTrue(try terminal(out).contains("""
                   --mode m
                          Pick a mode.

                          In fast mode, checks are skipped.
            """))
    }

    // MARK: 6. ronn placeholders

    /// `<kbd>q</kbd>` is an HTML element, read as code (bold in man pages, issue 53).
    func testRonnPlaceholdersFollowRonnsElementList() throws {
        let out = try convert("Give a <name>, a <section> and a value, a <new name> and <kbd>q</kbd>.\n", name: "i6.ronn")
        XCTAssertTrue(out.contains("Give a \\fIname\\fR, a \\fIsection\\fR and a value, a \\fInew name\\fR and \\fBq\\fR.\n"), out)
        assertLintClean(out, "ronn placeholders")
        // In Markdown `<section>` is an HTML5 element: dropped with a warning, as before.
        let md = try NotepressBinary.run(["convert", "--verbose", "-t", "man", "-"], stdin: Data("Give a <name>, a <section>.\n".utf8),
                                         environment: Self.environment)
        XCTAssertTrue(md.stdoutText.contains("Give a \\fIname\\fR, a .\n"), md.stdoutText)
        XCTAssertTrue(md.stderr.contains("raw HTML '<section>'"), md.stderr)
    }

    // MARK: 7. ronn definition lists and section levels

    func testRonnDefinitionListsAreTPAndLevelTwoStaysSH() throws {
        let input = """
            x(1) -- y
            =========

            ## SYNOPSIS

            Run it like this:
               # make install

            ## OPTIONS

              * `-m`, `--man`:
                Show it as man(1) would.

                More about it.

              * `--pipe`:
                Write to standard output.

            """
        let out = try convert(input, name: "x.1.ronn")
        XCTAssertTrue(out.contains("""
            .SH SYNOPSIS
            Run it like this:
            .PP
            # make install
            .SH OPTIONS
            .TP
            \\fB\\-m\\fR, \\fB\\-\\-man\\fR
            Show it as man(1) would.
            .RS
            .PP
            More about it.
            .RE
            .TP
            \\fB\\-\\-pipe\\fR
            Write to standard output.

            """), out)
        XCTAssertFalse(out.contains(".SS"), out)
        assertLintClean(out, "ronn definition list")
    }

    /// ronn's own page: every option of its OPTIONS list is a `.TP` entry, no bullet is left.
    func testRonnCorpusPageOptionsAreEntries() throws {
        let out = try convert(file: ManTestSupport.manCorpus.appendingPathComponent("ronn.1.ronn"))
        XCTAssertTrue(out.contains(".TP\n\\fB\\-\\-manual\\fR=\\fImanual\\fR\nThe name of the manual"), out)
        XCTAssertTrue(out.contains("Source files are typically named \\fIname\\fR.\\fIsection\\fR.ronn"), out)
        XCTAssertFalse(out.contains(".IP \"\\(bu\""), out)
        XCTAssertEqual(out.components(separatedBy: "\n.SH ").count - 1, 12, out)
        assertLintClean(out, "ronn.1.ronn")
    }

    // MARK: 8. Options as headings and paragraphs; ENVIRONMENT and EXIT STATUS

    func testOptionHeadingsAreTPWithTheirParagraphsIndented() throws {
        let input = """
            ## OPTIONS

            #### **--cdi-spec-dir**=*path*

            The CDI spec directory path.

            Second paragraph.

            #### **--config**
            Location of config file.

            ## Environment Variables

            #### **CONTAINERS_CONF**

            Path to the configuration file.

            """
        let out = try convert(input, name: "i8.md")
        XCTAssertTrue(out.contains("""
            .SH OPTIONS
            .TP
            \\fB\\-\\-cdi\\-spec\\-dir\\fR=\\fIpath\\fR
            The CDI spec directory path.
            .RS
            .PP
            Second paragraph.
            .RE
            .TP
            \\fB\\-\\-config\\fR
            Location of config file.
            .SH "ENVIRONMENT VARIABLES"
            .TP
            \\fBCONTAINERS_CONF\\fR
            Path to the configuration file.

            """), out)
        assertLintClean(out, "option headings")
        XCTAssertTrue(try terminal(out).contains("""
                   --cdi-spec-dir=path
                          The CDI spec directory path.

                          Second paragraph.
            """))
    }

    /// skopeo-copy's `--authfile`: its later paragraphs stay under it up to the next option.
    func testSkopeoOptionParagraphsStayUnderTheOption() throws {
        let out = try convert(file: ManTestSupport.manCorpus.appendingPathComponent("skopeo-copy.1.md"))
        XCTAssertTrue(out.contains("""
            .TP
            \\fB\\-\\-authfile \\fIpath\\fR
            .ad l
            Path of the primary registry credentials file.
            """), out)
        XCTAssertTrue(out.contains("""
            .RS
            .PP
            Use \\fBskopeo login\\fR to manage the credentials.
            .PP
            The default value of this option is read from the \\fBREGISTRY\\e_AUTH\\e_FILE\\fR
            environment variable.
            .RE
            .TP
            \\fB\\-\\-src\\-authfile \\fIpath\\fR
            """), out)
        assertLintClean(out, "skopeo-copy.1.md")
        let screen = try terminal(out)
        XCTAssertTrue(screen.contains("\n              Use skopeo login to manage the credentials.\n"), screen)
    }

    /// samples/markdown/man-style.md: ENVIRONMENT and EXIT STATUS entries are `.TP` like OPTIONS.
    func testEnvironmentAndExitStatusEntriesAreTP() throws {
        let out = try convert(file: ManTestSupport.samplesDir.appendingPathComponent("markdown/man-style.md"))
        XCTAssertTrue(out.contains("""
            .SH ENVIRONMENT
            .TP
            \\fBSAMPLE_TOOL_COLOR\\fR
            Set to \\fBnever\\fR to disable coloured output, \\fBalways\\fR to force it.
            .TP
            \\fBSAMPLE_TOOL_JOBS\\fR
            Number of files processed in parallel; defaults to the number of CPUs.
            .SH "EXIT STATUS"
            .TP
            \\fB0\\fR
            Every input was processed.
            """), out)
        assertLintClean(out, "man-style.md")
    }

    /// A bold line of prose ended by a hard break (exa's AUTHOR links) is no entry.
    func testLinesEndingInHardBreaksAreNoEntries() throws {
        let out = try convert("**Website:** `https://x.example/` \\\n**Source:** `https://y.example/`\n", name: "a.md")
        XCTAssertFalse(out.contains(".TP"), out)
        XCTAssertTrue(out.contains(".br\n"), out)
        assertLintClean(out, "hard-break lines")
    }

    // MARK: 9. Long tables in print

    /// podman's 63-row COMMANDS table: unboxed, so `groff -t -man -Tpdf` prints every row.
    func testLongTableIsUnboxedAndPrintsEveryRow() throws {
        let url = ManTestSupport.manCorpus.appendingPathComponent("podman.1.md")
        let out = try convert(file: url)
        XCTAssertTrue(out.contains(".TS\ntab(@);\nlbw(21n) lbw(36n)\nlw(21n) lw(36n).\nCommand@Description\n_\n"), out)
        XCTAssertEqual(try printedRows(roff: out, source: url), 64)
        assertLintClean(out, "podman.1.md")
        // A short table keeps its boxes.
        let short = try convert("| a | b |\n|---|---|\n| 1 | 2 |\n", name: "t.md")
        XCTAssertTrue(short.contains(".TS\nallbox tab(@);\n"), short)
    }

    /// Regression (new-user try-out): a table whose only row is empty (`|   |` over `|---|`) gave
    /// an empty tbl data line, and `mandoc -T lint` reported "tbl without any data cells"; a row
    /// of empty cells now starts with `\&`.
    func testTableOfEmptyCellsIsLintClean() throws {
        let out = try convert("|   |\n|---|\n", name: "t.md")
        XCTAssertTrue(out.contains(".TS\nallbox tab(@);\nlb\nl.\n\\&\n.TE\n"), out)
        assertLintClean(out, "empty table")
        let mixed = try convert("| a |  |\n|---|---|\n|  | |\n| x | |\n", name: "t.md")
        XCTAssertTrue(mixed.contains("\na@\n\\&@\nx@\n.TE\n"), mixed)
        assertLintClean(mixed, "table with an empty row")
    }

    /// Every man-md corpus file and every samples/ file prints (`groff -t -man -Tpdf`, read back
    /// with pdftotext) with every table row, and groff reports no error.
    func testCorpusAndSamplesPrintEveryTableRow() throws {
        let files = TestPaths.files(under: ManTestSupport.manCorpus, extensions: ["md", "ronn"])
            + TestPaths.files(under: ManTestSupport.samplesDir, extensions: ["md", "note"])
        XCTAssertGreaterThanOrEqual(files.count, 20)
        var tables = 0
        for url in files {
            let out = try convert(file: url)
            let expected = try tableRowKeys(source: url).count
            XCTAssertEqual(try printedRows(roff: out, source: url), expected, url.lastPathComponent)
            tables += out.components(separatedBy: ".TS\n").count - 1
        }
        XCTAssertGreaterThanOrEqual(tables, 3)
    }

    /// The first cell text of each table row of `source` (letters and digits, at most 12), for
    /// the rows that have ASCII text to find in print.
    func tableRowKeys(source: URL) throws -> [String] {
        let r = try NotepressBinary.run(["convert", "-q", "-t", "json", source.path], environment: Self.environment)
        let json = try JSONSerialization.jsonObject(with: r.stdout)
        var keys: [String] = []
        func text(_ node: Any) -> String {
            if let d = node as? [String: Any] {
                return (d["text"] as? String ?? "") + ((d["children"] as? [Any])?.map(text).joined() ?? "")
            }
            return (node as? [Any])?.map(text).joined() ?? ""
        }
        func walk(_ node: Any) {
            if let d = node as? [String: Any] {
                if d["type"] as? String == "table", let header = d["header"] as? [Any], let rows = d["rows"] as? [Any] {
                    for row in [header] + rows {
                        for cell in row as? [Any] ?? [] {
                            let key = String(text(cell).filter { $0.isASCII && ($0.isLetter || $0.isNumber) }.prefix(12))
                            if !key.isEmpty { keys.append(key); break }
                        }
                    }
                }
                d.values.forEach(walk)
            } else if let a = node as? [Any] {
                a.forEach(walk)
            }
        }
        walk(json)
        return keys
    }

    /// How many of `source`'s table rows (``tableRowKeys(source:)``) the PDF of `roff` shows, in
    /// order; fails when groff prints an error (tbl: "table will not fit on one page").
    func printedRows(roff: String, source: URL, line: UInt = #line) throws -> Int {
        let keys = try tableRowKeys(source: source)
        guard !keys.isEmpty else { return 0 }
        let dir = try makeTempDir(self)
        let page = dir.appendingPathComponent("page.1"), pdf = dir.appendingPathComponent("page.pdf")
        try roff.write(to: page, atomically: true, encoding: .utf8)
        let g = try runTool("sh", ["-c", "groff -t -man -Tpdf \"$0\" > \"$1\"", page.path, pdf.path])
        XCTAssertEqual(g.status, 0, line: line)
        XCTAssertFalse(g.output.contains("error"), "\(source.lastPathComponent): \(g.output)", line: line)
        let text = try runTool("pdftotext", [pdf.path, "-"]).output.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
        var found = 0
        var from = text.startIndex
        for key in keys {
            if let r = text.range(of: key, range: from..<text.endIndex) {
                found += 1
                from = r.upperBound
            }
        }
        return found
    }

    // MARK: 10. Relative Markdown link targets

    func testRelativeMarkdownAndFragmentTargetsAreNotPrinted() throws {
        let out = try convert("See [skopeo(1)](skopeo.1.md), the [copy page](skopeo-copy.1.md#options), [notes](notes.md), "
                              + "[ENVIRONMENT](#ENVIRONMENT) and [the site](https://example.com/).\n", name: "i10.md")
        XCTAssertTrue(out.contains("See skopeo(1), the copy page (skopeo-copy(1)), notes, ENVIRONMENT and\n.UR https://example.\\:com/\\:\nthe site\n.UE .\n"), out)
        XCTAssertFalse(out.contains(".md"), out)
        assertLintClean(out, "relative links")
        // In a table cell (podman's COMMANDS): the page reference alone.
        let podman = try convert(file: ManTestSupport.manCorpus.appendingPathComponent("podman.1.md"))
        XCTAssertTrue(podman.contains("\npodman-artifact(1)@Manage OCI artifacts.\n"), podman)
        XCTAssertFalse(podman.contains(".1.md"), podman)
    }

    // MARK: 11. Hyphens of options

    func testOptionHyphensAreMinusWhereverTheOptionStarts() throws {
        let out = try convert("## SYNOPSIS\n\n**tool-x** [**-v**|**--verbose**] *file-name*\n\n## DESCRIPTION\n\n"
                              + "Use (--width), \"--theme\", `--width` and [-v|--verbose] or a/--b, not well-known 2-3-4 (e-mail).\n",
                              name: "i11.md")
        XCTAssertTrue(out.contains("""
            .SH SYNOPSIS
            \\fBtool\\-x\\fR [\\fB\\-v\\fR|\\fB\\-\\-verbose\\fR] \\fIfile\\-name\\fR
            .SH DESCRIPTION
            Use (\\-\\-width), "\\-\\-theme", \\fB\\-\\-width\\fR and [\\-v|\\-\\-verbose] or a/\\-\\-b,
            not well-known 2-3-4 (e-mail).

            """), out)
        assertLintClean(out, "option hyphens")
        // In a note the backticks are text: the option after them still gets \-.
        let note = try convert("Use `--width` or (--dry-run).\n", name: "h.note")
        XCTAssertTrue(note.contains("Use `\\-\\-width` or (\\-\\-dry\\-run).\n"), note)
    }

    // MARK: 12. Notes as man pages

    /// `[STRIKEOUT:` opens before a link that starts struck text and `]` closes after one that
    /// ends it (not inside the link's text or URL).
    func testStrikeoutBracketsStayOutsideLinks() throws {
        let out = try convert("~~a~~<http://x.example/> and ~~[b](http://y.example/)~~ c.\n", name: "st.md")
        XCTAssertTrue(out.contains("""
            [STRIKEOUT:a]http://x.example/ and [STRIKEOUT:
            .UR http://y.\\:example/\\:
            b
            .UE ]
            c.

            """), out)
        assertLintClean(out, "strikeout and links")
    }

    func testNotePageStrikeoutSectionTitleAndNumbers() throws {
        let input = "---\ntitle: A very long note title that would collide with the header\n---\n"
            + "He said a pinch of sugar -no sugar-.\n1. one\n10. ten\n"
        let out = try convert(input, name: "i12.note")
        XCTAssertEqual(out, """
            .TH "A VERY LONG NOTE TITLE THAT..." "7" "2024-05-06" "" "Notes"
            .PP
            \\fBA very long note title that would collide with the header\\fR
            .PP
            He said a pinch of sugar [STRIKEOUT:no sugar].
            .IP "\\fB1.\\fR" 4
            one
            .IP "\\fB10.\\fR" 4
            ten

            """)
        assertLintClean(out, "note page")
        let screen = try terminal(out)
        // Header and footer fit in 78 columns with blanks between their parts.
        let lines = screen.split(separator: "\n")
        XCTAssertEqual(lines.first, "A VERY LONG NOTE TITLE THAT...(7)    Notes   A VERY LONG NOTE TITLE THAT...(7)")
        XCTAssertEqual(lines.last, "                                  2024-05-06 A VERY LONG NOTE TITLE THAT...(7)")
        // A CJK title counts two columns a character: 24 characters are 48 columns, cut to 26.
        let cjk = try convert("---\ntitle: 東京から大阪までの旅行の計画と予算と持ち物のリスト\n---\nx\n", name: "c.note")
        XCTAssertEqual(try terminal(cjk).split(separator: "\n").first, "東京から大阪までの旅行の計...(7)     Notes    東京から大阪までの旅行の計...(7)")
        // Front matter wins: section and manual as given, a short title as it is.
        let own = try convert("---\ntitle: Soup\nsection: 5\nmanual: Recipes\n---\nLentils.\n", name: "s.note")
        XCTAssertTrue(own.hasPrefix(".TH \"SOUP\" \"5\" \"2024-05-06\" \"\" \"Recipes\"\n.PP\nLentils.\n"), own)
    }
}
