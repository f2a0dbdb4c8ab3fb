import Foundation
import XCTest
import NotepressTestSupport

/// mdBook include directives, from a new user's try-out, through the real binary: include bombs
/// (a 71-byte chapter including itself three times wrote 8.8 MB in 18 s; two chapters including
/// each other printed 1 660 warnings), CRLF files that included nothing, a folder or FIFO called
/// "no such file", and "outside the book's root ." for `convert .`.
final class MdBookIncludeBombTests: XCTestCase {
    /// `notepress ARGS`, which must succeed.
    func run(_ args: [String], in cwd: URL? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> NotepressBinary.Result {
        try NotepressBinary.runExpectingSuccess(args, environment: MdBookTests.epoch, currentDirectory: cwd, file: file, line: line)
    }

    /// A book (`book.toml`, `src/SUMMARY.md` listing `chapters`) with `files` in `src/`.
    func makeBook(chapters: [String], files: [String: String]) throws -> (dir: URL, book: String, src: String, output: String) {
        let dir = try makeTempDir(self)
        _ = try writeTestFile("[book]\ntitle = \"B\"\n", "book/book.toml", in: dir)
        let summary = "# Summary\n\n" + chapters.map { "- [\($0)](\($0))\n" }.joined()
        _ = try writeTestFile(summary, "book/src/SUMMARY.md", in: dir)
        for (name, text) in files { _ = try writeTestFile(text, "book/src/" + name, in: dir) }
        let book = dir.appendingPathComponent("book").path
        return (dir, book, book + "/src", dir.appendingPathComponent("out").path)
    }

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    static func size(_ path: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? -1 }

    func testSelfIncludeIsACycleWarnedOncePerDirectiveNotABomb() throws {
        let b = try makeBook(chapters: ["a.md"], files: ["a.md": "# A\n\nxxxxxxxxxx\n{{#include a.md}}\n{{#include a.md}}\n{{#include a.md}}\n"])
        let r = try run(["convert", b.book, "-o", b.output, "--verbose"])
        XCTAssertLessThan(Self.size(b.output + "/index.html"), 64 << 10, "was 8.8 MB")
        XCTAssertEqual(Self.count("is already being included (a cycle)", in: r.stderr), 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("a.md:5:1: warning: {{#include a.md}}: \(b.src)/a.md is already being included (a cycle); not included; kept as text"), r.stderr)
        XCTAssertTrue(r.stderr.contains("not converted: 3\n"), r.stderr)
        let html = try String(contentsOfFile: b.output + "/index.html", encoding: .utf8)
        XCTAssertEqual(Self.count("xxxxxxxxxx", in: html), 1, html)
    }

    func testChaptersIncludingEachOtherWarnOnceEach() throws {
        let b = try makeBook(chapters: ["a.md", "b.md"], files: [
            "a.md": "# A\n\n{{#include b.md}}\n{{#include b.md}}\n", "b.md": "# B\n\nb text\n\n{{#include a.md}}\n",
        ])
        let r = try run(["convert", b.book, "-o", b.output, "--verbose"])
        // Chapter a: a → b → a (at b.md:5:1, reached twice, said once); chapter b: b → a → b (at a.md:3:1 and a.md:4:1).
        XCTAssertEqual(Self.count("is already being included (a cycle)", in: r.stderr), 3, r.stderr)
        XCTAssertEqual(Self.count("b.md:5:1: warning: {{#include a.md}}", in: r.stderr), 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("not converted: 3\n"), r.stderr)
        XCTAssertLessThan(Self.size(b.output + "/index.html"), 64 << 10)
    }

    func testAChainOfTwelveIncludesStopsAtMdBooksTenLevels() throws {
        var files = ["c.md": "# C\n\n{{#include l1.md}}\n"]
        for i in 1...12 { files["l\(i).md"] = "line \(i)\n\n{{#include l\(i + 1).md}}\n" }
        files["l13.md"] = "line 13\n"
        let b = try makeBook(chapters: ["c.md"], files: files)
        let r = try run(["convert", b.book, "-o", b.output, "--verbose"])
        let html = try String(contentsOfFile: b.output + "/index.html", encoding: .utf8)
        XCTAssertTrue(html.contains("line 10"), html)
        XCTAssertFalse(html.contains("line 11"), html)
        XCTAssertTrue(r.stderr.contains("\(b.src)/l10.md:3:1: warning: {{#include l11.md}}: included more than 10 levels deep (mdBook's limit); not included; kept as text"), r.stderr)
        // Every l*.md is a page of its own too: l1's stops at l10, l2's at l11, l3's at l12.
        XCTAssertEqual(Self.count("l10.md:3:1: warning", in: r.stderr), 1, r.stderr)
        XCTAssertEqual(Self.count("levels deep", in: r.stderr), 3, r.stderr)
    }

    func testFanOutBombStopsAtTheDocumentedBound() throws {
        // Each level includes the next 10 times, 6 levels: 10⁶ copies of a 100-byte leaf (100 MB).
        var files = ["f0.md": "# F\n\n" + String(repeating: "{{#include f1.md}}\n", count: 10)]
        for i in 1...5 { files["f\(i).md"] = String(repeating: "{{#include f\(i + 1).md}}\n", count: 10) }
        files["f6.md"] = String(repeating: "x", count: 99) + "\n"
        let b = try makeBook(chapters: ["f0.md"], files: files)
        let r = try run(["convert", b.book, "-o", b.output, "--verbose"])
        let bound = 10 * (5 + 19 * 10) + (16 << 20)
        XCTAssertEqual(Self.count("the expanded chapter would pass \(bound) bytes", in: r.stderr), 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("--no-input-limits lifts the limit"), r.stderr)
        XCTAssertTrue(r.stderr.contains("not converted: 1\n"), r.stderr)
        let size = Self.size(b.output + "/index.html")
        XCTAssertGreaterThan(size, 1 << 20)
        XCTAssertLessThan(size, bound * 2, "the page stays within the bound's size")
    }

    func testCRLFAndCRFilesIncludeTheirLines() throws {
        let rs = "// ANCHOR: a\r\nfn a() {}\r\n// ANCHOR_END: a\r\nfn b() {}\r\n"
        let chapter = "# D\r\n\r\n```\r\n{{#include d2.txt:2:3}}\r\n```\r\n\r\n```rust\r\n{{#include crlf.rs:a}}\r\n```\r\n\r\n```rust\r\n{{#include crlf.rs}}\r\n```\r\n\r\n{{#include missing.md}}\r\n"
        let cr = "# E\r\r```\r{{#include cr.txt:2}}\r```\r\r{{#include nothere.md}}\r"
        let b = try makeBook(chapters: ["d.md", "e.md"], files: ["d.md": chapter, "e.md": cr, "d2.txt": "l1\r\nl2\r\nl3\r\n", "crlf.rs": rs, "cr.txt": "c1\rc2\rc3\r"])
        let r = try run(["convert", b.book, "-o", b.output, "--verbose"])
        let blocks = MdBookTests.codeBlocks(try String(contentsOfFile: b.output + "/index.html", encoding: .utf8))
        XCTAssertEqual(blocks, ["l2\nl3\n", "fn a() {}\n", "fn a() {}\nfn b() {}\n"])
        XCTAssertEqual(MdBookTests.codeBlocks(try String(contentsOfFile: b.output + "/e.html", encoding: .utf8)), ["c2\n"])
        // The chapters' own lines are counted at CRLF and CR.
        XCTAssertTrue(r.stderr.contains("d.md:15:1: warning: {{#include missing.md}}"), r.stderr)
        XCTAssertTrue(r.stderr.contains("e.md:7:1: warning: {{#include nothere.md}}"), r.stderr)
    }

    func testFolderOrFIFOIsNamedAsSuchNotMissing() throws {
        // The FIFO lies outside `src/` (the site's own scan of the input folder would open one there).
        let b = try makeBook(chapters: ["a.md"], files: ["a.md": "# A\n\n{{#include sub}}\n\n{{#include ../pipe.txt}}\n", "sub/x.md": "x\n"])
        XCTAssertEqual(mkfifo(b.book + "/pipe.txt", 0o600), 0)
        let r = try run(["convert", b.book, "-o", b.output, "--verbose"])
        XCTAssertTrue(r.stderr.contains("a.md:3:1: warning: {{#include sub}}: \(b.src)/sub is a folder; kept as text"), r.stderr)
        XCTAssertTrue(r.stderr.contains("a.md:5:1: warning: {{#include ../pipe.txt}}: \(b.book)/pipe.txt is not a regular file; kept as text"), r.stderr)
        XCTAssertFalse(r.stderr.contains("no such file"), r.stderr)
    }

    func testOutsideTheRootNamesTheInputFolderForConvertDot() throws {
        let b = try makeBook(chapters: ["a.md"], files: ["a.md": "# A\n\n{{#include ../../secret.md}}\n"])
        _ = try writeTestFile("secret\n", "secret.md", in: b.dir)
        let r = try run(["convert", ".", "-o", b.output, "--verbose"], in: URL(fileURLWithPath: b.book))
        XCTAssertFalse(r.stderr.contains("root .;"), r.stderr)
        let real = URL(fileURLWithPath: b.book).resolvingSymlinksInPath().path
        XCTAssertTrue(r.stderr.contains("is outside the book's root \(real) (the input folder); not included"), r.stderr)
    }
}
