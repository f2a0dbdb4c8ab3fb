import Foundation
import NotepressAST
import XCTest
import NotepressTestSupport

/// Issue 13 item 5: one date path (``CivilDateTime``, proleptic Gregorian, UTC) for every writer.
/// Foundation's Gregorian calendar switches to the Julian one before 1582-10-15, so `created:
/// 1500-03-01` came out as 1500-02-20 in man, TEI, JSON, RTF and ANSI.
final class CivilDateTests: XCTestCase {
    /// Known values (Python's `datetime.date.toordinal() - 719163`, proleptic Gregorian).
    func testKnownDays() {
        let known: [(Int, Int, Int, Int)] = [
            (1970, 1, 1, 0), (1, 1, 1, -719_162), (9999, 12, 31, 2_932_896), (1500, 3, 1, -171_605),
            (1582, 10, 10, -141_432), (1900, 2, 28, -25_509), (2000, 2, 29, 11_016), (1600, 2, 29, -135_081),
        ]
        for (y, m, d, days) in known {
            XCTAssertEqual(CivilDateTime.days(year: y, month: m, day: d), days, "\(y)-\(m)-\(d)")
            let c = CivilDateTime.civil(fromDays: days)
            XCTAssertEqual([c.year, c.month, c.day], [y, m, d], "\(days)")
        }
        XCTAssertEqual(CivilDateTime(Date(timeIntervalSince1970: -14_826_672_000)).iso8601, "1500-03-01T00:00:00Z")
        XCTAssertEqual(CivilDateTime(Date(timeIntervalSince1970: -62_135_596_800)).iso8601, "0001-01-01T00:00:00Z")
        XCTAssertEqual(CivilDateTime(Date(timeIntervalSince1970: 253_402_300_799)).iso8601, "9999-12-31T23:59:59Z")
        XCTAssertEqual(CivilDateTime(Date(timeIntervalSince1970: -12_219_724_800)).isoDate, "1582-10-10")
        XCTAssertEqual(CivilDateTime(Date(timeIntervalSince1970: 951_782_400)).isoDate, "2000-02-29")
        XCTAssertEqual(CivilDateTime(Date(timeIntervalSince1970: -0.5)).iso8601, "1969-12-31T23:59:59.5Z")
        XCTAssertEqual(CivilDateTime(Date(timeIntervalSince1970: 1_704_190_830.25)).iso8601, "2024-01-02T10:20:30.25Z")
        XCTAssertEqual(CivilDateTime(Date(timeIntervalSince1970: 1_704_190_830.9996)).iso8601, "2024-01-02T10:20:31Z", "rounded to ms")
        XCTAssertEqual(CivilDateTime(year: -1, month: 12, day: 31).isoDate, "-0001-12-31")
        XCTAssertEqual(CivilDateTime(year: 10_000, month: 1, day: 1).isoDate, "+10000-01-01")
    }

    /// Every day of 0001-01-01 … 9999-12-31 against an independent count: a day-by-day walk with
    /// the leap rule written out here, both directions, and the instant of noon round-tripping.
    func testEveryDayFrom0001To9999AgainstADayByDayWalk() {
        func leap(_ y: Int) -> Bool { y % 400 == 0 || (y % 4 == 0 && y % 100 != 0) }
        let lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        var days = -719_162  // 0001-01-01
        var mismatches = 0
        for y in 1...9999 {
            for m in 1...12 {
                let n = m == 2 && leap(y) ? 29 : lengths[m - 1]
                for d in 1...n {
                    if CivilDateTime.days(year: y, month: m, day: d) != days { mismatches += 1 }
                    let c = CivilDateTime.civil(fromDays: days)
                    if c.year != y || c.month != m || c.day != d { mismatches += 1 }
                    days += 1
                }
            }
            // One instant a year through Date and back (noon plus 0.125 s).
            let noon = CivilDateTime(year: y, month: 7, day: 1, hour: 12, minute: 0, second: 0, millisecond: 125)
            if CivilDateTime(noon.date) != noon { mismatches += 1 }
        }
        XCTAssertEqual(days, 2_932_897, "10 000-01-01 follows 9999-12-31")
        XCTAssertEqual(mismatches, 0)
    }

