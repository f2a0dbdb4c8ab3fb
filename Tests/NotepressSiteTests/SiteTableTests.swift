import Foundation
import XCTest
import NotepressTestSupport
@testable import Notepress
@testable import NotepressSite
import NotepressAST

/// The site table's JSON Lines form, its order and merging, the resolver's rules, and the
/// manifest lines that carry site digests and assets.
final class SiteTableTests: XCTestCase {
    func page(_ path: String, ids: [String] = [], links: [SiteLinkRecord] = []) -> SiteRecord {
        var r = SiteRecord(path: path, kind: .page)
        r.format = .gfm
        r.title = "T"
        r.titleSource = .firstHeading
        r.ids = ids
        r.links = links
        return r
    }

    /// The documented line shape, key order and escaping, byte for byte.
    func testRecordLineIsCanonical() {
        var r = page("a/b \"q\".md", ids: ["x", "y-1"], links: [SiteLinkRecord(kind: .wiki, target: "N#H", line: 3, column: 5)])
        r.created = "2024-05-01T00:00:00Z"
        r.tags = ["t\tab"]
        r.fields = ["z": "1", "a": "é"]
        r.anchors = ["k"]
        r.excerpt = "Line\none"
        r.manName = "b"
        r.manSection = "1"
        XCTAssertEqual(String(decoding: SiteTableCodec.line(r), as: UTF8.self),
            #"{"path":"a/b \"q\".md","kind":"page","format":"gfm","title":"T","titleSource":"firstHeading","created":"2024-05-01T00:00:00Z","tags":["t\tab"],"fields":{"a":"é","z":"1"},"ids":["x","y-1"],"anchors":["k"],"links":[{"kind":"wiki","target":"N#H","line":3,"column":5}],"excerpt":"Line\none","man":{"name":"b","section":"1"}}"#)
        XCTAssertEqual(String(decoding: SiteTableCodec.line(SiteRecord(path: "i.png", kind: .file)), as: UTF8.self),
                       #"{"path":"i.png","kind":"file"}"#)
    }

    /// Tables of disjoint input sets merge by concatenation and a byte sort of the lines (what
    /// `LC_ALL=C sort` does): the result is the table of all the records, byte for byte.
    func testConcatenatedAndSortedTablesEqualTheWholeTable() throws {
        let records = [page("b.md"), page("a b.md"), page("a.md"), page("a/c.md"), SiteRecord(path: "a!.png", kind: .file)]
        let whole = SiteTableCodec.encode(SiteTable(records: records))
        let left = SiteTableCodec.encode(SiteTable(records: Array(records[..<2])))
        let right = SiteTableCodec.encode(SiteTable(records: Array(records[2...])))
        let lines = String(decoding: left + right, as: UTF8.self).split(separator: "\n").map { Array($0.utf8) }
        let merged = lines.sorted { $0.lexicographicallyPrecedes($1) }.map { String(decoding: $0, as: UTF8.self) + "\n" }.joined()
        XCTAssertEqual(merged, String(decoding: whole, as: UTF8.self))
        // "a b.md" sorts before "a!.png" and "a.md" by the line (space < `!` < `.`).
        XCTAssertEqual(SiteTable(records: records).records.map(\.path), ["a b.md", "a!.png", "a.md", "a/c.md", "b.md"])
        let decoded = try XCTUnwrap(SiteTableCodec.decode(whole))
        XCTAssertEqual(decoded, SiteTable(records: records))
        XCTAssertNil(SiteTableCodec.decode(Array("{\"path\":1}\n".utf8)), "a record without a kind is malformed")
    }

    /// README → index unless the folder has index.*; folder index look-ups.
    func testOutputStemsAndFolderIndexPages() {
        let t = SiteTable(records: [page("README.md"), page("a/Readme.md"), page("b/index.md"), page("b/README.md"), page("c/x.md")])
        XCTAssertEqual(t.outputStem("README.md"), "index")
        XCTAssertEqual(t.outputStem("a/Readme.md"), "a/index")
        XCTAssertEqual(t.outputStem("b/index.md"), "b/index")
        XCTAssertEqual(t.outputStem("b/README.md"), "b/README")
        XCTAssertEqual(t.indexPage(ofFolder: "b")?.path, "b/index.md")
        XCTAssertNil(t.indexPage(ofFolder: "c"))
        XCTAssertTrue(t.rootHasIndexPage)
    }

    /// Wiki links: case-insensitive, an exact-case match first, then the shortest path; paths;
    /// folders; fragments slugged; images embeds prefer files.
    func testWikiLinkResolutionRules() {
        let t = SiteTable(records: [
            page("x/Todo.md", ids: ["part-two"]), page("x/y/todo.md"), page("todo/index.md"), page("a/b/c.md"),
            SiteRecord(path: "img/todo.png", kind: .file),
        ])
        let r = SiteResolver(table: t)
        func target(_ s: String, _ kind: SiteLinkRecord.Kind = .wiki, from: String = "a/b/c.md") -> String {
            switch r.resolve(kind, s, from: from).target {
            case .page(let i), .file(let i): return t.records[i].path
            case .external: return "external"
            case .none: return "none"
            }
        }
        XCTAssertEqual(target("todo"), "x/y/todo.md", "exact case wins over the shorter x/Todo.md")
        XCTAssertEqual(target("TODO"), "x/Todo.md", "no exact case: the shortest path")
        XCTAssertEqual(target("y/todo"), "x/y/todo.md")
        XCTAssertEqual(target("/x/Todo"), "x/Todo.md")
        XCTAssertEqual(target("../../x/y/todo.md"), "x/y/todo.md")
        XCTAssertEqual(target("todo.png", .wikiImage), "img/todo.png")
        XCTAssertEqual(target("nope"), "none")
        let section = r.resolve(.wiki, "Todo#Part Two", from: "a/b/c.md")
        XCTAssertEqual(section.id, "part-two")
        XCTAssertNil(section.problem)
        XCTAssertEqual(r.resolve(.wiki, "Todo#Nope", from: "a/b/c.md").problem, "wiki link '[[Todo#Nope]]': no heading 'Nope' in x/Todo.md")
        // A folder with an index page, by name, when no page has the name.
        let u = SiteTable(records: [page("notes/index.md"), page("a.md")])
        XCTAssertEqual(SiteResolver(table: u).resolve(.wiki, "notes", from: "a.md").target, .page(u.byPath["notes/index.md"]!))
    }

    /// Standard links: external ones are not checked; `..` may not leave the input folder.
    func testStandardLinkResolution() {
        let t = SiteTable(records: [page("a/b.md", ids: ["h"]), page("c.md")])
        let r = SiteResolver(table: t)
        XCTAssertEqual(r.resolve(.link, "https://x.org/a.md", from: "c.md"), .external)
        XCTAssertEqual(r.resolve(.link, "mailto:a@b", from: "c.md"), .external)
        XCTAssertEqual(r.resolve(.link, "a/b.md#h", from: "c.md").id, "h")
        XCTAssertEqual(r.resolve(.link, "/a/b.md", from: "a/b.md").target, .page(t.byPath["a/b.md"]!), "a leading / is the input folder")
        XCTAssertEqual(r.resolve(.link, "../../x.md", from: "a/b.md").problem, "link to '../../x.md': outside the input folder; not copied")
        XCTAssertEqual(r.resolve(.link, "a/", from: "c.md").problem, "link to 'a/': folder a has no index page (index or README)")
        XCTAssertEqual(r.resolve(.image, "i.gif", from: "c.md").problem, "image 'i.gif': no such file i.gif")
    }

    func testRelativePaths() {
        XCTAssertEqual(SitePaths.relative(fromFolder: "", to: "a/b.html"), "a/b.html")
        XCTAssertEqual(SitePaths.relative(fromFolder: "a/b", to: "a/c/d.html"), "../c/d.html")
        XCTAssertEqual(SitePaths.relative(fromFolder: "ab", to: "a/x.html"), "../a/x.html")
        XCTAssertEqual(SitePaths.relative(fromFolder: "user/features", to: "assets/images/x.png"), "../../assets/images/x.png")
        XCTAssertEqual(SitePaths.resolve("../x/./y.md", inFolder: "a/b"), "a/x/y.md")
        XCTAssertNil(SitePaths.resolve("../../../y.md", inFolder: "a/b"))
    }

    /// Manifest format 3: the site digest on E lines and A lines for assets round-trip.
    func testManifestKeepsSiteDigestsAndAssets() {
        let m = Manifest(entries: ["a.md": .init(inputSHA256: "1", modified: nil, configSHA256: "2", outputs: [], title: nil, created: nil,
                                                 siteSHA256: "ff")],
                         assets: ["img/d.png": .init(output: .init(path: "img/d.png", sha256: "-", size: 3, mtimeNanoseconds: 9),
                                                     source: "img/d.png", sourceSize: 3, sourceMtimeNanoseconds: 7)])
        let text = String(decoding: m.encoded(), as: UTF8.self)
        XCTAssertEqual(text, "notepress-manifest\t3\nE\ta.md\t1\t-\t2\t-\t-\t-\t-\tff\nA\timg/d.png\t-\t3\t9\timg/d.png\t3\t7\n")
        XCTAssertEqual(m.encoded().withUnsafeBufferPointer { Manifest.decode($0) }, m)
    }
}
