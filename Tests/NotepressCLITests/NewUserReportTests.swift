import Foundation
import XCTest
import NotepressTestSupport

/// Regressions from a new user's try-out (18:35 UTC, 2026-11-30), each through the real binary.
final class NewUserReportTests: XCTestCase {
    func write(_ text: String, _ name: String, in dir: URL) throws -> String {
        try writeTestFile(text, name, in: dir).path
    }

    /// Was: `-o page.8` wrote `.TH "…" "1"` and warned "no manual section given; using 1".
    func testManSectionComesFromTheOutputExtensionUnlessTheDocumentNamesOne() throws {
        let dir = try makeTempDir(self)
        let plain = try write("# demo\n\nText.\n", "d.md", in: dir)
        let named = try write("# demo(5) -- a file format\n\nText.\n", "e.md", in: dir)
        for (input, out, th) in [(plain, "d.8", #".TH "D" "8" "#), (plain, "d.3p", #".TH "D" "3p" "#),
                                 (named, "e.8", #".TH "DEMO" "5" "#)] {
            let path = dir.appendingPathComponent(out).path
            let r = try NotepressBinary.run(["convert", input, "-o", path, "--verbose"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(try String(contentsOfFile: path, encoding: .utf8).hasPrefix(th), out)
            XCTAssertFalse(r.stderr.contains("no manual section"), r.stderr)
        }
        let stdout = try NotepressBinary.run(["convert", plain, "-t", "man", "--verbose"])
        XCTAssertTrue(stdout.stdoutText.hasPrefix(#".TH "D" "1" "#))
        XCTAssertTrue(stdout.stderr.contains("warning: man: no manual section given; using 1"), stdout.stderr)
    }

    /// Was: `-o out.txt` silently wrote HTML.
    func testAnOutputExtensionThatNamesNoFormatIsAWarning() throws {
        let dir = try makeTempDir(self)
        let input = try write("Text.\n", "t.md", in: dir)
        let out = dir.appendingPathComponent("t.txt").path
        let r = try NotepressBinary.run(["convert", input, "-o", out])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stderr, "notepress convert: warning: \(out): the extension .txt names no output format; writing html (-t chooses one: html, json, ansi, tei, rtf, man, docx, odt, epub, pdf)\n")
        XCTAssertTrue(try String(contentsOfFile: out, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
        XCTAssertEqual(try NotepressBinary.run(["convert", input, "-o", out, "-t", "html"]).stderr, "")
    }

    /// Was: `--shard 1/3` on one file was accepted and ignored.
    func testSiteOptionsOnOneFileAreAUsageError() throws {
        let dir = try makeTempDir(self)
        let input = try write("Text.\n", "t.md", in: dir)
        let r = try NotepressBinary.run(["convert", input, "--shard", "1/3", "-o", dir.appendingPathComponent("t.html").path])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.hasPrefix("notepress convert: --shard is for folder runs (a site); one file is converted on its own\n"), r.stderr)
    }

    /// Was: a folder run's warnings named files by their path below the folder (`d.md:`), which
    /// does not open from where the command ran; the progress lines named `in/d.md`.
    func testFolderRunWarningsNameTheFileAsGiven() throws {
        let dir = try makeTempDir(self)
        let folder = dir.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = try write("# demo\n\nText.\n", "d.md", in: folder)
        let r = try NotepressBinary.run(["convert", folder.path, "-o", dir.appendingPathComponent("out").path, "-t", "man", "--verbose"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("\n\(folder.path)/d.md: warning: man: no manual section given; using 1\n"), r.stderr)
    }

    /// Was: `---` + invalid YAML + `---` at the top of a Markdown file became body text with no
    /// word said. It still is Markdown (thematic breaks, as CommonMark reads it), with a warning
    /// at the YAML error's line and column; a block that is no field list stays silent.
    func testInvalidYAMLFrontMatterInMarkdownIsAWarning() throws {
        let dir = try makeTempDir(self)
        let bad = try write("---\ntitle: [unclosed\ntags: x\n---\n# Body\n", "y.md", in: dir)
        let r = try NotepressBinary.run(["convert", bad, "--fragment"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stderr, "\(bad):3:5: warning: invalid YAML front matter: did not find expected ',' or ']' (while parsing a flow sequence at line 2); the block is read as Markdown\n")
        XCTAssertEqual(r.stdoutText, "<hr />\n<h2>title: [unclosed\ntags: x</h2>\n<h1>Body</h1>\n")
        let prose = try write("---\nSome text\n---\n", "p.md", in: dir)
        XCTAssertEqual(try NotepressBinary.run(["convert", prose, "--fragment"]).stderr, "")
    }
}
