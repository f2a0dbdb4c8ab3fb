import Foundation
import NotepressAST
import XCTest
import NotepressTestSupport

/// Issue 16: right-to-left text, every script's properties, note numbers, the script style and
/// the heading hierarchy, as the binary writes them (markup and control words; the RTF as read
/// by LibreOffice is RTFScriptsLibreOfficeTests', the pages as drawn by Chromium are in the
/// report's screenshots).
final class ScriptsAndDirectionTests: XCTestCase {
    func convert(_ text: String, _ args: [String], format: String = "gfm") throws -> NotepressBinary.Result {
        try NotepressBinary.runExpectingSuccess(["convert", "-q", "-f", format] + args + ["-"], stdin: Data(text.utf8))
    }

    /// The text written to a file by `-o` (ANSI files always use 256 colours).
    func convertToFile(_ text: String, _ args: [String], format: String, ext: String) throws -> String {
        let dir = try makeTempDir(self)
        let input = dir.appendingPathComponent("in." + (format == "note" ? "note" : "md"))
        try text.write(to: input, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out." + ext)
        let r = try NotepressBinary.run(["convert", "-q"] + args + [input.path, "-o", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try String(contentsOf: out, encoding: .utf8)
    }

    func testTextDirectionIsUAX9FirstStrongFromICU() {
        XCTAssertEqual(TextDirection.base(of: "שלום world"), .rightToLeft)
        XCTAssertEqual(TextDirection.base(of: "«سلام» hello"), .rightToLeft, "punctuation is neutral")
        XCTAssertEqual(TextDirection.base(of: "4471 hello שלום"), .leftToRight, "digits are weak")
        XCTAssertNil(TextDirection.base(of: "17:00 — 2!"))
        XCTAssertEqual(TextDirection.base(of: "\u{2067}abc\u{2069} שלום"), .rightToLeft, "isolates are skipped (P2)")
        for rtl in ["he", "ar", "ar-EG", "fa", "ur", "yi", "az-Arab"] { XCTAssertEqual(TextDirection.of(language: rtl), .rightToLeft, rtl) }
        for ltr in ["en", "zh-Hant", "ja", "az", "x"] { XCTAssertEqual(TextDirection.of(language: ltr), .leftToRight, ltr) }
    }

    /// Pages put `dir="auto"` on every text block (as GitHub does); fragments stay cmark-gfm's.
    func testPagesPutDirAutoOnBlocksFragmentsStayCmarkGFMs() throws {
        let md = "# כותרת\n\nפסקה.\n\n- a\n\n> q\n\n| h |\n|---|\n| c |\n"
        let page = try convert(md, ["-t", "html"]).stdoutText
        // (Headings carry their GitHub id too: `כותרת` is its own slug.)
        for tag in ["<h1 id=\"כותרת\" dir=\"auto\">כותרת</h1>", "<p dir=\"auto\">פסקה.</p>", "<li dir=\"auto\">a</li>", "<blockquote dir=\"auto\">\n<p dir=\"auto\">q</p>",
                    "<th dir=\"auto\">h</th>", "<td dir=\"auto\">c</td>"] {
            XCTAssertTrue(page.contains(tag), tag)
        }
        let fragment = try convert(md, ["-t", "html", "--fragment"]).stdoutText
        XCTAssertEqual(fragment, "<h1>כותרת</h1>\n<p>פסקה.</p>\n<ul>\n<li>a</li>\n</ul>\n<blockquote>\n<p>q</p>\n</blockquote>\n"
            + "<table>\n<thead>\n<tr>\n<th>h</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>c</td>\n</tr>\n</tbody>\n</table>\n")
        // Note lines: each its own direction (`p { unicode-bidi: plaintext }` in the page).
        let note = try convert("---\ntitle: t\n---\nשלום\nhello\n", ["-t", "html"], format: "note").stdoutText
        XCTAssertTrue(note.contains("<p dir=\"auto\">שלום<br />\nhello</p>"), note)
        XCTAssertTrue(note.contains("p, li { unicode-bidi: plaintext; }"))
    }

    /// Issue 16: front matter `lang` reaches `<html lang>` (and `dir` from its script) and TEI's
    /// `xml:lang`.
    func testFrontMatterLanguage() throws {
        let text = "---\ntitle: t\nlang: he\n---\nשלום\n"
        let page = try convert(text, ["-t", "html"], format: "note").stdoutText
        XCTAssertTrue(page.contains("<html lang=\"he\" dir=\"rtl\" data-size-category=\"large\">"), page)
        let tei = try convert(text, ["-t", "tei"], format: "note").stdoutText
        XCTAssertTrue(tei.contains("<TEI xmlns=\"http://www.tei-c.org/ns/1.0\" xml:lang=\"he\">"), tei)
    }

    /// Ordered lists whose numbers have four digits get room for them on pages.
    func testLongListNumbersGetRoomOnPages() throws {
        let md = "998. a\n999. b\n1000. c\n"
        XCTAssertTrue(try convert(md, ["-t", "html"]).stdoutText.contains("<ol start=\"998\" style=\"--np-digits: 4\">"))
        XCTAssertTrue(try convert(md, ["-t", "html", "--fragment"]).stdoutText.hasPrefix("<ol start=\"998\">\n"))
        XCTAssertTrue(try convert("1. a\n2. b\n", ["-t", "html"]).stdoutText.contains("<ol>\n"))
        // RTF: a hanging indent of 3.5 em (1190 twips at 17 pt) for "1000.", two ems below.
        let rtf = try convert(md, ["-t", "rtf"]).stdoutText
        XCTAssertTrue(rtf.contains("\\fi-1190\\li1190\\lin1190}"), rtf)
        XCTAssertTrue(rtf.contains("\\ls1\\ilvl0\\fi-1190\\li1190\\tx1190{\\listtext"), rtf)
        XCTAssertTrue(try convert("1. a\n", ["-t", "rtf"]).stdoutText.contains("\\ls1\\ilvl0\\fi-680\\li680\\tx680{"))
        // A done task's box is ☒ (☑ has emoji presentation: LibreOffice's PDF left it blank).
        XCTAssertTrue(try convert("- [x] done\n", ["-t", "rtf"]).stdoutText.contains("\\u9746? done\\par"))
    }

    /// Each note line is an RTF paragraph of its own direction; Hebrew runs carry the
    /// complex-script bold beside the Latin one; every paragraph names the East Asian font.
    func testRTFDirectionPerLineAndComplexScriptRuns() throws {
        let rtf = try convert("שלום *עולם*\nhello _world_\n", ["-t", "rtf"], format: "note").stdoutText
        XCTAssertTrue(rtf.contains("\\pard\\plain\\rtlpar\\qr\\sa0\\sl440\\slmult0\\dbch\\af3\\rtlch\\af0\\afs34\\ltrch\\f0\\fs34\\cf1 "
            + "\\u1513?\\u1500?\\u1493?\\u1501? {\\rtlch\\ab\\ltrch\\b \\u1506?\\u1493?\\u1500?\\u1501?}\\par"), rtf)
        XCTAssertTrue(rtf.contains("\\pard\\plain\\ltrpar\\sa120\\sl440\\slmult0\\dbch\\af3\\rtlch\\af0\\afs34\\ltrch\\f0\\fs34\\cf1 "
            + "hello {\\rtlch\\ai\\ltrch\\i world}\\par"), rtf)
        XCTAssertTrue(rtf.contains("{\\f3\\fswiss\\fprq2\\fcharset0 Noto Sans CJK SC{\\*\\falt Microsoft YaHei};}"))
    }

    /// Note numbers are bold in the terminal (they were plain with colour on), the script style
    /// is the theme's (italic purple, not the italic of `_italic_`).
    func testANSINoteNumbersBoldAndScriptStyle() throws {
        let ans = try convertToFile("1. milk\n2. ~script~ and _italic_\n", ["-t", "ansi", "--color", "always", "--width", "40"],
                                    format: "note", ext: "ans")
        // #8944ab at 256 colours: cube entry 97.
        XCTAssertTrue(ans.hasSuffix("\u{1B}[0;1m1. \u{1B}[0mmilk\n\u{1B}[0;1m2. \u{1B}[0;3;38;5;97mscript\u{1B}[0m and \u{1B}[0;3mitalic\u{1B}[0m\n"), ans)
    }

    /// Heading hierarchy in a terminal: h1 bold with a heavy rule, h2 bold with a light rule,
    /// h3 and below bold.
    func testANSIHeadingHierarchy() throws {
        let md = "# One\n\n## Two\n\n### Three\n\n#### Four\n"
        XCTAssertEqual(try convert(md, ["-t", "ansi", "--color", "never", "--width", "40"]).stdoutText,
                       "# One\n━━━━━\n\n## Two\n──────\n\n### Three\n\n#### Four\n")
        XCTAssertEqual(try convert(md, ["-t", "ansi", "--color", "never", "--width", "40", "--ascii"]).stdoutText,
                       "# One\n=====\n\n## Two\n------\n\n### Three\n\n#### Four\n")
        let ans = try convertToFile(md, ["-t", "ansi", "--color", "always"], format: "gfm", ext: "ans")
        XCTAssertTrue(ans.contains("\u{1B}[0;2m# \u{1B}[0;1mOne\u{1B}[0m\n━━━━━\n\n\u{1B}[0;2m## \u{1B}[0;1mTwo\u{1B}[0m\n──────\n\n"
            + "\u{1B}[0;2m### \u{1B}[0;1mThree\u{1B}[0m\n"), ans)
    }

    /// man: note numbers bold (README), Markdown list numbers as before.
    func testManNoteNumbersBold() throws {
        let note = try convert("---\ntitle: n\ndate: 2024-01-02\n---\n1. milk\n2. bread\n", ["-t", "man"], format: "note").stdoutText
        XCTAssertTrue(note.contains(".IP \"\\fB1.\\fR\" 3\nmilk\n.IP \"\\fB2.\\fR\" 3\nbread\n"), note)
        let md = try convert("1. milk\n", ["-t", "man"]).stdoutText
        XCTAssertTrue(md.contains(".IP \"1.\" 3\nmilk\n"), md)
    }

    /// Regression (issue 16): a single input named by its absolute path was written absolute in
    /// the JSON dump (TEI: TEIEmitterTests.testSameBytesAcrossProcesses).
    func testJSONSourcePathIsNeverAbsolute() throws {
        let dir = try makeTempDir(self)
        let input = dir.appendingPathComponent("x.md")
        try "hi\n".write(to: input, atomically: true, encoding: .utf8)
        let r = try NotepressBinary.run(["convert", "-q", "-t", "json", input.path])
        XCTAssertTrue(r.stdoutText.contains("\"sourcePath\": \"x.md\""), r.stdoutText)
        XCTAssertFalse(r.stdoutText.contains(dir.path))
        let relative = try NotepressBinary.run(["convert", "-q", "-t", "json", "x.md"], currentDirectory: dir)
        XCTAssertTrue(relative.stdoutText.contains("\"sourcePath\": \"x.md\""), relative.stdoutText)
    }
}
