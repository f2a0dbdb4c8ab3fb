import Foundation
import NotepressAST
import NotepressReaders
import XCTest
import NotepressTestSupport

final class FrontMatterTests: XCTestCase {
    private func date(_ s: String) -> Date {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.date(from: s)!
    }

    private func frontMatter(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> FrontMatter {
        let (fm, _, _) = try FrontMatter.split(text, path: "n.txt")
        guard let fm else {
            XCTFail("no front matter", file: file, line: line)
            return FrontMatter()
        }
        return fm
    }

    func testAbsentFrontMatter() throws {
        for text in ["no front matter\n---\n", "", " ---\na: b\n---\n", "----\na: b\n----\n", "---"] {
            let (fm, body, offset) = try FrontMatter.split(text, path: nil)
            XCTAssertNil(fm, text)
            XCTAssertEqual(body, text)
            XCTAssertEqual(offset, 0)
        }
        // An opening fence that is never closed is body text, not front matter.
        let unclosed = "---\ntitle: x\nbody\n"
        let (fm, body, offset) = try FrontMatter.split(unclosed, path: nil)
        XCTAssertNil(fm)
        XCTAssertEqual(body, unclosed)
        XCTAssertEqual(offset, 0)
    }

    func testAllFields() throws {
        let text = """
        ---
        title: "Shopping: list"
        created: 2024-03-05T14:30:00Z
        tags: [home, "food & drink"]
        author: Ann
        section: 7
        draft: true
        ---
        Body *line*

        """
        let (fm, body, offset) = try FrontMatter.split(text, path: "shop.txt")
        XCTAssertEqual(fm, FrontMatter(title: "Shopping: list", created: date("2024-03-05T14:30:00Z"),
                                       tags: ["home", "food & drink"],
                                       fields: ["author": "Ann", "section": "7", "draft": "true"]))
        XCTAssertEqual(body, "Body *line*\n")
        XCTAssertEqual(offset, 8)
    }

    func testEachFieldAbsent() throws {
        var fm = try frontMatter("---\ncreated: 2020-01-02\ntags: a\n---\n")
        XCTAssertNil(fm.title)
        XCTAssertEqual(fm.created, date("2020-01-02T00:00:00Z"))
        XCTAssertEqual(fm.tags, ["a"])
        XCTAssertEqual(fm.fields, [:])

        fm = try frontMatter("---\ntitle: T\ntags: [x]\n---\n")
        XCTAssertEqual(fm.title, "T")
        XCTAssertNil(fm.created)

        fm = try frontMatter("---\ntitle: T\ncreated: 2020-01-02\n---\n")
        XCTAssertEqual(fm.tags, [])

        fm = try frontMatter("---\n---\nbody")
        XCTAssertEqual(fm, FrontMatter())

        fm = try frontMatter("---\ntitle: ~\ncreated:\ntags:\nother: null\nq: 'null'\n---\n")
        XCTAssertEqual(fm, FrontMatter(fields: ["q": "null"]))
    }

    func testTagsForms() throws {
        XCTAssertEqual(try frontMatter("---\ntags: [ vcs ]\n---\n").tags, ["vcs"])
        XCTAssertEqual(try frontMatter("---\ntags:\n  - one\n  - two words\n  - 3\n---\n").tags, ["one", "two words", "3"])
        XCTAssertEqual(try frontMatter("---\ntags: alpha, beta ,gamma,,\n---\n").tags, ["alpha", "beta", "gamma"])
        XCTAssertEqual(try frontMatter("---\ntags: \"a, b\"\n---\n").tags, ["a", "b"])
        // Nested collections inside tags are skipped.
        XCTAssertEqual(try frontMatter("---\ntags: [a, {b: c}, [d], e]\n---\n").tags, ["a", "e"])
    }

    /// Sequences and mappings are kept for page templates (they were skipped before templates
    /// could use them): plain `true`/`false` are booleans, quoted ones and numbers text, nulls,
    /// aliases and complex keys left out.
    func testNestedValuesKeptAsCollections() throws {
        let fm = try frontMatter("""
        ---
        title: Deep
        meta:
          author: Ann
          list: [1, 2, {x: [y]}, ~, true, "false"]
          ? [complex]
          : dropped
        aliases:
          - &a a
          - b
          - *a
        keep: yes
        ---

        """)
        XCTAssertEqual(fm, FrontMatter(title: "Deep", fields: ["keep": "yes"], collections: [
            "meta": .map(["author": .string("Ann"),
                          "list": .list([.string("1"), .string("2"), .map(["x": .list([.string("y")])]), .bool(true),
                                         .string("false")])]),
            // Issue 31 item 18: an alias of a scalar is that scalar (was left out).
            "aliases": .list([.string("a"), .string("b"), .string("a")]),
        ]))
    }

    /// Collections nested deeper than 32 levels are left out where they pass the limit; what
    /// encloses them is kept; 900 levels (libyaml refuses more than 1000) read without deep recursion.
    func testCollectionsDeeperThanTheLimitAreCut() throws {
        let deep = try frontMatter("---\nx: " + String(repeating: "[", count: 40) + "z" + String(repeating: "]", count: 40) + "\n---\n")
        var v = deep.collections["x"]
        var depth = 0
        while case .list(let items)? = v {
            depth += 1
            v = items.first
        }
        XCTAssertEqual(depth, 32)
        XCTAssertNil(v)
        let huge = try frontMatter("---\nx: " + String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
            + "\nkeep: 1\n---\n")
        XCTAssertEqual(huge.fields, ["keep": "1"])
    }

    func testCreatedForms() throws {
        let cases: [(String, String)] = [
            ("2024-02-29", "2024-02-29T00:00:00Z"),
            ("2024-01-05T10:20", "2024-01-05T10:20:00Z"),
            ("2024-01-05T10:20:30", "2024-01-05T10:20:30Z"),
            ("2024-01-05T10:20:30Z", "2024-01-05T10:20:30Z"),
            ("2024-01-05T10:20:30+02:00", "2024-01-05T08:20:30Z"),
            ("2024-01-05T10:20-05:30", "2024-01-05T15:50:00Z"),
            ("2024-01-05 10:20", "2024-01-05T10:20:00Z"),
            ("2024-01-05 10:20:30", "2024-01-05T10:20:30Z"),
            ("'2024-01-05'", "2024-01-05T00:00:00Z"),
            ("1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z"),
        ]
        for (value, expected) in cases {
            let fm = try frontMatter("---\ncreated: \(value)\n---\n")
            XCTAssertEqual(fm.created, date(expected), value)
        }
    }

    func testBadCreatedNamesTheLine() {
        for bad in ["yesterday", "2024-13-01", "2023-02-29", "2024-1-5", "2024-01-05T25:00", "2024-01-05T10", "05/01/2024",
                    "2024-01-05T10:20:30+5"] {
            let text = "---\ntitle: x\n\ncreated: \(bad)\n---\nbody\n"
            XCTAssertThrowsError(try FrontMatter.split(text, path: "notes/a.txt"), bad) { error in
                guard let e = error as? FrontMatterError else { return XCTFail("\(error)") }
                XCTAssertEqual(e.file, "notes/a.txt")
                XCTAssertEqual(e.line, 4, bad)
                XCTAssertEqual(e.column, 10, bad)
                XCTAssertTrue(e.message.contains("created") && e.message.contains(bad), e.message)
                XCTAssertTrue(e.description.hasPrefix("notes/a.txt:4:10: error: "), e.description)
            }
        }
    }

    func testBadYAMLReportsLibyamlProblemAndFileLine() {
        let text = "---\ntitle: ok\ntags: [a, b\nother: x\n---\nbody\n"
        XCTAssertThrowsError(try FrontMatter.split(text, path: "bad.txt")) { error in
            guard let e = error as? FrontMatterError else { return XCTFail("\(error)") }
            XCTAssertEqual(e.file, "bad.txt")
            XCTAssertTrue(e.message.hasPrefix("invalid YAML front matter: "), e.message)
            XCTAssertTrue(e.message.contains("flow sequence"), e.message)
            XCTAssertEqual(e.line, 4)
            XCTAssertGreaterThan(e.column, 0)
            XCTAssertEqual(e.diagnostic.severity, .error)
            XCTAssertEqual(e.diagnostic.position, SourcePosition(line: e.line, column: e.column))
        }
        let tab = "---\ntitle: a\n\tbad: b\n---\n"
        XCTAssertThrowsError(try FrontMatter.split(tab, path: nil)) { error in
            guard let e = error as? FrontMatterError else { return XCTFail("\(error)") }
            XCTAssertEqual(e.line, 3)
            XCTAssertEqual(e.column, 1)
            XCTAssertTrue(e.message.contains("tab"), e.message)
            XCTAssertTrue(e.description.hasPrefix("<stdin>:3:1: error: invalid YAML"), e.description)
        }
        let mapping = "---\na: b\nc\n---\n"
        XCTAssertThrowsError(try FrontMatter.split(mapping, path: nil)) { error in
            XCTAssertEqual((error as? FrontMatterError)?.line, 4)
        }
    }

    func testTopLevelMustBeMapping() {
        XCTAssertThrowsError(try FrontMatter.split("---\n- a\n- b\n---\n", path: "l.txt")) { error in
            guard let e = error as? FrontMatterError else { return XCTFail("\(error)") }
            XCTAssertEqual(e.line, 2)
            XCTAssertTrue(e.message.contains("mapping"), e.message)
        }
        XCTAssertThrowsError(try FrontMatter.split("---\njust text\n---\n", path: "l.txt"))
    }

    func testClosingDotsCRLFAndBOM() throws {
        var (fm, body, offset) = try FrontMatter.split("---\ntitle: Dots\n...\nrest\n", path: nil)
        XCTAssertEqual(fm?.title, "Dots")
        XCTAssertEqual(body, "rest\n")
        XCTAssertEqual(offset, 3)

        (fm, body, offset) = try FrontMatter.split("---\r\ntitle: Win\r\ntags: [a]\r\n---\r\nline one\r\n", path: nil)
        XCTAssertEqual(fm, FrontMatter(title: "Win", tags: ["a"]))
        XCTAssertEqual(body, "line one\r\n")
        XCTAssertEqual(offset, 4)

        (fm, body, offset) = try FrontMatter.split("\u{FEFF}---\ntitle: Bom\n---  \n", path: nil)
        XCTAssertEqual(fm?.title, "Bom")
        XCTAssertEqual(body, "")
        XCTAssertEqual(offset, 3)

        // Body positions are file lines.
        let text = "---\ntitle: x\n---\n\nfirst\n"
        let split = try FrontMatter.split(text, path: nil)
        let blocks = NoteReader().parse(split.body, lineOffset: split.bodyLineOffset)
        XCTAssertEqual(blocks.first?.position, SourcePosition(line: 5, column: 1))
    }

    /// libyaml's time grows with the square of flow nesting (80 000 levels took seconds): deeper
    /// than 256 levels is refused before libyaml sees it, with the position of the bracket, in
    /// notes and Markdown alike; brackets in quoted scalars and comments do not count.
    func testFlowNestingDeeperThan256IsRefusedQuickly() throws {
        let deep = "---\ntitle: x\nk: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n---\nbody\n"
        let start = processCPUSeconds()
        for markdown in [false, true] {
            XCTAssertThrowsError(try FrontMatter.split(deep, path: "d.md", markdown: markdown)) { error in
                XCTAssertEqual("\(error)", "d.md:3:260: error: front matter nested deeper than 256 levels")
            }
        }
        XCTAssertLessThan(processCPUSeconds() - start, 1.0, "CPU seconds")
        let ok = "---\nk: " + String(repeating: "{a: ", count: 256) + "x" + String(repeating: "}", count: 256) + "\n---\nbody\n"
        XCTAssertNoThrow(try FrontMatter.split(ok, path: nil))
        let quoted = "---\nk: \"" + String(repeating: "[", count: 300) + "\" # " + String(repeating: "{", count: 300) + "\nj: it's [a]\n---\nbody\n"
        let split = try FrontMatter.split(quoted, path: nil)
        XCTAssertEqual(split.frontMatter?.fields["k"], String(repeating: "[", count: 300))
        XCTAssertEqual(split.frontMatter?.fields["j"], "it's [a]")
    }
}
