import Foundation
import XCTest
import NotepressTestSupport

/// Issue 45 (MkDocs leftovers, item 7): a MkDocs project's files that are not pages are copied
/// as they are (as `mkdocs build` copies them), and `extra_css` / `extra_javascript` are linked
/// from every page.
final class MkDocsStaticFilesTests: XCTestCase {
    /// Bug: `robots.txt` in docs_dir was converted as a note (a robots.html page, no robots.txt),
    /// `CNAME`, stylesheets and scripts no page linked were not copied, and extra_css /
    /// extra_javascript were ignored.
    func testFilesThatAreNotPagesAreCopiedVerbatimAndExtraAssetsLinked() throws {
        let dir = try makeTempDir(self)
        _ = try writeTestFile("site_name: S\nextra_css:\n  - css/extra.css\nextra_javascript:\n  - js/app.js\n  - path: https://cdn.example.com/x.js\n    defer: true\n",
                              "proj/mkdocs.yml", in: dir)
        _ = try writeTestFile("# Home\n\nHi.\n", "proj/docs/index.md", in: dir)
        _ = try writeTestFile("# Deep\n\nDown.\n", "proj/docs/guide/deep.md", in: dir)
        let robots = "User-agent: *\nDisallow: /private/\n"
        _ = try writeTestFile(robots, "proj/docs/robots.txt", in: dir)
        _ = try writeTestFile("docs.example.com\n", "proj/docs/CNAME", in: dir)
        _ = try writeTestFile("body { color: red; }\n", "proj/docs/css/extra.css", in: dir)
        _ = try writeTestFile("var x = 1;\n", "proj/docs/js/app.js", in: dir)
        let out = dir.appendingPathComponent("out")
        let r = try NotepressBinary.run([dir.appendingPathComponent("proj").path, "-o", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        func file(_ p: String) -> String? { try? String(contentsOf: out.appendingPathComponent(p), encoding: .utf8) }
        XCTAssertEqual(file("robots.txt"), robots)
        XCTAssertNil(file("robots.html"))
        XCTAssertEqual(file("CNAME"), "docs.example.com\n")
        XCTAssertEqual(file("css/extra.css"), "body { color: red; }\n")
        XCTAssertEqual(file("js/app.js"), "var x = 1;\n")
        let index = try XCTUnwrap(file("index.html"))
        XCTAssertTrue(index.contains("<link rel=\"stylesheet\" href=\"css/extra.css\">\n<script src=\"js/app.js\"></script>\n<script src=\"https://cdn.example.com/x.js\"></script>"), index)
        let deep = try XCTUnwrap(file("guide/deep.html"))
        XCTAssertTrue(deep.contains("<link rel=\"stylesheet\" href=\"../css/extra.css\">"), deep)
        XCTAssertTrue(deep.contains("<script src=\"../js/app.js\"></script>"), deep)
        // A plain folder still reads its .txt files as notes.
        _ = try writeTestFile("A note.\n", "plain/notes.txt", in: dir)
        let p = try NotepressBinary.run([dir.appendingPathComponent("plain").path, "-o", dir.appendingPathComponent("pout").path])
        XCTAssertEqual(p.status, 0, p.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("pout/notes.html").path))
    }
}
