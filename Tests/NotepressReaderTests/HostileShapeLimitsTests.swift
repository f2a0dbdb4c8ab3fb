import Foundation
import XCTest
import NotepressTestSupport

/// Issue 30 item 6 and the resource bounds: shapes libcmark-gfm 0.29.0.gfm.6 parses in more than
/// linear time or memory, or whose output outgrows the input, are refused before parsing with
/// the file, line and column, the bound and `--no-input-limits` (InputLimits). Their cost at 1, 2
/// and 4 MB is in `make bench` ("hostile inputs: libcmark-gfm's shapes"), not timed here.
final class HostileShapeLimitsTests: XCTestCase {
    static func table(columns: Int, bodyRows: [String]) -> String {
        "|" + String(repeating: "a|", count: columns) + "\n|" + String(repeating: "-|", count: columns) + "\n"
            + bodyRows.map { $0 + "\n" }.joined()
    }

    /// Converts `text` as x.md to HTML (fragment) through the real binary.
    func convert(_ text: String, _ extra: [String] = []) throws -> NotepressBinary.Result {
        let dir = try makeTempDir(self)
        let path = dir.appendingPathComponent("x.md").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try NotepressBinary.run(["convert", "-t", "html", "--fragment", path] + extra, currentDirectory: dir)
    }

