import Foundation
import NotepressAST
import XCTest
import NotepressTestSupport

/// Issue 13 item 4: one URL safety rule (``URLSafety``) for every writer. Without `--unsafe` a
/// `javascript:`, `vbscript:`, `file:` or non-image `data:` destination is live in no format: the
/// text stays, the target goes. Checked through the binary, format by format.
final class URLSafetyTests: XCTestCase {
    /// libcmark-gfm's `_scan_dangerous_url` prefixes, plus the normalisation URL consumers apply
    /// (leading whitespace and controls, tab/newline inside the scheme, ASCII case).
    func testDangerousDestinations() {
        for u in ["javascript:alert(1)", "JaVaScRiPt:x", "vbscript:x", "FILE:///etc/passwd", "file:///C:/Windows/System32/calc.exe",
                  "data:text/html,x", "DATA:image/svg+xml,x", "data:", " javascript:x", "\u{1}\u{1F}javascript:x",
                  "\tjavascript:x", "java\tscript:alert(1)", "java\nscr\r\nipt:x", "\u{FEFF}javascript:x", "\u{3000}javascript:x",
                  "\u{A0}\u{85}vbscript:x", "jav\u{AD}ascript:x", "java\u{200B}script:x", "data:text/html;base64,PHNjcmlwdD4=",
                  "\u{7F}\u{9B}file:x", "java\u{1}script:x", "jav\u{7F}ascript:x", "vb\u{85}script:x",
                  // The image exception needs the prefix as written (cmark-gfm tests it raw): a
                  // skipped scalar inside it makes an ordinary, dangerous data: URL (fuzzer find).
                  "data:image/pn\u{202D}g;base64,AA", "data:ima\tge/png,x", "data:image/\u{200B}gif,x"] {
            XCTAssertTrue(URLSafety.isDangerous(u), u.debugDescription)
            XCTAssertEqual(URLSafety.destination(u, unsafe: false), "", u.debugDescription)
            XCTAssertEqual(URLSafety.destination(u, unsafe: true), u, u.debugDescription)
        }
        for u in ["data:image/png;base64,AA", "DATA:IMAGE/GIF;x", "data:image/jpeg,x", "data:image/webp,x", "  data:image/png,x",
                  "https://x.org/java", "jav", "", "javascript", "javascrİpt:x", "ｊavascript:x", "%6Aavascript:x",
                  "xjavascript:x", "./javascript:x", "mailto:a@b.org", "/file:x", "#data:x"] {
            XCTAssertFalse(URLSafety.isDangerous(u), u.debugDescription)
            XCTAssertEqual(URLSafety.destination(u, unsafe: false), u, u.debugDescription)
        }
    }

    /// Links and images with dangerous destinations (entity-encoded tab inside one), then an
    /// ordinary https link that must stay live.
    let input = "[run](file:///C:/Windows/System32/calc.exe) [js](javascript:alert(1)) ![pic](javascript:alert(1)) "
        + "[tab](java&#9;script:alert(2)) [vb](VBScript:msgbox) [html](data:text/html,boom) ![dot](data:image/png;base64,AA) "
        + "[ok](https://example.org/)\n"

