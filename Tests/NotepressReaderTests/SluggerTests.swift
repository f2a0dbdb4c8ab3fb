import Foundation
import XCTest
import NotepressTestSupport
import NotepressAST

/// ``HeadingSlugger`` against github-slugger's own fixtures and the rules they do not show.
final class SluggerTests: XCTestCase {

    /// `../shared/corpus/github-slugger/fixtures.json`: every case, in file order, through one
    /// slugger (github-slugger's `test/index.js` runs them so: duplicates count across the file).
    func testGithubSluggerFixturesAllPass() throws {
        let url = TestPaths.corpus.appendingPathComponent("github-slugger/fixtures.json")
        let cases = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
        XCTAssertEqual(cases.count, 78, "fixtures.json changed")
        var slugger = HeadingSlugger()
        var passed = 0
        for c in cases {
            let name = try XCTUnwrap(c["name"] as? String)
            let input = try XCTUnwrap(c["input"] as? String)
            let expected = try XCTUnwrap(c["expected"] as? String)
            let got = slugger.slug(input)
            if got == expected { passed += 1 } else { XCTFail("\(name): \(input.debugDescription) → \(got.debugDescription), expected \(expected.debugDescription)") }
        }
        print("github-slugger fixtures: \(passed) passed, \(cases.count - passed) failed of \(cases.count)")
        XCTAssertEqual(passed, 78)
    }

    /// Regression (new-user try-out): `## 🎉` got `id=""` (no valid HTML id; the contents linked
    /// to `#`). An empty slug is `section` (pandoc's rule), counted with the other ids.
    func testEmojiOnlyHeadingGetsSectionNotAnEmptyID() throws {
        XCTAssertEqual(HeadingSlugger.slug(of: "🎉"), "")  // github-slugger's own answer
        var s = HeadingSlugger()
        XCTAssertEqual([s.slug("🎉"), s.slug("Section"), s.slug("🎉🎉"), s.slug("")], ["section", "section-1", "section-2", "section-3"])
        let page = try NotepressBinary.run(["convert", "-f", "gfm", "-t", "html", "--toc", "-"], stdin: Data("## 🎉\n\ntext\n\n## 🎉\n".utf8))
        XCTAssertEqual(page.status, 0, page.stderr)
        XCTAssertTrue(page.stdoutText.contains("<h2 id=\"section\" dir=\"auto\">🎉</h2>"), page.stdoutText)
        XCTAssertTrue(page.stdoutText.contains("<h2 id=\"section-1\" dir=\"auto\">🎉</h2>"), page.stdoutText)
        XCTAssertTrue(page.stdoutText.contains("href=\"#section-1\""), page.stdoutText)
        XCTAssertFalse(page.stdoutText.contains("id=\"\""), page.stdoutText)
    }

    func testDuplicatesAreScopedToOneSlugger() {
        var a = HeadingSlugger()
        XCTAssertEqual(a.slug("Intro"), "intro")
        XCTAssertEqual(a.slug("Intro"), "intro-1")
        var b = HeadingSlugger()
        XCTAssertEqual(b.slug("Intro"), "intro")
        a.reset()
        XCTAssertEqual(a.slug("Intro"), "intro")
    }

    /// github-slugger's README examples and JavaScript's context-dependent final sigma.
    func testLowerCasingAndRemovalRules() {
        XCTAssertEqual(HeadingSlugger.slug(of: "Привет non-latin 你好"), "привет-non-latin-你好")
        XCTAssertEqual(HeadingSlugger.slug(of: "😄 emoji"), "-emoji")
        XCTAssertEqual(HeadingSlugger.slug(of: "ΟΔΟΣ ΟΔΟΣ"), "\u{3BF}\u{3B4}\u{3BF}\u{3C2}-\u{3BF}\u{3B4}\u{3BF}\u{3C2}")
        XCTAssertEqual(HeadingSlugger.slug(of: "ΣΑ"), "\u{3C3}\u{3B1}")
        XCTAssertEqual(HeadingSlugger.slug(of: "Ⓐ and 1️⃣"), "\u{24D0}-and-1\u{FE0F}\u{20E3}")  // VS16 (Mn) and the keycap (Me) are marks: kept
        XCTAssertEqual(HeadingSlugger.slug(of: "C++ & C#: `a.b()`"), "c--c-ab")
    }

    /// A scalar assigned after Unicode 13.0 (U+105C0 TODHRI LETTER A, Unicode 16) is unassigned in
    /// github-slugger's tables, so it is removed.
    func testScalarsNewerThanUnicode13AreRemoved() {
        XCTAssertEqual(HeadingSlugger.slug(of: "a\u{105C0}b"), "ab")
        XCTAssertEqual(HeadingSlugger.slug(of: "a\u{306F8}b"), "a\u{306F8}b")  // CJK Ext. G, Unicode 13.0
    }

    /// Many headings that collide with each other's suffixes stay fast (each suffix tried once).
    func testManyDuplicatesAreLinear() {
        var s = HeadingSlugger()
        for i in 1...20_000 { _ = s.slug("x-\(i)") }
        let start = processCPUSeconds()
        var last = ""
        for _ in 0..<20_000 { last = s.slug("x") }
        XCTAssertEqual(last, "x-39999")
        XCTAssertLessThan(processCPUSeconds() - start, 2.0, "CPU seconds")
    }
}