    func testParse() {
        func iso(_ s: String) -> String? { CivilDateTime.parse(s).map { CivilDateTime($0).iso8601 } }
        XCTAssertEqual(iso("1500-03-01"), "1500-03-01T00:00:00Z")
        XCTAssertEqual(iso("1582-10-10"), "1582-10-10T00:00:00Z", "exists in the proleptic Gregorian calendar")
        XCTAssertEqual(iso("0001-01-01"), "0001-01-01T00:00:00Z")
        XCTAssertEqual(iso("9999-12-31T23:59:59Z"), "9999-12-31T23:59:59Z")
        XCTAssertEqual(iso("2000-02-29"), "2000-02-29T00:00:00Z")
        XCTAssertEqual(iso("2024-01-02T10:20:30.25Z"), "2024-01-02T10:20:30.25Z")
        XCTAssertEqual(iso("2024-01-02 10:20:30.125 +01:00"), "2024-01-02T09:20:30.125Z")
        XCTAssertEqual(iso("2024-01-02T00:30-0130"), "2024-01-02T02:00:00Z")
        for bad in ["1900-02-29", "2023-02-29", "2024-02-30", "2024-04-31", "2024-13-01", "2024-00-10", "2024-01-00",
                    "2024-01-02T24:00", "2024-01-02T10:60", "2024-01-02T10:20:60", "2024-01-02T10:20:30.", "24-01-02",
                    "2024-1-2", "2024-01-02T10:20Zx", "2024-01-02T10:20+24:00", "yesterday"] {
            XCTAssertNil(CivilDateTime.parse(bad), bad)
        }
    }

    // MARK: Through the binary, every writer

    func convert(_ text: String, _ format: String, name: String = "d.md", extra: [String] = []) throws -> NotepressBinary.Result {
        let dir = try makeTempDir(self)
        let file = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return try NotepressBinary.run(["convert", "-q", "-t", format, file.path] + extra)
    }

    /// Regression (issue 13): `created: 1500-03-01` showed as 1500-02-20 outside HTML.
    func testThe1500DateInEveryWriter() throws {
        let text = "---\ntitle: Old\ncreated: 1500-03-01\n---\n# Old\n\nBody.\n"
        let expected: [(String, [String])] = [
            ("html", ["<time class=\"date-badge\" datetime=\"1500-03-01T00:00:00Z\"><span class=\"day\">1</span> <span class=\"month\">Mar</span> <span class=\"year\">1500</span></time>"]),
            ("rtf", ["{\\creatim\\yr1500\\mo3\\dy1\\hr0\\min0}", "\\b\\cf1 1\\par", "\\cf4 Mar\\par", "\\cf4 1 March 1500}"]),
            ("ansi", ["\n1500-03-01\n"]),
            ("tei", ["<date when=\"1500-03-01T00:00:00Z\">1 March 1500</date>"]),
            ("man", [".TH \"OLD\" \"1\" \"1500-03-01\""]),
            ("json", ["\"created\": \"1500-03-01T00:00:00Z\""]),
        ]
        for (format, needles) in expected {
            let r = try convert(text, format, extra: format == "ansi" ? ["--color", "never"] : [])
            XCTAssertEqual(r.status, 0, "\(format): \(r.stderr)")
            for n in needles { XCTAssertTrue(r.stdoutText.contains(n), "\(format) lacks \(n):\n\(r.stdoutText)") }
            XCTAssertFalse(r.stdoutText.contains("1500-02-20") || r.stdoutText.contains("20 February"), format)
        }
    }

    /// Regression (issue 13): the JSON dump dropped fractional seconds (ISO8601DateFormatter).
    func testFractionalSecondsAreKept() throws {
        let text = "---\ncreated: 2024-01-02T10:20:30.25Z\n---\nx\n"
        let json = try convert(text, "json")
        XCTAssertTrue(json.stdoutText.contains("\"created\": \"2024-01-02T10:20:30.25Z\""), json.stdoutText)
        let tei = try convert(text, "tei")
        XCTAssertTrue(tei.stdoutText.contains("<date when=\"2024-01-02T10:20:30.25Z\">2 January 2024</date>"), tei.stdoutText)
    }

    /// Regression (issue 13): a `.md` file with `created: 2024-02-30` silently took the file's
    /// date; `.note` reported an error. Both report it at the value's line and column and exit 1;
    /// 1900-02-29 (1900 is no leap year) too.
    func testImpossibleDateIsTheSameErrorInMarkdownAndNotes() throws {
        for name in ["bad.md", "bad.note"] {
            for value in ["2024-02-30", "1900-02-29"] {
                let r = try convert("---\ntitle: T\ncreated: \(value)\n---\nBody\n", "html", name: name)
                XCTAssertEqual(r.status, 1, "\(name) \(value)")
                XCTAssertEqual(r.stdoutText, "")
                XCTAssertTrue(r.stderr.contains("/\(name):3:10: error: `created` is not an ISO 8601 date: \"\(value)\""),
                              "\(name): \(r.stderr)")
            }
            let ok = try convert("---\ncreated: 2000-02-29\n---\nBody\n", "json", name: name)
            XCTAssertEqual(ok.status, 0, ok.stderr)
            XCTAssertTrue(ok.stdoutText.contains("\"created\": \"2000-02-29T00:00:00Z\""), ok.stdoutText)
        }
    }
}
