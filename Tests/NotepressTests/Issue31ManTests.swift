import Foundation
import XCTest

/// Issue 31, man items: every man page reads as its author meant, through the real binary and
/// the real readers (`man -l`, `lexgrog`, `mandoc -T lint`).
final class Issue31ManTests: XCTestCase {
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
        let (status, out) = try runTool("sh", ["-c", "MANWIDTH=80 MAN_KEEP_FORMATTING= man -l '\(page.path)' 2>&1 | col -b | head -1"])
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
}
