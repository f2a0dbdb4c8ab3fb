import Foundation
import Notepress
import NotepressSite
import NotepressAST
import NotepressHTML
import NotepressReaders
import XCTest
import NotepressTestSupport

/// The rules behind issue 21, one by one: gitignore patterns, TiddlyWiki title lists and dates,
/// what a hashtag is, and where a hashtag links when the site has tag pages.
final class InputRulesTests: XCTestCase {
    func glob(_ p: String, negation: Bool = false) throws -> GlobPattern {
        try XCTUnwrap(GlobPattern(p, allowNegation: negation))
    }

    /// gitignore(5) "PATTERN FORMAT" examples and corners.
    func testGlobPatternsFollowGitignore() throws {
        let cases: [(String, String, Bool, Bool)] = [
            // pattern, path, is folder, matches
            ("*.txt", "a.txt", false, true),
            ("*.txt", "x/y/a.txt", false, true),        // no slash: the name at any depth
            ("*.txt", "a.txt/b", false, false),
            ("/a.txt", "x/a.txt", false, false),        // leading slash: anchored
            ("/a.txt", "a.txt", false, true),
            ("doc/frotz", "doc/frotz", false, true),
            ("doc/frotz", "a/doc/frotz", false, false), // a middle slash anchors too
            ("frotz/", "frotz", true, true),
            ("frotz/", "frotz", false, false),          // trailing slash: folders only
            ("**/foo", "foo", false, true),
            ("**/foo", "a/b/foo", false, true),
            ("**/foo/bar", "x/foo/bar", false, true),
            ("abc/**", "abc/x/y", false, true),
            ("abc/**", "abcd/x", false, false),
            ("a/**/b", "a/b", false, true),
            ("a/**/b", "a/x/y/b", false, true),
            ("a/**/b", "a/x/y/c", false, false),
            ("a?c", "abc", false, true),
            ("a?c", "ac", false, false),
            ("[a-c]x", "bx", false, true),
            ("[!a-c]x", "bx", false, false),
            ("[!a-c]x", "dx", false, true),
            ("[]]x", "]x", false, true),
            ("\\*x", "*x", false, true),
            ("\\*x", "ax", false, false),
            ("a*b*c", "aXXbYYc", false, true),
            ("a*b*c", "aXXbYY", false, false),
            ("recent.*", "archive/recent.md", false, true),
            ("[unclosed", "[unclosed", false, true),
        ]
        for (pattern, path, folder, expected) in cases {
            XCTAssertEqual(try glob(pattern).matches(path, isFolder: folder), expected, "\(pattern) vs \(path)")
        }
        XCTAssertNil(GlobPattern("# comment", allowNegation: true))
        XCTAssertNil(GlobPattern("   ", allowNegation: true))
        XCTAssertTrue(try glob("!keep.txt", negation: true).negated)
        XCTAssertFalse(try glob("!keep.txt").negated, "command-line patterns take ! literally")
        XCTAssertTrue(try glob("!keep.txt").matches("!keep.txt", isFolder: false))
        XCTAssertTrue(try glob("trailing\\ ").matches("trailing ", isFolder: false), "an escaped trailing space is kept")
    }

    /// The last matching pattern decides; a deeper ignore file wins over a higher one.
    func testIgnoreRulesLastMatchWinsDeeperFileWins() {
        let top = IgnoreRules(base: "", text: "*.txt\n!keep.txt\n# comment\n\nbuild/\n")
        XCTAssertEqual(top.decision("a.txt", isFolder: false), true)
        XCTAssertEqual(top.decision("sub/keep.txt", isFolder: false), false)
        XCTAssertEqual(top.decision("a.md", isFolder: false), nil)
        XCTAssertEqual(top.decision("x/build", isFolder: true), true)
        let sub = IgnoreRules(base: "sub", text: "!*.txt\n")
        XCTAssertEqual(sub.decision("other/a.txt", isFolder: false), nil, "rules apply below their folder only")
        XCTAssertFalse(IgnoreRules.isIgnored("sub/a.txt", isFolder: false, by: [top, sub]))
        XCTAssertTrue(IgnoreRules.isIgnored("a.txt", isFolder: false, by: [top, sub]))
    }

    /// TiddlyWiki's `$tw.utils.parseStringArray`: `[[…]]` between whitespace, duplicates once,
    /// U+00A0 is not a separator.
    func testTiddlyWikiTitleLists() {
        XCTAssertEqual(TiddlerHeader.titleList("home [[to buy]] home"), ["home", "to buy"])
        XCTAssertEqual(TiddlerHeader.titleList("  a\tb  "), ["a", "b"])
        XCTAssertEqual(TiddlerHeader.titleList("[[a]]b c]]"), ["a]]b c"], "the first ]] followed by whitespace or the end closes")
        XCTAssertEqual(TiddlerHeader.titleList("x[[a b]]"), ["x[[a", "b]]"], "[[ must start an item")
        XCTAssertEqual(TiddlerHeader.titleList("[[]] [[open"), ["[[open"])
        XCTAssertEqual(TiddlerHeader.titleList("no\u{A0}break"), ["no\u{A0}break"])
        XCTAssertEqual(TiddlerHeader.titleList(""), [])
    }

