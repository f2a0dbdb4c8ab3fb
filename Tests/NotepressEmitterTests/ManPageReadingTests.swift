import Foundation
import XCTest
import NotepressTestSupport

/// Issue 31, man items: every man page reads as its author meant, through the real binary and
/// the real readers (`man -l`, `lexgrog`, `mandoc -T lint`).
final class ManPageReadingTests: XCTestCase {
    /// The man page of `markdown` written as `name` (its first line, `.TH`, and the whole page).
    func man(_ markdown: String, name: String) throws -> (page: URL, roff: String, stderr: String) {
        let dir = try makeTempDir(self)
        let md = dir.appendingPathComponent(name)
        try markdown.write(to: md, atomically: true, encoding: .utf8)
        let page = dir.appendingPathComponent("page.man")
        let r = try NotepressBinary.run(["convert", md.path, "-t", "man", "-o", page.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        return (page, try String(contentsOf: page, encoding: .utf8), r.stderr)
    }

    /// The header line `man -l` shows.
    func header(_ page: URL) throws -> String {
        let (status, out) = try runTool("sh", ["-c", "MANWIDTH=80 MAN_KEEP_FORMATTING= man -l '\(page.path)' 2>&1 | col -bx | head -1"])
        XCTAssertEqual(status, 0, out)
        return out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func lintClean(_ page: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let (_, out) = try runTool("mandoc", ["-T", "lint", "-W", "warning", page.path])
        XCTAssertEqual(out, "", file: file, line: line)
    }

    // Item 7
    func testOrdinaryFirstHeadingDoesNotNameThePage() throws {
        let notes = try man("# Release notes\n\nWhat changed.\n", name: "release-notes.md")
        XCTAssertTrue(notes.roff.hasPrefix(#".TH "RELEASE\-NOTES" "1""#), notes.roff)
        XCTAssertTrue(notes.roff.contains(".SH \"RELEASE NOTES\"\nWhat changed."), "the heading stays in the body: \(notes.roff)")
        let notesHeader = try header(notes.page)
        XCTAssertTrue(notesHeader.hasPrefix("RELEASE-NOTES(1)"), notesHeader)
        try lintClean(notes.page)
        let missing = try man("# Document not found (404)\n\nGone.\n", name: "404.md")
        XCTAssertTrue(missing.roff.hasPrefix(#".TH "404" "1""#), missing.roff)
        let missingHeader = try header(missing.page)
        XCTAssertTrue(missingHeader.hasPrefix("404(1)"), missingHeader)
        let chapter = try man("# Chapter 1 overview\n\nText.\n", name: "guide.md")
        XCTAssertTrue(chapter.roff.hasPrefix(#".TH "GUIDE" "1""#), chapter.roff)
        // Real title shapes still name the page.
        XCTAssertTrue(try man("# tool 8\n\nText.\n", name: "a.md").roff.hasPrefix(#".TH "TOOL" "8""#))
        // `# name(section)` alone, or with an empty ronn description (new-user try-out: `.TH "T1"`
        // from the file name, and the title left as an `.SH X(1)` heading).
        let bare = try man("# x(1)\n\nText.\n", name: "t1.md")
        XCTAssertTrue(bare.roff.hasPrefix(#".TH "X" "1""#), bare.roff)
        XCTAssertFalse(bare.roff.contains(".SH X(1)"), bare.roff)
        XCTAssertTrue(try man("# tool(8) --\n\nText.\n", name: "a.md").roff.hasPrefix(#".TH "TOOL" "8""#))
        XCTAssertTrue(try man("# go-md2man 1 \"January 2015\" go-md2man \"User Manual\"\n\nText.\n", name: "a.md").roff
            .hasPrefix(#".TH "GO\-MD2MAN" "1" "#))
    }

    // Item 8
    func testParagraphAfterRonnTitleIsNotInsideName() throws {
        let page = try man("# hello(1) -- hello world\n\nYour output might look like this:\n\n    hello\n", name: "hello.1.ronn")
        XCTAssertTrue(page.roff.contains(".SH NAME\nhello \\- hello world\n.PP\nYour output"), page.roff)
        let (status, out) = try runTool("lexgrog", [page.page.path])
        XCTAssertEqual(status, 0, out)
        XCTAssertTrue(out.hasSuffix(": \"hello - hello world\"\n"), out)
        try lintClean(page.page)
    }

    // Item 10
    func testFileNameSectionIsTheDefaultSection() throws {
        let page = try man("% x\n% Me\n% 2024-01-01\n\n# NAME\n\nx - a tool\n", name: "x.8.md")
        XCTAssertTrue(page.roff.hasPrefix(#".TH "X" "8""#), page.roff)
        let h = try header(page.page)
        XCTAssertTrue(h.hasPrefix("X(8)"), h)
    }

    /// The lines `man -l` shows for `page` (groff through man-db), at 80 columns.
    func shown(_ page: URL) throws -> [String] {
        let (status, out) = try runTool("sh", ["-c", "LC_ALL=C.UTF-8 MANWIDTH=80 MAN_KEEP_FORMATTING= man -l '\(page.path)' 2>&1 | col -b"])
        XCTAssertEqual(status, 0, out)
        return out.components(separatedBy: "\n")
    }

    // Item 14
    func testParagraphAfterBoxedTableDoesNotSitUnderTheBottomRule() throws {
        let page = try man("# t 1\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nAfter the table.\n\n| c |\n|---|\n| 3 |\n| 4 |\n\n| d |\n|---|\n| 5 |\n", name: "t.md")
        XCTAssertTrue(page.roff.contains("allbox"), page.roff)
        let lines = try shown(page.page)
        // Every bottom rule of a box is followed by a blank line (groff).
        let bottoms = lines.indices.filter { lines[$0].contains("\u{2514}") }
        XCTAssertEqual(bottoms.count, 3, lines.joined(separator: "\n"))
        for b in bottoms { XCTAssertEqual(lines[b + 1].trimmingCharacters(in: .whitespaces), "", lines.joined(separator: "\n")) }
        // mandoc draws the same.
        let (_, m) = try runTool("sh", ["-c", "LC_ALL=C.UTF-8 mandoc -T utf8 '\(page.page.path)' | col -b"])
        let ml = m.components(separatedBy: "\n")
        let mb = ml.indices.filter { ml[$0].contains("\u{2514}") }
        XCTAssertEqual(mb.count, 3, m)
        for b in mb { XCTAssertEqual(ml[b + 1].trimmingCharacters(in: .whitespaces), "", m) }
        try lintClean(page.page)
    }

    /// Display columns of a line of terminal text (CJK ideographs and kana take two).
    static func columns(_ line: String) -> Int {
        line.unicodeScalars.reduce(0) { n, u in
            n + ((0x1100...0x115F).contains(u.value) || (0x2E80...0xA4CF).contains(u.value) || (0xAC00...0xD7A3).contains(u.value)
                 || (0xF900...0xFAFF).contains(u.value) || (0xFF00...0xFF60).contains(u.value) ? 2 : 1)
        }
    }

    // Item 11
    func testDateWrittenAsTextIsKeptAndPandocHeaderFooterFillTheTitleLine() throws {
        let page = try man("---\ndate: January 2015\nfooter: tool 1.0\nheader: Tool Manual\n---\n\n# NAME\n\ntool - does things\n", name: "tool.1.md")
        XCTAssertTrue(page.roff.hasPrefix(#".TH "TOOL" "1" "January 2015" "tool 1.0" "Tool Manual""#), page.roff)
        XCTAssertFalse(page.stderr.contains("has no day"), page.stderr)
        let lines = try shown(page.page).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        // groff's header centres the manual; the footer shows the source and the date as written.
        XCTAssertTrue(lines.first?.contains("Tool Manual") ?? false, lines.joined(separator: "\n"))
        let footer = try XCTUnwrap(lines.last)
        XCTAssertTrue(footer.hasPrefix("tool 1.0") && footer.contains("January 2015"), footer)
        // -W warning: mandoc only notes that it prints the date verbatim, as go-md2man's pages get.
        let (_, lint) = try runTool("mandoc", ["-T", "lint", "-W", "warning", page.page.path])
        XCTAssertEqual(lint.components(separatedBy: "\n").filter { !$0.isEmpty && !$0.contains("cannot parse date, using it verbatim: TH January 2015") }, [], lint)
    }

    // Item 12
    func testLongPlusPercentAndCJKFragmentURLsBreakWithoutGroffWarnings() throws {
        let query = "https://example.com/search?q=" + ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron"].joined(separator: "+")
        let percent = "https://ja.wikipedia.org/wiki/" + String(repeating: "%E6%97%A5%E6%9C%AC%E8%AA%9E", count: 5)
        let cjk = "https://example.org/docs#" + String(repeating: "日本語の文法と語彙の一覧", count: 4)
        let page = try man("# u 1\n\nSee \(query) for more.\n\nAnd [the page](\(percent)) here.\n\nAlso [the docs](\(cjk)) ok.\n", name: "u.md")
        let (status, warnings) = try runTool("groff", ["-man", "-Tutf8", "-ww", "-z", page.page.path])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(warnings, "", "groff: \(warnings)")
        let lines = try shown(page.page)
        for l in lines { XCTAssertLessThanOrEqual(Self.columns(l), 80, l) }
        // Broken at break points only: joined again, every URL is whole (no hyphen put in).
        let joined = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined()
        for url in [query, percent, cjk] { XCTAssertTrue(joined.contains(url), "\(url) not whole in:\n\(lines.joined(separator: "\n"))") }
        try lintClean(page.page)
    }

    // Item 13
    func testLongFileNameDoesNotGarbleTheHeaderLine() throws {
        let page = try man("Some text.\n", name: "getting-started-with-the-kubernetes-cluster-api-provider.md")
        let h = try header(page.page)
        XCTAssertLessThanOrEqual(h.count, 80, h)
        let words = h.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        // `NAME(1)   General Commands Manual   NAME(1)`, the two names apart and alike.
        XCTAssertEqual(words.first, words.last, h)
        XCTAssertTrue(try XCTUnwrap(words.first).hasPrefix("GETTING-STARTED"), h)
        XCTAssertTrue(try XCTUnwrap(words.first).hasSuffix("(1)"), h)
        XCTAssertTrue(h.contains("General Commands Manual"), h)
        // The whole name is still on the page.
        XCTAssertTrue(try shown(page.page).contains { $0.contains("getting-started-with-the-kubernetes-cluster-api-provider") })
        try lintClean(page.page)
    }

    // Item 15
    func testTitleWithQuoteBackslashAndNonASCIIIsStyleClean() throws {
        let page = try man("---\ntitle: \"\u{00DC}ber \\\"x\\\" \\\\ \u{00E9}t\u{00E9}\"\n---\n\nText.\n", name: "n.note")
        // Plain mandoc -T lint (style notes included) has nothing to say.
        let (_, lint) = try runTool("mandoc", ["-T", "lint", page.page.path])
        XCTAssertEqual(lint, "", page.roff)
        let h = try header(page.page)
        XCTAssertTrue(h.hasPrefix("\u{00DC}BER \"X\" \\ \u{00C9}T\u{00C9}("), h)
        // And the project's own man page: no source line longer than 80 bytes, nothing from lint.
        let own = TestPaths.root.appendingPathComponent("man/notepress.1")
        let (_, ownLint) = try runTool("mandoc", ["-T", "lint", own.path])
        XCTAssertEqual(ownLint, "")
        let r = try NotepressBinary.run(["convert", TestPaths.root.appendingPathComponent("man/notepress.1.md").path, "-t", "man"])
        XCTAssertEqual(r.stdoutText, try String(contentsOf: own, encoding: .utf8), "man/notepress.1 is out of date")
    }

    // Item 9
    func testGoMd2manDefinitionSecondParagraphIsNotACodeBlock() throws {
        let page = try man("# NAME\n\nt - x\n\n# OPTIONS\n\n**-in=**_file_\n:   Path to the **input** file.\n\n    Defaults to *stdin*.\n\n        t -in=x.md\n\n**-out=**_file_\n:   Path to output.\n", name: "t.1.md")
        XCTAssertTrue(page.roff.contains("Path to the \\fBinput\\fR file.\n.RS\n.PP\nDefaults to \\fIstdin\\fR.\n"), page.roff)
        // Indented eight columns under `: `, text stays code (inside the definition).
        XCTAssertTrue(page.roff.contains(".EX\nt \\-in=x.md\n.EE"), page.roff)
        let lines = try shown(page.page)
        let def = try XCTUnwrap(lines.first { $0.contains("Path to the input file.") })
        let more = try XCTUnwrap(lines.first { $0.contains("Defaults to stdin.") })
        // groff: the second paragraph stands under the first, as a paragraph of the definition.
        XCTAssertEqual(def.prefix { $0 == " " }.count, more.prefix { $0 == " " }.count, lines.joined(separator: "\n"))
        let (_, lex) = try runTool("lexgrog", [page.page.path])
        XCTAssertTrue(lex.contains("\"t - x\""), lex)
        try lintClean(page.page)
    }
}