    func assertRefused(_ r: NotepressBinary.Result, at position: String, saying words: String,
                       file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, 1, r.stderr, file: file, line: line)
        XCTAssertTrue(r.stdout.isEmpty, "nothing written for a refused document", file: file, line: line)
        XCTAssertTrue(r.stderr.contains("x.md:\(position): error: "), r.stderr, file: file, line: line)
        XCTAssertTrue(r.stderr.contains(words) && r.stderr.contains("--no-input-limits lifts the limit"), r.stderr,
                      file: file, line: line)
    }

    /// Issue 44 item 10: libcmark-gfm 0.29's search for an emphasis opener is quadratic for
    /// `*t … _t*_ …` (a match removes the delimiter its bound for later searches points at): the
    /// issue's 160 KB took 4.1 s of CPU in every format. Refused before parsing now, at the closer
    /// where upstream's steps, replayed, pass the bound; the strikethrough and mirrored shapes too.
    /// Ordinary emphasis of the same size converts.
    func testQuadraticEmphasisShapeIsRefusedBeforeParsing() throws {
        let n = 20000
        let text = String(repeating: "*t ", count: n) + String(repeating: "_t*_ ", count: n) + "\n"
        XCTAssertEqual(text.utf8.count, 160_001)
        let started = Date()
        let refused = try convert(text)
        XCTAssertLessThan(Date().timeIntervalSince(started), 120, "refused before parsing: far less than a parse (very generous bound)")
        assertRefused(refused, at: "1:62699",
                      saying: "emphasis delimiters (`*`, `_`, `~`) that libcmark-gfm 0.29 would match in more than 10640004 steps (limit 10000000 + 4 per input byte")
        // Every format refuses it, and writes nothing.
        let dir = try makeTempDir(self)
        let path = try writeTestFile(text, "x.md", in: dir).path
        let all = try NotepressBinary.run(["convert", "-t", "html,rtf,ansi,tei,man,json", "-o", dir.appendingPathComponent("out").path, path])
        XCTAssertEqual(all.status, 1, all.stderr)
        XCTAssertTrue(all.stderr.contains("x.md:1:62699: error: emphasis delimiters"), all.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("out").path)
            .filter { !$0.hasPrefix(".") }, [])
        // The strikethrough shape and the mirrored one.
        assertRefused(try convert(String(repeating: "*t ", count: n) + String(repeating: "~t*~ ", count: n) + "\n"), at: "1:62699",
                      saying: "emphasis delimiters")
        assertRefused(try convert(String(repeating: "_t ", count: n) + String(repeating: "*t_* ", count: n) + "\n"), at: "1:62699",
                      saying: "emphasis delimiters")
        // As dense, written as people write: converts.
        let ordinary = try convert(String(repeating: "*t* _t_ **t** ~~t~~ a*b*c snake_case ", count: n) + "\n")
        XCTAssertEqual(ordinary.status, 0, ordinary.stderr)
        XCTAssertEqual(ordinary.stdoutText.components(separatedBy: "<del>").count - 1, n)
        // Lifted: parsed (slowly) as before.
        let lifted = try convert(String(repeating: "*t ", count: n / 4) + String(repeating: "_t*_ ", count: n / 4) + "\n", ["--no-input-limits"])
        XCTAssertEqual(lifted.status, 0, lifted.stderr)
        XCTAssertEqual(lifted.stdoutText.components(separatedBy: "<em>").count - 1, n / 4)
    }

    /// 16 000 columns parsed in 4.1 s, ×4 per doubling: refused at its delimiter row.
    func testTableWiderThanTheColumnLimitIsRefused() throws {
        let text = "Intro\n\n" + Self.table(columns: 257, bodyRows: ["|b|"])
        assertRefused(try convert(text), at: "4:1", saying: "a table of 257 columns (limit 256")
        // At the limit it is a table, as cmark-gfm reads it.
        let ok = try convert(Self.table(columns: 256, bodyRows: [String(repeating: "|c", count: 256) + "|"]))
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(ok.stdoutText.components(separatedBy: "<th>").count - 1, 256)
        // Lifted: the wide table converts.
        let lifted = try convert(text, ["--no-input-limits"])
        XCTAssertEqual(lifted.status, 0, lifted.stderr)
        XCTAssertEqual(lifted.stdoutText.components(separatedBy: "<th>").count - 1, 257)
    }

    /// A 7 KB table of short rows gave 189 MB of RTF: the cells the parser fills in are bounded.
    func testAutocompletedCellsAreBounded() throws {
        // 200 columns: each one-cell row adds 199 empty cells; the 330th row crosses 65 536.
        let text = Self.table(columns: 200, bodyRows: Array(repeating: "|b|", count: 400))
        assertRefused(try convert(text), at: "332:1", saying: "more than 65536 empty cells")
        // Full rows are not autocompleted: the same size of table converts.
        let full = Self.table(columns: 200, bodyRows: Array(repeating: String(repeating: "|b", count: 200) + "|", count: 400))
        XCTAssertEqual(try convert(full).status, 0)
        // A pipe table inside a fenced code block is not a table.
        let fenced = "```\n" + text + "```\n"
        let r = try convert(fenced)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdoutText.hasPrefix("<pre><code>|a|a|"), r.stdoutText.prefix(40).description)
    }

    /// 1 MB of nothing but table cells (a million empty ones at 256 columns) took 1.2–2.4 s in RTF,
    /// ANSI and TEI, linear but past the 1 s budget: the cells of a document are bounded (2^18),
    /// counted over several tables, header rows included.
    func testTableCellsPerDocumentAreBounded() throws {
        // 256 columns: header 256 + 511 full rows = 131 072 cells per table; the second table's
        // header row is line 517 (513 lines of the first, a blank, a paragraph, a blank), its
        // delimiter row 518, and its 512th body row, line 1030, crosses 262 144.
        let rows = Array(repeating: String(repeating: "|c", count: 256) + "|", count: 511)
        let one = Self.table(columns: 256, bodyRows: rows)
        let ok = try convert(one + "\nText\n\n" + one)
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(ok.stdoutText.components(separatedBy: "<td>").count - 1, 2 * 511 * 256)
        let over = one + "\nText\n\n" + Self.table(columns: 256, bodyRows: rows + [rows[0]])
        assertRefused(try convert(over), at: "1030:1", saying: "tables with more than 262144 cells in this document")
        let lifted = try convert(over, ["--no-input-limits"])
        XCTAssertEqual(lifted.status, 0, lifted.stderr)
        XCTAssertEqual(lifted.stdoutText.components(separatedBy: "<td>").count - 1, 1023 * 256)
    }

    /// libcmark-gfm's autolink extension needed 930 MB for a paragraph of 16 000 addresses (its
    /// memory grows with addresses × paragraph length: 1 MB in paragraphs of 1 000 took 572 MB).
    func testEmailAddressesPerParagraphAreBounded() throws {
        let one = String(repeating: "someone@example.com ", count: 101) + "\n"
        assertRefused(try convert("# Mail\n\n" + one), at: "3:2008", saying: "more than 100 e-mail addresses")
        // The same addresses in paragraphs of 100 convert, every one linked.
        let split = (0..<30).map { _ in String(repeating: "someone@example.com ", count: 100) }.joined(separator: "\n\n")
        let ok = try convert(split)
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(ok.stdoutText.components(separatedBy: "href=\"mailto:someone@example.com\"").count - 1, 3000)
    }

    /// A 10 KB destination defined once and used 1 000 times wrote 10 MB of HTML from 14 KB.
    func testReferenceExpansionIsBounded() throws {
        let text = "[a]: http://example.com/" + String(repeating: "u", count: 10_000) + "\n\n"
            + String(repeating: "[a] ", count: 1000) + "\n"
        let r = try convert(text)
        // Refused before parsing, at the definition: libcmark-gfm copies the destination into each
        // use while it parses (a 512 KB destination used 130 000 times, 1 MB of input, took 23 GB
        // and was killed before a check after the parse could run).
        assertRefused(r, at: "1:1", saying: "link reference definitions used in links would repeat about 10020000 bytes")
        // A label written in other case and spacing is the same label.
        let mixed = "[Big  Label]: http://example.com/" + String(repeating: "u", count: 10_000) + "\n\n"
            + String(repeating: "[big label] ", count: 1000) + "\n"
        assertRefused(try convert(mixed), at: "1:1", saying: "link reference definitions used in links would repeat")
        // Used ten times it is an ordinary document.
        let ok = try convert("[a]: http://example.com/" + String(repeating: "u", count: 10_000) + "\n\n"
                                 + String(repeating: "[a] ", count: 10) + "\n")
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(ok.stdoutText.components(separatedBy: "<a href=").count - 1, 10)
    }

    /// One refused note fails alone in a folder: the others are converted, the run exits 1 and
    /// names it, and the next run tries it again (a failed input stays out of date).
    func testRefusedNoteInAFolderFailsAlone() throws {
        let site = try makeSiteFolder(self, [
            "good.md": "# Good\n\nText.\n",
            "wide.md": Self.table(columns: 600, bodyRows: ["|b|"]),
        ])
        let r = try NotepressBinary.run(["convert", site.input, "-o", site.output])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("wide.md:2:1: error: a table of 600 columns"), r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: site.output + "/good.html"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.output + "/wide.html"))
        let lifted = try NotepressBinary.run(["convert", site.input, "-o", site.output, "--no-input-limits"])
        XCTAssertEqual(lifted.status, 0, lifted.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: site.output + "/wide.html"))
    }

    /// `notepress view` reads through the same loader: the same refusal.
    func testViewRefusesToo() throws {
        let dir = try makeTempDir(self)
        let path = dir.appendingPathComponent("x.md").path
        try Data(Self.table(columns: 700, bodyRows: []).utf8).write(to: URL(fileURLWithPath: path))
        let r = try NotepressBinary.run(["view", path], environment: ["PAGER": "cat"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("a table of 700 columns"), r.stderr)
    }
}