    /// `YYYYMMDDhhmmssSSS` in UTC, shorter forms as TiddlyWiki's parseDate reads them, and only
    /// real dates.
    func testTiddlyWikiDates() {
        func iso(_ s: String) -> String? { CivilDateTime.parseTiddlyWiki(s).map { CivilDateTime($0).iso8601 } }
        XCTAssertEqual(iso("20141121111732959"), "2014-11-21T11:17:32.959Z")
        XCTAssertEqual(iso("20130825213500000"), "2013-08-25T21:35:00Z")
        XCTAssertEqual(iso("20240229"), "2024-02-29T00:00:00Z")
        XCTAssertEqual(iso("202402291530"), "2024-02-29T15:30:00Z")
        XCTAssertEqual(iso("202402291530455"), "2024-02-29T15:30:45.005Z", "one millisecond digit is 5 ms, as parseInt reads it")
        XCTAssertEqual(iso("15000301000000000"), "1500-03-01T00:00:00Z", "proleptic Gregorian")
        XCTAssertNil(iso("20240230"))
        XCTAssertNil(iso("20231301"))
        XCTAssertNil(iso("20240101240000"))
        XCTAssertNil(iso("2024010"))
        XCTAssertNil(iso("2024-01-01"))
    }

    /// The header split: comments, ignored lines with warnings, the body's line offset, `type`.
    func testTiddlerHeaderSplit() throws {
        let text = "# a comment\ntitle: A: b\nnot a field\ntags: x\r\ntype: text/x-markdown\n\n# Body\n\nmore\n"
        let (header, body, offset, warnings) = try TiddlerHeader.split(text, path: "a.tid")
        XCTAssertEqual(header.title, "A: b", "split at the first colon")
        XCTAssertEqual(header.tags, ["x"])
        XCTAssertEqual(header.bodyFormat, .gfm)
        XCTAssertEqual(header.fields, ["type": "text/x-markdown"])
        XCTAssertEqual(body, "# Body\n\nmore\n")
        XCTAssertEqual(offset, 6)
        XCTAssertEqual(warnings.map(\.description), ["a.tid:3:1: warning: not a 'field: value' header line; ignored"])
        let headerOnly = try TiddlerHeader.split("title: only\n", path: nil)
        XCTAssertEqual(headerOnly.header.title, "only")
        XCTAssertEqual(headerOnly.body, "")
        XCTAssertEqual(try TiddlerHeader.split("type: image/png\n\nAAAA\n", path: "i.tid").warnings.map(\.description),
                       ["i.tid:1:7: warning: type 'image/png' is read as note markup"])
        XCTAssertThrowsError(try TiddlerHeader.split("modified:   2024\n\n", path: "m.tid")) { error in
            XCTAssertEqual("\(error)", "m.tid:1:13: error: 'modified' is not a TiddlyWiki date (YYYYMMDDhhmmssSSS, UTC): '2024'")
        }
    }

    /// What starts a hashtag and where it ends.
    func testHashtagScan() {
        func names(_ s: String, after: Unicode.Scalar? = nil) -> [String] { Hashtags.scan(s, after: after).map(\.name) }
        XCTAssertEqual(names("#groceries"), ["groceries"])
        XCTAssertEqual(names("a #b, c #d."), ["b", "d"])
        XCTAssertEqual(names("#work/projects/ and #x/"), ["work/projects", "x"], "a trailing / is not part of the name")
        XCTAssertEqual(names("C# a#b x/#frag &#35; #/root"), [])
        XCTAssertEqual(names("#1984 #12 #y1984 #2024-plan"), ["y1984", "2024-plan"], "digits alone are not a tag")
        XCTAssertEqual(names("(#a) [#b] «#c» \"#d\" '#e'"), ["a", "b", "c", "d", "e"])
        XCTAssertEqual(names("#café #日本 #naïve_x-y"), ["café", "日本", "naïve_x-y"])
        XCTAssertEqual(names("#a#b"), ["a"], "a # right after a tag does not start a word")
        XCTAssertEqual(names("#tag", after: "x"), [], "text before the run counts")
        XCTAssertEqual(names("#tag", after: " "), ["tag"])
        XCTAssertEqual(names("# heading"), [])
    }

    func testHashtagMergeAndPagePaths() {
        XCTAssertEqual(Hashtags.merge(["Home", "x"], ["home", "milk", "Milk", "x"]), ["Home", "x", "milk"])
        XCTAssertEqual(Hashtags.pagePath("Work/Projects"), "work/projects")
        XCTAssertEqual(Hashtags.pagePath("../../etc"), "etc")
        XCTAssertEqual(Hashtags.pagePath("to buy"), "to-buy", "spaces are not kept in tag page file names")
        XCTAssertEqual(Hashtags.pagePath("/"), "_")
    }

    /// With tag pages (a site concern, ``ConversionOptions/tagPagesFolder``) a hashtag links to
    /// `tags/NAME.html` relative to the page; without, it is a span.
    func testHashtagLinksToTagPagesWhenTheSiteHasThem() throws {
        let dir = try makeTempDir(self)
        let file = dir.appendingPathComponent("b.md")
        try Data("See #Work/Projects and #to-do\n".utf8).write(to: file)
        var loader = DocumentLoader()
        loader.hashtags = true
        var doc = try loader.load(path: file.path).document
        doc.metadata.sourcePath = "a/b.md"
        var options = ConversionOptions()
        options.fragment = true
        var diagnostics: [Diagnostic] = []
        XCTAssertEqual(String(decoding: try HTMLWriter().write(doc, options: options, diagnostics: &diagnostics), as: UTF8.self),
                       "<p>See <span class=\"tag\">#Work/Projects</span> and <span class=\"tag\">#to-do</span></p>\n")
        options.tagPagesFolder = "tags"
        XCTAssertEqual(String(decoding: try HTMLWriter().write(doc, options: options, diagnostics: &diagnostics), as: UTF8.self),
                       "<p>See <a class=\"tag\" href=\"../tags/work/projects.html\">#Work/Projects</a> and "
                       + "<a class=\"tag\" href=\"../tags/to-do.html\">#to-do</a></p>\n")
        XCTAssertEqual(doc.metadata.tags, ["Work/Projects", "to-do"])
    }
}
