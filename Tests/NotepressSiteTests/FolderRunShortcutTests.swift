import Foundation
import XCTest
import NotepressTestSupport
@testable import Notepress
@testable import NotepressSite

/// The shortcuts of the folder run's speed work (issue 19, round 4) give what the long ways gave:
/// path splitting without `NSString`, index/README names without `lowercased()`, manifest numbers
/// without string interpolation, and site-wide pages rendered while the pages are (several jobs)
/// or after them (one job).
final class FolderRunShortcutTests: XCTestCase {
    /// `AtomicFile.split` answers as `NSString`'s `deletingLastPathComponent` and
    /// `lastPathComponent` do, on plain paths (split at the last `/`) and on the ones it leaves to
    /// `NSString` (doubled or trailing `/`).
    func testAtomicFileSplitsPathsAsNSStringDoes() {
        let cases: [(String, String, String)] = [
            ("/dev/shm/out/folder-000/doc-00200.html", "/dev/shm/out/folder-000", "doc-00200.html"),
            ("a/b.html", "a", "b.html"),
            ("b.html", "", "b.html"),
            ("/b.html", "/", "b.html"),
            ("./b.html", ".", "b.html"),
            ("a/./b.html", "a/.", "b.html"),
            ("a//b.html", "a", "b.html"),
            ("a/b/", "a", "b"),
            ("/", "/", "/"),
            ("é/ü.html", "é", "ü.html"),
        ]
        for (path, folder, name) in cases {
            let got = AtomicFile.split(path)
            XCTAssertEqual(got.folder, folder, path)
            XCTAssertEqual(got.name, name, path)
            // The rule it stands in for.
            XCTAssertEqual((path as NSString).deletingLastPathComponent, folder, path)
            XCTAssertEqual((path as NSString).lastPathComponent, name, path)
        }
    }

    /// Regression (try-out of the round-4 merge, 2026-12-01): a tag made of combining marks or a
    /// ZWJ (`tags/\u{300}\u{301}.html`) failed with "cannot create a temporary file" because
    /// `NSString` splits at `Character`s and `/` + combining mark is one `Character`.
    func testPathWithCombiningMarkAfterSlashSplitsAtTheSlash() throws {
        for (path, folder, name) in [("tags/\u{300}\u{301}.html", "tags", "\u{300}\u{301}.html"),
                                     ("tags//\u{200D}.html", "tags", "\u{200D}.html"),
                                     ("out/tags/\u{300}/", "out/tags", "\u{300}"),
                                     ("", "", "")] {
            XCTAssertEqual(AtomicFile.split(path).folder, folder, path)
            XCTAssertEqual(AtomicFile.split(path).name, name, path)
        }
        let dir = try makeTempDir(self)
        let input = dir.appendingPathComponent("in").path
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        try Data("---\ntags: [\"\u{300}\u{301}\", \"\u{200D}\"]\n---\n# A\n\nText.\n".utf8)
            .write(to: URL(fileURLWithPath: input + "/a.md"))
        let out = dir.appendingPathComponent("out").path
        let r = try NotepressBinary.run(["convert", input, "-o", out, "-q", "-j", "1"],
                                        environment: ["SOURCE_DATE_EPOCH": "1700000000", "NO_COLOR": "1"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        let pages = try FileManager.default.contentsOfDirectory(atPath: out + "/tags").sorted()
        XCTAssertEqual(pages, ["\u{200D}.html", "\u{300}\u{301}.html"].sorted())
        // Regression (try-out): `hasPrefix("tags/")` is Character-based, so such a tag page was
        // recorded as the notes list (I line) and the notes list's own record was lost.
        let manifest = try String(contentsOfFile: out + "/.notepress-manifest", encoding: .utf8)
        let kinds = manifest.split(separator: "\n").filter { $0.hasPrefix("I\t") || $0.utf8.starts(with: "G\ttags/".utf8) }
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).prefix(2).joined(separator: " ") }
        XCTAssertEqual(kinds, ["I index.html", "G tags/\u{300}\u{301}.html", "G tags/\u{200D}.html"]) // byte order
    }

    /// Regression (new-user try-out 2026-12-01): tags spelled `café` composed (NFC) and
    /// decomposed (NFD) each link to their own spelling's page at any job count, as before the
    /// path caches: the caches were keyed by `String`, which takes both spellings as one, so the
    /// first one looked up won (and with several jobs that changed from run to run).
    func testTagsDifferingOnlyInNormalisationKeepTheirOwnLinks() throws {
        let dir = try makeTempDir(self)
        let input = dir.appendingPathComponent("in").path
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        try Data("---\ntitle: A\ntags: [\"caf\u{E9}\"]\n---\nhi\n".utf8).write(to: URL(fileURLWithPath: input + "/a.md"))
        try Data("---\ntitle: B\ntags: [\"cafe\u{301}\"]\n---\nho\n".utf8).write(to: URL(fileURLWithPath: input + "/b.md"))
        for jobs in ["1", "2", "8"] {
            let out = dir.appendingPathComponent("out\(jobs)").path
            let r = try NotepressBinary.run(["convert", input, "-o", out, "-q", "-j", jobs],
                                            environment: ["SOURCE_DATE_EPOCH": "1700000000", "NO_COLOR": "1"])
            XCTAssertEqual(r.status, 0, r.stderr)
            func tagLinks(_ page: String) -> [String] {
                let html = String(decoding: FileManager.default.contents(atPath: out + "/" + page) ?? Data(), as: UTF8.self)
                return html.components(separatedBy: "href=\"tags/").dropFirst().map { String($0.prefix { $0 != "\"" }) }
            }
            XCTAssertEqual(tagLinks("a.html"), ["caf%C3%A9.html"], "-j \(jobs)")
            XCTAssertEqual(tagLinks("b.html"), ["cafe%CC%81.html"], "-j \(jobs)")
            XCTAssertEqual(tagLinks("index.html"), ["caf%C3%A9.html", "cafe%CC%81.html"], "-j \(jobs)")
        }
    }

