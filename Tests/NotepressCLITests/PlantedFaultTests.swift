import Foundation
import XCTest
import NotepressTestSupport
@testable import Notepress
@testable import NotepressSite
import NotepressThemes
import NotepressResources

/// Tests for faults that `make mutation` planted (Tests/Mutants/*.diff) and no test caught: each
/// names the fault it catches (the patch's name) and asserts what a user sees.
final class PlantedFaultTests: XCTestCase {
    private func write(_ text: String, _ url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// Every planted fault still applies to the sources (`make mutation` would otherwise skip it
    /// and the fault would go untested): a file split (TreeBuilder out of MarkdownReader.swift)
    /// left reader-markdown-table-align-swapped pointing at lines that had moved.
    func testEveryPlantedFaultStillApplies() throws {
        let dir = TestPaths.root.appendingPathComponent("Tests/Mutants")
        let patches = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".diff") }.sorted()
        XCTAssertGreaterThanOrEqual(patches.count, 30)
        for name in patches {
            let r = try runTool("git", ["-C", TestPaths.root.path, "apply", "--check", dir.appendingPathComponent(name).path])
            XCTAssertEqual(r.status, 0, "\(name): \(r.output)")
        }
    }

    /// reader-tid-type-case: a MIME type is case-insensitive (RFC 2045 §5.1), so
    /// `type: Text/X-Markdown` is a Markdown body, as `text/x-markdown` is.
    func testTiddlerTypeIsCaseInsensitive() throws {
        let dir = try makeTempDir(self)
        let tid = dir.appendingPathComponent("Shopping.tid")
        try write("title: Shopping\ntype: Text/X-Markdown\n\n# Groceries\n\n- *milk*\n", tid)
        let r = try NotepressBinary.run(["convert", tid.path, "-t", "html", "--fragment"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdoutText, "<h1>Groceries</h1>\n<ul>\n<li><em>milk</em></li>\n</ul>\n")
    }

    /// cli-suggestion-distance: a command two edits away (`cnvrt`: two letters left out) still
    /// gets its suggestion; the rule allows up to two edits (and fewer than half the word).
    func testTwoEditTypoGetsSuggestion() throws {
        let r = try NotepressBinary.run(["cnvrt", "x.md"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.hasPrefix("notepress: unknown command 'cnvrt'; did you mean 'convert'?\n"), r.stderr)
        let option = try NotepressBinary.run(["convert", "--wdh", "40", "-"])
        XCTAssertEqual(option.status, 2)
        XCTAssertTrue(option.stderr.hasPrefix("notepress convert: unknown option '--wdh'; did you mean '--width'?\n"), option.stderr)
    }

    /// manifest-unsafe-not-hashed: `--unsafe` is part of the build configuration, so a re-run that
    /// adds it converts again and the dangerous link becomes live (not "skipped (unchanged)").
    func testRerunWithUnsafeConvertsAgain() throws {
        let dir = try makeTempDir(self)
        let notes = dir.appendingPathComponent("notes"), out = dir.appendingPathComponent("out")
        try write("# A\n\n[x](javascript:alert(1))\n", notes.appendingPathComponent("a.md"))
        let page = out.appendingPathComponent("a.html")
        let safe = try NotepressBinary.run(["convert", notes.path, "-o", out.path, "-t", "html"])
        XCTAssertEqual(safe.status, 0, safe.stderr)
        XCTAssertTrue(try String(contentsOf: page, encoding: .utf8).contains("<a href=\"\">x</a>"))
        let unsafe = try NotepressBinary.run(["convert", notes.path, "-o", out.path, "-t", "html", "--unsafe"])
        XCTAssertEqual(unsafe.status, 0, unsafe.stderr)
        XCTAssertTrue(unsafe.stderr.contains("converted 1, skipped 0 (unchanged)"), unsafe.stderr)
        XCTAssertTrue(try String(contentsOf: page, encoding: .utf8).contains("<a href=\"javascript:alert(1)\">x</a>"))
    }

    /// output-guard-root-prefix: "inside the output folder" is a path-component test: a symbolic
    /// link `o/sub` → `../o2` leads outside `o` although `…/o2` starts with the string `…/o`.
    func testOutputThroughLinkToSiblingWithSamePrefixIsRefused() throws {
        let dir = try makeTempDir(self)
        let notes = dir.appendingPathComponent("notes"), out = dir.appendingPathComponent("o")
        let sibling = dir.appendingPathComponent("o2")
        try write("# A\n", notes.appendingPathComponent("sub/a.md"))
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: sibling, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: out.appendingPathComponent("sub").path, withDestinationPath: "../o2")
        let r = try NotepressBinary.run(["convert", notes.path, "-o", out.path, "-t", "html"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("notes/sub/a.md: error: output \(out.path)/sub/a.html resolves to "), r.stderr)
        XCTAssertTrue(r.stderr.contains("o2/a.html, outside the output folder "), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sibling.path), [])
    }

    /// theme-scale-upper-bound: `scale` is at most 4.
    func testThemeScaleAboveFourIsRejected() throws {
        let dir = try makeTempDir(self)
        try write("{\"scale\": 5}\n", dir.appendingPathComponent("themes/big.json"))
        XCTAssertThrowsError(try ThemeLoader(store: TemplateStore(dataDirectory: dir)).load("big")) { error in
            XCTAssertTrue("\(error)".hasSuffix("themes/big.json: scale: expected a number greater than 0 and at most 4, got 5.0"),
                          "\(error)")
        }
        try write("{\"scale\": 4}\n", dir.appendingPathComponent("themes/four.json"))
        let four = try ThemeLoader(store: TemplateStore(dataDirectory: dir)).load("four")
        XCTAssertEqual(four.styles[.body]?.sizes[3], 68, "Large body: 17 pt × 4")
    }

    /// cli-dash-operand: `-` is an operand (standard input), not an empty cluster of options:
    /// with other inputs and an output folder it is a usage error, where dropping it silently
    /// would convert the rest.
    func testDashIsStandardInputOperand() throws {
        let dir = try makeTempDir(self)
        try write("# A\n", dir.appendingPathComponent("a.md"))
        let r = try NotepressBinary.run(["convert", "-t", "html", "a.md", "-", "-o", "out"], stdin: Data("# B\n".utf8),
                                        currentDirectory: dir)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("notepress convert: standard input (-) cannot be mixed with an output folder\n"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
    }

    /// json-unicode-escape-width: control characters in the JSON dump are `\u` and four hex
    /// digits (RFC 8259 §7), and the output parses as JSON.
    func testJSONEscapesControlCharactersWithFourDigits() throws {
        let r = try NotepressBinary.run(["convert", "-f", "gfm", "-t", "json"], stdin: Data("a\u{1}b \u{7F} \u{85}\n".utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdoutText.contains(#"{"text": "a\u0001b \u007f \u0085"}"#), r.stdoutText)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: r.stdout))
    }

    /// site-asset-mtime: an asset changed in place to bytes of the same size (a new modification
    /// time) is copied again on a re-run; size alone does not say it is unchanged.
    func testChangedAssetOfSameSizeIsCopiedAgain() throws {
        let dir = try makeTempDir(self)
        let notes = dir.appendingPathComponent("notes"), out = dir.appendingPathComponent("out")
        let picture = notes.appendingPathComponent("pic.png")
        try write("# A\n\n![p](pic.png)\n", notes.appendingPathComponent("a.md"))
        try write("first picture", picture)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)], ofItemAtPath: picture.path)
        let first = try NotepressBinary.run(["convert", notes.path, "-o", out.path, "-t", "html"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(try String(contentsOf: out.appendingPathComponent("pic.png"), encoding: .utf8), "first picture")
        try write("later picture", picture)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_700_000_100)], ofItemAtPath: picture.path)
        let second = try NotepressBinary.run(["convert", notes.path, "-o", out.path, "-t", "html"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(try String(contentsOf: out.appendingPathComponent("pic.png"), encoding: .utf8), "later picture")
    }

    /// site-link-report-duplicates: the link report names each problem at a place once, sorted
    /// by line and column, however often the page's links record it.
    func testLinkReportListsEachProblemOnce() {
        var page = SiteRecord(path: "a.md", kind: .page)
        let twice = SiteLinkRecord(kind: .link, target: "m.md", line: 3, column: 1)
        page.links = [twice, SiteLinkRecord(kind: .link, target: "m.md", line: 1, column: 5), twice]
        let key = SiteRewriter.LinkKey(kind: .link, target: "m.md")
        let problems = LinkReport.problems(SiteTable(records: [page]),
                                           resolutions: [[key: LinkResolution.broken("link to 'm.md': no such file m.md")]])
        XCTAssertEqual(problems.map { $0.description(file: $0.path) },
                       ["a.md:1:5: warning: link to 'm.md': no such file m.md", "a.md:3:1: warning: link to 'm.md': no such file m.md"])
    }

    /// site-tei-fragment-id: in TEI a link to a heading of another page targets the TEI
    /// `xml:id` (`h.1-intro`, an NCName), not the GitHub id `1-intro`, which is no id there.
    func testSiteLinkToHeadingTargetsTEIIdentifier() throws {
        let dir = try makeTempDir(self)
        let notes = dir.appendingPathComponent("notes"), out = dir.appendingPathComponent("out")
        try write("# A\n\nSee [the intro](b.md#1-intro).\n", notes.appendingPathComponent("a.md"))
        try write("# 1 Intro\n\nText.\n", notes.appendingPathComponent("b.md"))
        let r = try NotepressBinary.run(["convert", notes.path, "-o", out.path, "-t", "tei"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let a = try String(contentsOf: out.appendingPathComponent("a.xml"), encoding: .utf8)
        let b = try String(contentsOf: out.appendingPathComponent("b.xml"), encoding: .utf8)
        XCTAssertTrue(a.contains("<ref target=\"b.xml#h.1-intro\">the intro</ref>"), a)
        XCTAssertTrue(b.contains("xml:id=\"h.1-intro\""), b)
    }
}
