import Foundation
import XCTest
import NotepressTestSupport

/// Issue 45, item 1: a folder in mdBook's own layout (`book.toml`, `src/SUMMARY.md`, chapters,
/// `listings/*.rs` with ANCHOR lines) converts as `mdbook build` would, through the real binary:
/// 707 `{{#include}}` lines were printed as text and ~700 code listings were missing, and a book
/// without `index.md` opened on a generated notes list.
final class MdBookTests: XCTestCase {
    static let epoch = ["SOURCE_DATE_EPOCH": "1700000000"]

    /// `notepress ARGS`, which must succeed.
    func run(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws -> NotepressBinary.Result {
        try NotepressBinary.runExpectingSuccess(args, environment: Self.epoch, file: file, line: line)
    }

    static let listing = """
    // ANCHOR: all
    use std::io;
    // ANCHOR: main
    fn main() {
        println!("five");
    }
    // ANCHOR_END: main
    // ANCHOR_END: all

    """

    static let hidden = """
    # #![allow(unused)]
    # fn setup() {}
    fn shown() {
        #[derive(Debug)]
        struct S;
    #   let hidden = 1;
    }

    """

    static let chapter = """
    # Getting started

    ```rust
    {{#include ../listings/main.rs:main}}
    ```

    ```text
    {{#include ../listings/main.rs:4:6}}
    ```

    ```text
    {{#include ../listings/main.rs:5}}
    ```

    ```text
    {{#include ../listings/main.rs::2}}
    ```

    ```text
    {{#include ../listings/main.rs:7:}}
    ```

    ```rust
    {{#rustdoc_include ../listings/hidden.rs}}
    ```

    Literal: \\{{#include ../listings/main.rs}}

    Missing: {{#include ../listings/missing.rs}}

    {{#include ../listings/main.rs:nosuchanchor}}

    {{#include ../../secret.rs}}

    A [broken link](nowhere.md) after them.

    {{#playground ../listings/main.rs editable}}

    """

    /// The book: `book.toml` (title, `src = "pages"`), the chapters, the listings; `secret.rs`
    /// beside the book (outside its root).
    func makeBook() throws -> (dir: URL, book: String, output: String) {
        let dir = try makeTempDir(self)
        _ = try writeTestFile("[book]\nauthors = [\"A. Writer\"]\ntitle = \"The \\\"Test\\\" Book\" # comment\nsrc = 'pages'\n\n[output.html]\ntitle = \"not this\"\n",
                              "book/book.toml", in: dir)
        _ = try writeTestFile("# Summary\n\n- [Getting started](./start.md)\n- [Second](second.md)\n", "book/pages/SUMMARY.md", in: dir)
        _ = try writeTestFile(Self.chapter, "book/pages/start.md", in: dir)
        _ = try writeTestFile("{{#title A Custom Title}}\n# Second chapter\n\nText.\n", "book/pages/second.md", in: dir)
        _ = try writeTestFile(Self.listing, "book/listings/main.rs", in: dir)
        _ = try writeTestFile(Self.hidden, "book/listings/hidden.rs", in: dir)
        _ = try writeTestFile("fn secret() {}\n", "secret.rs", in: dir)
        return (dir, dir.appendingPathComponent("book").path, dir.appendingPathComponent("out").path)
    }

    /// The text of each `<pre><code>` of `html`, highlighting tags taken out, entities decoded.
    static func codeBlocks(_ html: String) -> [String] {
        html.components(separatedBy: "<pre><code").dropFirst().map { part in
            let body = part[part.index(after: part.firstIndex(of: ">")!)...]
            let code = body.components(separatedBy: "</code></pre>")[0]
            return code.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        }
    }

    func testIncludesShowTheListingsLinesByAnchorAndRangeWithAnchorLinesStripped() throws {
        let b = try makeBook()
        _ = try run(["convert", b.book, "-o", b.output])
        // No index page: the first chapter is the landing page.
        let html = try String(contentsOfFile: b.output + "/index.html", encoding: .utf8)
        let code = Self.codeBlocks(html)
        guard code.count == 7 else { return XCTFail("7 code blocks expected: \(html)") }
        XCTAssertEqual(code[0], "fn main() {\n    println!(\"five\");\n}\n", "anchor main")
        XCTAssertEqual(code[1], "fn main() {\n    println!(\"five\");\n}\n", "lines 4 to 6")
        XCTAssertEqual(code[2], "    println!(\"five\");\n", "line 5 only")
        XCTAssertEqual(code[3], "use std::io;\n", "lines 1 to 2, the ANCHOR line left out")
        XCTAssertEqual(code[4], "\n", "lines 7 to the end are anchor lines only")
        XCTAssertFalse(html.contains("ANCHOR"), html)
        XCTAssertFalse(html.contains("{{#include ../listings/main.rs:main}}"))
    }

    func testRustdocIncludeLeavesHiddenLinesOutOfTheShownCode() throws {
        let b = try makeBook()
        _ = try run(["convert", b.book, "-o", b.output])
        let code = Self.codeBlocks(try String(contentsOfFile: b.output + "/index.html", encoding: .utf8))
        guard code.count == 7 else { return XCTFail("7 code blocks expected, got \(code)") }
        XCTAssertEqual(code[5], "fn shown() {\n    #[derive(Debug)]\n    struct S;\n}\n")
    }

    func testEscapedDirectiveStaysLiteralAndPlaygroundIsARustBlock() throws {
        let b = try makeBook()
        _ = try run(["convert", b.book, "-o", b.output])
        let html = try String(contentsOfFile: b.output + "/index.html", encoding: .utf8)
        XCTAssertTrue(html.contains("<p dir=\"auto\">Literal: {{#include ../listings/main.rs}}</p>"), html)
        XCTAssertEqual(Self.codeBlocks(html).last, "use std::io;\nfn main() {\n    println!(\"five\");\n}\n")
    }

    func testTitleDirectiveSetsThePageTitleAndBookTitleIsTheSiteTitle() throws {
        let b = try makeBook()
        _ = try run(["convert", b.book, "-o", b.output])
        let second = try String(contentsOfFile: b.output + "/second.html", encoding: .utf8)
        XCTAssertTrue(second.contains("<title>A Custom Title"), second)
        XCTAssertFalse(second.contains("{{#title"), second)
        XCTAssertTrue(second.contains("class=\"site-title\" href=\"index.html\">The &quot;Test&quot; Book</a>")
                      || second.contains("site-title\" href=\"index.html\">The \"Test\" Book</a>"), second)
        // The pages are the source folder's: no book.toml page, no listings, no pages/ folder.
        XCTAssertFalse(FileManager.default.fileExists(atPath: b.output + "/pages"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: b.output + "/listings"))
    }

    func testBookWithoutIndexOpensOnItsFirstChapter() throws {
        let b = try makeBook()
        _ = try run(["convert", b.book, "-o", b.output])
        let index = try String(contentsOfFile: b.output + "/index.html", encoding: .utf8)
        XCTAssertTrue(index.contains("<h1 id=\"getting-started\" dir=\"auto\">Getting started</h1>"), index)
        XCTAssertTrue(index.contains("rel=\"next\" href=\"second.html\""), index)
        XCTAssertTrue(FileManager.default.fileExists(atPath: b.output + "/notes-index.html"), "the notes list moves aside")
        XCTAssertFalse(FileManager.default.fileExists(atPath: b.output + "/start.html"))
        let second = try String(contentsOfFile: b.output + "/second.html", encoding: .utf8)
        XCTAssertTrue(second.contains("rel=\"prev\" href=\"index.html\""), second)
    }

    func testMissingFileOrAnchorWarnsAtFileLineColumnAndKeepsTheDirective() throws {
        let b = try makeBook()
        let r = try run(["convert", b.book, "-o", b.output, "--verbose"])
        let chapter = b.book + "/pages/start.md"
        XCTAssertTrue(r.stderr.contains("\(chapter):29:10: warning: {{#include ../listings/missing.rs}}: no such file \(b.book)/listings/missing.rs; kept as text"), r.stderr)
        XCTAssertTrue(r.stderr.contains("\(chapter):31:1: warning: {{#include ../listings/main.rs:nosuchanchor}}: no anchor 'nosuchanchor' in \(b.book)/listings/main.rs; kept as text"), r.stderr)
        // Issue 45, item 7: the run's summary counts what was not converted.
        XCTAssertTrue(r.stderr.contains("; broken links: 1; not converted: 3\n"), r.stderr)
        // Later lines keep the chapter's own line numbers.
        XCTAssertTrue(r.stderr.contains("\(chapter):35:3: warning: link to 'nowhere.md'"), r.stderr)
        let html = try String(contentsOfFile: b.output + "/index.html", encoding: .utf8)
        XCTAssertTrue(html.contains("Missing: {{#include ../listings/missing.rs}}"), html)
    }

    func testIncludeOutsideTheBookRootIsRefused() throws {
        let b = try makeBook()
        let r = try run(["convert", b.book, "-o", b.output, "--verbose"])
        XCTAssertTrue(r.stderr.contains("start.md:33:1: warning: {{#include ../../secret.rs}}: "), r.stderr)
        XCTAssertTrue(r.stderr.contains("is outside the book's root \(b.book); not included; kept as text"), r.stderr)
        let html = try String(contentsOfFile: b.output + "/index.html", encoding: .utf8)
        XCTAssertFalse(html.contains("fn secret"), html)
        // A symbolic link out of the book is refused too.
        try FileManager.default.createSymbolicLink(atPath: b.book + "/listings/link.rs", withDestinationPath: b.dir.path + "/secret.rs")
        _ = try writeTestFile("# L\n\n{{#include ../listings/link.rs}}\n", "book/pages/second.md", in: b.dir)
        let r2 = try run(["convert", b.book, "-o", b.output, "--verbose"])
        XCTAssertTrue(r2.stderr.contains("second.md:3:1: warning: {{#include ../listings/link.rs}}: "), r2.stderr)
        XCTAssertFalse(try String(contentsOfFile: b.output + "/second.html", encoding: .utf8).contains("fn secret"))
    }

    func testEditOfAnIncludedFileRendersTheChapterAgainAndIsInTheDepfile() throws {
        let b = try makeBook()
        let depfile = b.dir.appendingPathComponent("site.d").path
        _ = try run(["convert", b.book, "-o", b.output, "--depfile", depfile])
        let again = try run(["convert", b.book, "-o", b.output, "--depfile", depfile])
        XCTAssertTrue(again.stderr.contains("converted 0, skipped 3 (unchanged)"), again.stderr)
        let deps = try String(contentsOfFile: depfile, encoding: .utf8)
        XCTAssertTrue(deps.contains("\(b.output)/index.html: \(b.book)/pages/start.md \(b.book)/listings/main.rs \(b.book)/listings/hidden.rs"), deps)
        // Same size, same second: only the bytes differ.
        let path = b.book + "/listings/main.rs"
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        try Data(Self.listing.replacingOccurrences(of: "five", with: "FIVE").utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: attributes[.modificationDate]!], ofItemAtPath: path)
        let third = try run(["convert", b.book, "-o", b.output, "--depfile", depfile, "--verbose"])
        XCTAssertTrue(third.stderr.contains("converted \(b.book)/pages/start.md"), third.stderr)
        XCTAssertTrue(third.stderr.contains("converted 1, skipped 2 (unchanged)"), third.stderr)
        let html = try String(contentsOfFile: b.output + "/index.html", encoding: .utf8)
        XCTAssertTrue(html.contains("println!(&quot;FIVE&quot;)"), html)
    }
}