    /// `index.*` and `README.*` are recognised in any ASCII case, by the stem before the last
    /// extension only; a non-ASCII name is lower-cased by Unicode's rules (`İNDEX` is not
    /// `index`: its lower case is `i̇ndex`).
    func testIndexAndReadmeNamesIgnoreCase() {
        XCTAssertTrue(SitePaths.isIndex("index.md"))
        XCTAssertTrue(SitePaths.isIndex("a/b/INDEX.note"))
        XCTAssertTrue(SitePaths.isIndex("a/Index"))
        XCTAssertTrue(SitePaths.isIndex("index."))
        XCTAssertFalse(SitePaths.isIndex("index.tar.gz"))
        XCTAssertFalse(SitePaths.isIndex(".index"))
        XCTAssertFalse(SitePaths.isIndex("index/a.md"))
        XCTAssertFalse(SitePaths.isIndex("indexes.md"))
        XCTAssertFalse(SitePaths.isIndex("İNDEX.md"))
        XCTAssertFalse(SitePaths.isIndex(""))
        XCTAssertTrue(SitePaths.isReadme("ReadMe.markdown"))
        XCTAssertTrue(SitePaths.isReadme("docs/README.md"))
        XCTAssertFalse(SitePaths.isReadme("docs/READ-ME.md"))
        XCTAssertFalse(SitePaths.isReadme("readme.md/x.md"))
    }

    /// Manifest integers are written in decimal as `"\(v)"` spells them, the extremes included.
    func testManifestWritesIntegersInDecimal() {
        for (v, text) in [(Int64(0), "0"), (7, "7"), (-5, "-5"), (1_796_096_240_311_450_671, "1796096240311450671"),
                          (Int64.max, "9223372036854775807"), (Int64.min, "-9223372036854775808")] {
            var out: [UInt8] = []
            Manifest.appendDecimal(v, to: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), text)
        }
    }

    /// A tag page's entries are made from the notes list's (``HTMLIndex/entryData(_:prefix:reusing:)``)
    /// and the list and tag pages are rendered on their own thread with several jobs: the links of
    /// a tag page one and two folders down still start with `../` and `../../`, and the pages are
    /// the same bytes at `-j 1` and `-j 2`.
    func testTagPagesKeepTheirFolderDepthAndDoNotDependOnJobs() throws {
        let dir = try makeTempDir(self)
        let input = dir.appendingPathComponent("in").path
        let files = [
            "alpha.md": "---\ntags: [Work, \"café/été\"]\ncreated: 2024-05-01\n---\n# Alpha\n\nFirst paragraph.\n",
            "sub/beta.md": "---\ntags: [work]\n---\n# Beta\n\nBeta text.\n",
        ]
        for (name, text) in files {
            let path = input + "/" + name
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        let env = ["SOURCE_DATE_EPOCH": "1700000000", "NO_COLOR": "1"]
        var trees: [[String: Data]] = []
        for jobs in ["1", "2"] {
            let out = dir.appendingPathComponent("out\(jobs)").path
            let r = try NotepressBinary.run(["convert", input, "-o", out, "-q", "-j", jobs], environment: env)
            XCTAssertEqual(r.status, 0, r.stderr)
            var tree: [String: Data] = [:]
            for page in ["index.html", "tags/work.html", "tags/café/été.html"] {
                tree[page] = FileManager.default.contents(atPath: out + "/" + page)
            }
            trees.append(tree)
        }
        XCTAssertEqual(trees[0], trees[1])
        func rows(_ page: String) -> [String] {
            String(decoding: trees[1][page] ?? Data(), as: UTF8.self).components(separatedBy: "\n")
                .filter { $0.hasPrefix("<li class=\"index-entry\">") }
        }
        let alphaTags = { (up: String) in
            " <span class=\"index-tags\"> <a class=\"tag\" dir=\"auto\" href=\"\(up)tags/work.html\">#Work</a>"
                + " <a class=\"tag\" dir=\"auto\" href=\"\(up)tags/caf%C3%A9/%C3%A9t%C3%A9.html\">#café/été</a></span>"
        }
        let alpha = { (up: String) in
            "<li class=\"index-entry\"><a class=\"index-title text-headline letterpress\" dir=\"auto\" href=\"\(up)alpha.html\">Alpha</a>"
                + " <time class=\"index-date\" datetime=\"2024-05-01T00:00:00Z\">1 May 2024</time>" + alphaTags(up)
                + " <p class=\"index-excerpt\" dir=\"auto\">First paragraph.</p></li>"
        }
        XCTAssertEqual(rows("index.html").first, alpha(""))
        XCTAssertEqual(rows("tags/work.html").first, alpha("../"))
        XCTAssertEqual(rows("tags/work.html").count, 2)
        XCTAssertEqual(rows("tags/café/été.html"), [alpha("../../")])
    }
}