    func convert(_ format: String, _ extra: [String] = []) throws -> String {
        let dir = try makeTempDir(self)
        let file = dir.appendingPathComponent("links.md")
        try Data(input.utf8).write(to: file)
        let r = try NotepressBinary.run(["convert", "-t", format, "-q", file.path] + extra, environment: ["SOURCE_DATE_EPOCH": "0"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdoutText
    }

    /// The strings no safe output may hold (targets of the dangerous links).
    let dangerous = ["calc.exe", "alert", "msgbox", "boom", "file:", "javascript", "vbscript", "VBScript", "data:text"]

    func assertNoDangerousTarget(_ out: String, _ format: String, file: StaticString = #filePath, line: UInt = #line) {
        for d in dangerous { XCTAssertFalse(out.contains(d), "\(format) holds \(d):\n\(out)", file: file, line: line) }
    }

    func testHTML() throws {
        let out = try convert("html", ["--fragment"])
        XCTAssertEqual(out, "<p><a href=\"\">run</a> <a href=\"\">js</a> <img src=\"\" alt=\"pic\" /> <a href=\"\">tab</a> "
                       + "<a href=\"\">vb</a> <a href=\"\">html</a> <img src=\"data:image/png;base64,AA\" alt=\"dot\" /> "
                       + "<a href=\"https://example.org/\">ok</a></p>\n")
    }

    /// Regression (issue 13): RTF wrote live `HYPERLINK "javascript:…"` fields.
    func testRTFHasNoFieldForADangerousLink() throws {
        let out = try convert("rtf")
        assertNoDangerousTarget(out, "rtf")
        XCTAssertTrue(out.contains("run js pic tab vb html {\\field"), out)
        XCTAssertEqual(out.components(separatedBy: "HYPERLINK").count - 1, 2, "the data:image and https fields only")
        XCTAssertTrue(out.contains("{\\field{\\*\\fldinst{HYPERLINK \"https://example.org/\"}}{\\fldrslt{\\cf3\\ul ok}}}"), out)
        XCTAssertTrue(try convert("rtf", ["--unsafe"]).contains("HYPERLINK \"javascript:alert(1)\""))
    }

    /// Regression (issue 13): TEI wrote `ref[@target="javascript:…"]`.
    func testTEIHasNoTargetForADangerousLink() throws {
        let out = try convert("tei")
        assertNoDangerousTarget(out, "tei")
        XCTAssertTrue(out.contains("<p><ref>run</ref> <ref>js</ref> pic <ref>tab</ref> <ref>vb</ref> <ref>html</ref> "
                                   + "<figure><graphic url=\"data:image/png;base64,AA\"/><figDesc>dot</figDesc></figure> "
                                   + "<ref target=\"https://example.org/\">ok</ref></p>"), out)
        let unsafe = try convert("tei", ["--unsafe"])
        XCTAssertTrue(unsafe.contains("<ref target=\"javascript:alert(1)\">js</ref>"), unsafe)
        XCTAssertTrue(unsafe.contains("<graphic url=\"javascript:alert(1)\"/>"), unsafe)
    }

    /// Regression (issue 13): man wrote `.UR javascript:…`.
    func testManHasNoURForADangerousLink() throws {
        let out = try convert("man")
        assertNoDangerousTarget(out, "man")
        XCTAssertTrue(out.contains("\nrun js pic tab vb html dot <data:image/png;base64,AA>\n.UR https://example.\\:org/\\:\nok\n.UE\n"), out)
        XCTAssertEqual(out.components(separatedBy: ".UR").count - 1, 1, out)
        XCTAssertTrue(try convert("man", ["--unsafe"]).contains(".UR javascript:alert(1)"))
    }

    /// Regression (issue 13): ANSI wrote an OSC 8 link to `javascript:…`. With hyperlinks on, only
    /// the https and data:image links get OSC 8; with them off no dangerous URL is printed.
    func testANSIHasNoOSC8AndNoURLForADangerousLink() throws {
        let linked = try convert("ansi", ["--color", "always", "--hyperlinks", "always", "--width", "400"])
        assertNoDangerousTarget(linked, "ansi")
        let opens = linked.components(separatedBy: "\u{1B}]8;;").count - 1
        XCTAssertEqual(opens, 4, "open and close of data:image and https only:\n\(linked)")
        XCTAssertTrue(linked.contains("\u{1B}]8;;https://example.org/\u{1B}\\"), linked)
        let plain = try convert("ansi", ["--color", "never", "--width", "400"])
        XCTAssertTrue(plain.hasSuffix("run js pic tab vb html dot (data:image/png;base64,AA) ok (https://example.org/)\n"), plain)
        assertNoDangerousTarget(plain, "ansi")
        XCTAssertTrue(try convert("ansi", ["--color", "never", "--width", "400", "--unsafe"]).contains("js (javascript:alert(1))"))
    }
}
