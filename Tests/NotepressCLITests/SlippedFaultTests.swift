import Foundation
import XCTest
import NotepressTestSupport
@testable import Notepress
@testable import NotepressSite
import NotepressReaders
import NotepressTEI

/// Issue 22: the five faults that a planted-fault run showed no test would catch, and the three
/// areas that only one assertion guarded. Each test runs the real `notepress` binary where a user
/// would and asserts literal bytes a user sees.
final class SlippedFaultTests: XCTestCase {
    // MARK: Helpers

    /// `files` (relative path → text) written into a fresh `in` folder; returns the folder's
    /// parent (outputs go beside `in`).
    func folder(_ files: [String: String]) throws -> URL {
        URL(fileURLWithPath: try makeSiteFolder(self, files).dir)
    }

    func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    /// Sets a file's modification time to `seconds` after 1970 (so a re-run cannot miss a change
    /// because the file system's clock did not move).
    func setModified(_ url: URL, _ seconds: TimeInterval) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: seconds)], ofItemAtPath: url.path)
    }

    // MARK: 1. Safe mode and image sources

    /// Fault: images skipped the dangerous-URL check, so `![x](javascript:alert(1))` became
    /// `<img src="javascript:alert(1)">`. cmark-gfm's safe mode empties the `src` exactly as it
    /// empties a link's `href`; `data:image/png` stays.
    func testSafeModeEmptiesDangerousImageSources() throws {
        let md = "![x](javascript:alert(1)) ![y](VBScript:x) ![z](data:text/html,x) ![f](file:///etc/passwd) ![ok](data:image/png;base64,AA)\n"
        let safe = try NotepressBinary.run(["convert", "--fragment", "-f", "gfm", "-"], stdin: Data(md.utf8))
        XCTAssertEqual(safe.status, 0, safe.stderr)
        XCTAssertEqual(safe.stdoutText, "<p><img src=\"\" alt=\"x\" /> <img src=\"\" alt=\"y\" /> <img src=\"\" alt=\"z\" /> "
                       + "<img src=\"\" alt=\"f\" /> <img src=\"data:image/png;base64,AA\" alt=\"ok\" /></p>\n")
        // The page of a file (the streamed single-file path) and a note both go through the same check.
        let dir = try folder(["img.md": md])
        let page = try NotepressBinary.run(["convert", dir.appendingPathComponent("in/img.md").path, "-t", "html"])
        XCTAssertEqual(page.status, 0, page.stderr)
        XCTAssertTrue(page.stdoutText.contains("<p dir=\"auto\"><img src=\"\" alt=\"x\" /> <img src=\"\" alt=\"y\" />"), page.stdoutText)
        XCTAssertFalse(page.stdoutText.contains("javascript:"))
        XCTAssertFalse(page.stdoutText.contains("file:///etc"))
        let unsafe = try NotepressBinary.run(["convert", "--fragment", "--unsafe", "-f", "gfm", "-"], stdin: Data(md.utf8))
        XCTAssertTrue(unsafe.stdoutText.hasPrefix("<p><img src=\"javascript:alert(1)\" alt=\"x\" /> <img src=\"VBScript:x\" alt=\"y\" />"),
                      unsafe.stdoutText)
    }

    // MARK: 2. Re-runs: tampered outputs and edited inputs of the same size

    /// Fault: an output changed to other bytes of the same size was taken as intact, and the
    /// re-run reported it "skipped (unchanged)". Only an output whose size *and* nanosecond time
    /// are as recorded may be trusted without hashing.
    func testSameSizeTamperedOutputIsRewrittenOnRerun() throws {
        let dir = try folder(["a.md": "# Alpha\n\nSome text.\n", "b.md": "# Beta\n"])
        let input = dir.appendingPathComponent("in").path, out = dir.appendingPathComponent("out")
        let first = try NotepressBinary.run(["convert", input, "-o", out.path, "-t", "html,man"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let page = out.appendingPathComponent("a.html"), man = out.appendingPathComponent("a.man")
        let original = try Data(contentsOf: page), originalMan = try Data(contentsOf: man)
        // Same length, other bytes: "Alpha" → "Omega" wherever it stands.
        let tampered = try text(page).replacingOccurrences(of: "Alpha", with: "Omega")
        XCTAssertNotEqual(Data(tampered.utf8), original)
        XCTAssertEqual(tampered.utf8.count, original.count)
        try Data(tampered.utf8).write(to: page)
        try setModified(page, 1_600_000_000)

        let again = try NotepressBinary.run(["convert", "--verbose", input, "-o", out.path, "-t", "html,man"])
        XCTAssertEqual(again.status, 0, again.stderr)
        let lines = again.stderr.split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.hasPrefix("converted ") && $0.hasSuffix("/in/a.md") }, again.stderr)
        XCTAssertTrue(lines.contains { $0.hasPrefix("skipped ") && $0.hasSuffix("/in/b.md") }, again.stderr)
        XCTAssertTrue(again.stderr.contains("converted 1, skipped 1 (unchanged)"), again.stderr)
        XCTAssertEqual(try Data(contentsOf: page), original, "the tampered page is written again")
        XCTAssertEqual(try Data(contentsOf: man), originalMan)
    }

    /// Fault: an input was skipped when only its size matched the manifest (its time ignored), so
    /// an edit that kept the length was never converted. `make -q` in CLIBatchTests was the only
    /// other check.
    func testSameSizeEditedInputIsConvertedOnRerun() throws {
        let dir = try folder(["a.md": "# Alpha\n", "b.md": "# Beta\n"])
        let input = dir.appendingPathComponent("in"), out = dir.appendingPathComponent("out")
        let first = try NotepressBinary.run(["convert", input.path, "-o", out.path, "-t", "html", "--fragment"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(try text(out.appendingPathComponent("a.html")), "<h1>Alpha</h1>\n")
        let a = input.appendingPathComponent("a.md")
        try Data("# Omega\n".utf8).write(to: a)  // same size as "# Alpha\n"
        try setModified(a, 1_600_000_000)
        let again = try NotepressBinary.run(["convert", input.path, "-o", out.path, "-t", "html", "--fragment"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("converted 1, skipped 1 (unchanged)"), again.stderr)
        XCTAssertEqual(try text(out.appendingPathComponent("a.html")), "<h1>Omega</h1>\n")
    }

    /// The same two checks on ``BatchConverter`` itself: with the manifest of a first run, an
    /// output of the same size but another time and other bytes does not match, and an input of
    /// the same size but another time is converted again.
    func testBatchConverterComparesTimesNotOnlySizes() throws {
        let root = try batchTempDir()
        let input = root + "/in", out = root + "/out"
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        try Data("# Alpha\n".utf8).write(to: URL(fileURLWithPath: input + "/a.md"))
        var options = ConversionOptions()
        options.fragment = true
        let loader = DocumentLoader(sourceDateEpoch: Date(timeIntervalSince1970: 1_700_000_000))
        let writers = [WriterRegistry.writer(named: "html")!]
        let b = BatchConverter(loader: loader, writers: writers, options: options, outputRoot: out, layout: .flat, jobs: 1,
                               configuration: BuildConfiguration(options: options, loader: loader, writers: ["html"],
                                                                 layout: .flat, version: "test"))
        let files = InputScanner.scan([input], format: nil).files
        let first = b.run(files)
        XCTAssertEqual(first.map(\.status), [.converted])
        let manifest = b.manifest(after: first, previous: Manifest(), keepUnseen: true)
        let recorded = try XCTUnwrap(manifest.entries["a.md"]?.outputs.first)
        XCTAssertEqual(recorded.size, 15, "<h1>Alpha</h1>\\n")
        XCTAssertTrue(b.outputsMatch([recorded]))

        try Data("<h1>Omega</h1>\n".utf8).write(to: URL(fileURLWithPath: out + "/a.html"))
        try setModified(URL(fileURLWithPath: out + "/a.html"), 1_600_000_000)
        XCTAssertFalse(b.outputsMatch([recorded]), "same size, other time and bytes: not the recorded output")
        let second = b.run(files, previous: manifest)
        XCTAssertEqual(second.map(\.status), [.converted])
        XCTAssertEqual(try String(contentsOfFile: out + "/a.html", encoding: .utf8), "<h1>Alpha</h1>\n")

        let m2 = b.manifest(after: second, previous: manifest, keepUnseen: true)
        try Data("# Omega\n".utf8).write(to: URL(fileURLWithPath: input + "/a.md"))
        try setModified(URL(fileURLWithPath: input + "/a.md"), 1_600_000_000)
        let third = b.run(files, previous: m2)
        XCTAssertEqual(third.map(\.status), [.converted])
        XCTAssertEqual(try String(contentsOfFile: out + "/a.html", encoding: .utf8), "<h1>Omega</h1>\n")
    }

    // MARK: 3. Fractional seconds of `created`

    /// Fault: the fraction of `created: …10:20:30.25Z` was dropped. Two notes a quarter second
    /// apart: the index lists the later (B) first; without the fraction they tie and the title
    /// order (A first) would decide. The manifest records the exact time.
    func testFractionalSecondsOfCreatedAreKept() throws {
        let dir = try folder([
            "a.note": "---\ntitle: A\ncreated: 2024-01-05T10:20:30Z\n---\na\n",
            "b.note": "---\ntitle: B\ncreated: 2024-01-05T10:20:30.25Z\n---\nb\n",
        ])
        let out = dir.appendingPathComponent("out")
        let r = try NotepressBinary.run(["convert", dir.appendingPathComponent("in").path, "-o", out.path, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        // The list itself (the sidebar above it is in title order).
        let page = try text(out.appendingPathComponent("index.html"))
        let index = String(page[try XCTUnwrap(page.range(of: "<ol class=\"index-list\""), page).lowerBound...])
        let b = try XCTUnwrap(index.range(of: "href=\"b.html\">B</a>"), index)
        let a = try XCTUnwrap(index.range(of: "href=\"a.html\">A</a>"), index)
        XCTAssertLessThan(b.lowerBound, a.lowerBound, "newest first: B (10:20:30.25) before A (10:20:30)")
        let manifest = try text(out.appendingPathComponent(Manifest.fileName))
        XCTAssertTrue(manifest.contains("\t1704450030.25\t=B\t"), manifest)
        XCTAssertTrue(manifest.contains("\t1704450030.0\t=A\t"), manifest)

        // The reader's value, with a zone offset too.
        for (value, seconds) in [("2024-01-05T10:20:30.25Z", 1_704_450_030.25), ("2024-01-05T11:20:30.5+01:00", 1_704_450_030.5),
                                 ("2024-01-05 10:20:30.125", 1_704_450_030.125)] {
            let fm = try FrontMatter.split("---\ncreated: \(value)\n---\n", path: "n.note").frontMatter
            XCTAssertEqual(fm?.created?.timeIntervalSince1970, seconds, value)
        }
    }

    // MARK: 4. 29 February in century years

    /// Fault: `created: 1900-02-29` was accepted (as 1900-03-01): 1900 is not a leap year (a
    /// century year must be divisible by 400, ISO 8601 uses the Gregorian calendar). 2000-02-29 is
    /// valid. The bad file fails with its position; the others still convert.
    func testCreatedFebruary29thOfCenturyYears() throws {
        let dir = try folder([
            "y1900.note": "---\ncreated: 1900-02-29\n---\nx\n",
            "y2100.note": "---\ncreated: 2100-02-29\n---\nx\n",
            "y2000.note": "---\ncreated: 2000-02-29\n---\nx\n",
            "y2400.note": "---\ncreated: 2400-02-29T12:00:00Z\n---\nx\n",
        ])
        let input = dir.appendingPathComponent("in"), out = dir.appendingPathComponent("out")
        let r = try NotepressBinary.run(["convert", input.path, "-o", out.path, "-t", "json"])
        XCTAssertEqual(r.status, 1, r.stderr)
        for bad in ["1900", "2100"] {
            XCTAssertTrue(r.stderr.contains("y\(bad).note:2:10: error: "), r.stderr)
            XCTAssertTrue(r.stderr.contains("\"\(bad)-02-29\""), r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("y\(bad).json").path))
        }
        XCTAssertTrue(r.stderr.contains("converted 2,") && r.stderr.contains("failed 2"), r.stderr)
        XCTAssertTrue(try text(out.appendingPathComponent("y2000.json")).contains("\"created\": \"2000-02-29T00:00:00Z\""))
        XCTAssertTrue(try text(out.appendingPathComponent("y2400.json")).contains("\"created\": \"2400-02-29T12:00:00Z\""))
    }

    /// The same rule for Markdown front matter. Expected to fail until helper h2's branch (issue
    /// 13 item 5) is merged: today a `.md` file whose `created` is not a date silently takes the
    /// file's time (its front matter becomes Markdown text) and exits 0.
    func testCreatedFebruary29th1900InMarkdownIsAnError() throws {
        let dir = try folder(["y1900.md": "---\ncreated: 1900-02-29\n---\nx\n", "y2000.md": "---\ncreated: 2000-02-29\n---\nx\n"])
        let out = dir.appendingPathComponent("out")
        let r = try NotepressBinary.run(["convert", dir.appendingPathComponent("in").path, "-o", out.path, "-t", "json"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("y1900.md:2:10: error: "), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("y1900.json").path))
        XCTAssertTrue(try text(out.appendingPathComponent("y2000.json")).contains("\"created\": \"2000-02-29T00:00:00Z\""))
    }

    // MARK: 5. A theme's scale

    /// Fault: `"scale"` multiplied a theme's sizes but no longer its line heights (no test used
    /// `scale`). Scale 2 over the default theme at Large: body 17 pt / 22 pt becomes 34 / 44 —
    /// in the page's CSS 2.125rem / 2.75rem (16 px rem), in RTF `\fs68` half-points and `\sl880`
    /// twips.
    func testThemeScaleMultipliesSizesAndLineHeights() throws {
        let dir = try folder(["big.json": "{\"inherits\": \"default\", \"scale\": 2}\n", "p.md": "Hello\n"])
        let theme = dir.appendingPathComponent("in/big.json").path, doc = dir.appendingPathComponent("in/p.md").path
        let page = try NotepressBinary.run(["convert", doc, "-t", "html", "--theme", theme])
        XCTAssertEqual(page.status, 0, page.stderr)
        let css = page.stdoutText
        let root = try XCTUnwrap(css.range(of: ":root {"), css)
        let rootBlock = css[root.upperBound...].prefix { $0 != "}" }
        XCTAssertTrue(rootBlock.contains("--np-body-size: 2.125rem; --np-body-line: 2.75rem;"), String(rootBlock))
        XCTAssertTrue(rootBlock.contains("--np-caption2-size: 1.375rem; --np-caption2-line: 1.625rem;"), String(rootBlock))
        // AX5 body: 53 pt × 2 = 106 pt; line 62 pt (HIG, AX5) × 2 = 124 pt.
        XCTAssertTrue(css.contains("html[data-size-category=\"accessibilityExtraExtraExtraLarge\"], :root:has(#size-ax5:checked) {\n"), css)
        let ax5 = try XCTUnwrap(css.range(of: ":root:has(#size-ax5:checked) {\n"))
        XCTAssertTrue(css[ax5.upperBound...].prefix { $0 != "}" }.contains("--np-body-size: 6.625rem; --np-body-line: 7.75rem;"))

        let rtf = try NotepressBinary.run(["convert", doc, "-t", "rtf", "--theme", theme])
        XCTAssertEqual(rtf.status, 0, rtf.stderr)
        XCTAssertTrue(rtf.stdoutText.contains("\\pard\\plain\\ltrpar\\sa120\\sl880\\slmult0\\dbch\\af3\\rtlch\\af0\\afs68\\ltrch\\f0\\fs68\\cf1 Hello\\par"),
                      rtf.stdoutText)
        let plain = try NotepressBinary.run(["convert", doc, "-t", "rtf"])
        XCTAssertTrue(plain.stdoutText.contains("\\pard\\plain\\ltrpar\\sa120\\sl440\\slmult0\\dbch\\af3\\rtlch\\af0\\afs34\\ltrch\\f0\\fs34\\cf1 Hello\\par"),
                      plain.stdoutText)
    }

    // MARK: Single-assertion areas

    /// TEI attribute values are escaped by the serializer (XML 1.0 §3.1 AttValue, §3.3.3
    /// normalisation), checked on the bytes rather than only through the writer's validation.
    func testTEIAttributeValuesAreEscaped() throws {
        let md = "~~~ c&\"<>x rest\ncode\n~~~\n\n[l](http://x.org/?a=1&b=2 \"t\") ![i](p.png?a&b)\n"
        let r = try NotepressBinary.run(["convert", "-t", "tei", "--no-validate", "-f", "gfm", "-"], stdin: Data(md.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdoutText.contains("""
                <body>
                  <ab type="codeblock"><code lang="c&amp;&quot;&lt;&gt;x">code</code></ab>
                  <p><ref target="http://x.org/?a=1&amp;b=2">l</ref> <figure><graphic url="p.png?a&amp;b"/><figDesc>i</figDesc></figure></p>
                </body>
            """), r.stdoutText)
        // Characters no Markdown source can put into an attribute: white space survives
        // normalisation as references; characters XML forbids are dropped.
        XCTAssertEqual(XMLEscaping.attribute("a\tb\nc\rd\"e'f<g>h&i\u{1}j\u{FFFE}k"), "a&#x9;b&#xA;c&#xD;d&quot;e'f&lt;g&gt;h&amp;ijk")
        XCTAssertEqual(XMLEscaping.text("a\tb\nc\rd\"e<f>g&h\u{1}i"), "a\tb\nc&#xD;d\"e&lt;f&gt;g&amp;hi")
    }

    /// Man pages number footnotes by first reference (the reader's numbering, as cmark-gfm),
    /// repeat the number for a second reference, and list the notes in that order under NOTES;
    /// an unreferenced definition is dropped (as cmark-gfm does). Rendered by mandoc as a reader
    /// would see it.
    func testManFootnotesAreNumberedByFirstReference() throws {
        let md = "---\ntitle: notes\nsection: 7\n---\nAlpha[^z] beta[^a] gamma[^z].\n\n[^a]: Note A.\n[^z]: Note Z.\n[^u]: Unused.\n"
        let r = try NotepressBinary.run(["convert", "-t", "man", "-f", "gfm", "-"], stdin: Data(md.utf8), environment: ["SOURCE_DATE_EPOCH": "0"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdoutText, """
            .TH "NOTES" "7" "1970-01-01"
            .PP
            Alpha[1] beta[2] gamma[1].
            .SH NOTES
            .IP "[1]" 5
            Note Z.
            .IP "[2]" 5
            Note A.

            """)
        let page = try makeTempDir(self).appendingPathComponent("notes.7")
        try r.stdout.write(to: page)
        let shown = try runTool("mandoc", ["-T", "ascii", page.path])
        XCTAssertEqual(shown.status, 0, shown.output)
        let lines = shown.output.replacingOccurrences(of: "\u{8}.", with: "", options: .regularExpression)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(lines.filter { $0.hasPrefix("[") || $0.hasPrefix("Alpha") },
                       ["Alpha[1] beta[2] gamma[1].", "[1]  Note Z.", "[2]  Note A."], shown.output)
    }
}
