import Foundation
import XCTest
import NotepressTestSupport

/// Issue 47 item 4: an "Edit this page" link on each HTML page of a folder run, to the page's
/// source: `--edit-url URL` (`{path}` the input's path below the input folder), else a MkDocs
/// project's `repo_url` + `edit_uri` (or `edit_uri_template`), else an mdBook book's
/// `[output.html] edit-url-template` (`{path}` from the book's root: `src/…`), as those tools make it.
final class EditLinkTests: XCTestCase {
    /// The `href` of the page's edit link, or `nil` when it has none.
    func editHref(_ page: String, file: StaticString = #filePath, line: UInt = #line) throws -> String? {
        let html = try String(contentsOfFile: page, encoding: .utf8)
        guard let r = html.range(of: "<p class=\"note-edit\"><a href=\"") else { return nil }
        XCTAssertTrue(html[r.upperBound...].contains("\">Edit this page</a></p>"), file: file, line: line)
        return String(html[r.upperBound...].prefix { $0 != "\"" })
    }

    func testEditURLPutsAnEditLinkOnEachPage() throws {
        let site = try makeSiteFolder(self, ["index.md": "# Home\n", "guide/setup notes.md": "# Setup\n"])
        let r = try NotepressBinary.run(["convert", site.input, "-o", site.output, "-q",
                                         "--edit-url", "https://git.example.org/o/r/-/edit/main/docs/{path}?plain=1"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try editHref(site.output + "/index.html"), "https://git.example.org/o/r/-/edit/main/docs/index.md?plain=1")
        XCTAssertEqual(try editHref(site.output + "/guide/setup notes.html"),
                       "https://git.example.org/o/r/-/edit/main/docs/guide/setup%20notes.md?plain=1")
        // No {path}: the path is appended. No option: no link. Not a URL: a usage error.
        let out2 = site.dir + "/out2"
        XCTAssertEqual(try NotepressBinary.run(["convert", site.input, "-o", out2, "-q", "--edit-url", "https://e.org/edit/"]).status, 0)
        XCTAssertEqual(try editHref(out2 + "/index.html"), "https://e.org/edit/index.md")
        let out3 = site.dir + "/out3"
        XCTAssertEqual(try NotepressBinary.run(["convert", site.input, "-o", out3, "-q"]).status, 0)
        XCTAssertNil(try editHref(out3 + "/index.html"))
        let bad = try NotepressBinary.run(["convert", site.input, "-o", site.dir + "/out4", "--edit-url", "javascript:alert(1)"])
        XCTAssertEqual(bad.status, 2, bad.stderr)
    }

    func testEditURLFromMkDocsRepoURLAndEditURI() throws {
        let dir = try makeTempDir(self)
        _ = try writeTestFile("site_name: P\nrepo_url: https://github.com/o/r\nedit_uri: blob/main/docs/\n", "proj/mkdocs.yml", in: dir)
        _ = try writeTestFile("# Home\n", "proj/docs/index.md", in: dir)
        _ = try writeTestFile("# Page\n", "proj/docs/sub/page.md", in: dir)
        let out = dir.appendingPathComponent("out").path
        let r = try NotepressBinary.run(["convert", dir.appendingPathComponent("proj").path, "-o", out, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try editHref(out + "/sub/page.html"), "https://github.com/o/r/blob/main/docs/sub/page.md")
        // GitHub without edit_uri: MkDocs' default, edit/master/docs/.
        _ = try writeTestFile("site_name: P\nrepo_url: https://github.com/o/r/\n", "proj/mkdocs.yml", in: dir)
        let out2 = dir.appendingPathComponent("out2").path
        XCTAssertEqual(try NotepressBinary.run(["convert", dir.appendingPathComponent("proj").path, "-o", out2, "-q"]).status, 0)
        XCTAssertEqual(try editHref(out2 + "/index.html"), "https://github.com/o/r/edit/master/docs/index.md")
    }

    func testEditURLFromMdBookEditURLTemplate() throws {
        let dir = try makeTempDir(self)
        _ = try writeTestFile("[book]\ntitle = \"B\"\nsrc = \"src\"\n\n[output.html]\nedit-url-template = \"https://github.com/o/r/edit/main/guide/{path}\"\n",
                              "book/book.toml", in: dir)
        _ = try writeTestFile("# Summary\n\n- [Intro](intro.md)\n", "book/src/SUMMARY.md", in: dir)
        _ = try writeTestFile("# Intro\n", "book/src/intro.md", in: dir)
        let out = dir.appendingPathComponent("out").path
        let r = try NotepressBinary.run(["convert", dir.appendingPathComponent("book").path, "-o", out, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        // The first chapter is the book's index.html, as mdBook writes it.
        XCTAssertEqual(try editHref(out + "/index.html"), "https://github.com/o/r/edit/main/guide/src/intro.md")
    }
}
