import Foundation
import XCTest
import NotepressTestSupport

/// Issue 45 (MkDocs leftovers, item 6): what `mkdocs.yml` asks for and a folder run does not
/// carry out is said at `mkdocs.yml:LINE:COLUMN`, and the forms MkDocs takes are read.
final class MkDocsConfigNoticeTests: XCTestCase {
    static let config = """
    INHERIT: base.yml
    site_name: !ENV [SITE_NAME, "Fallback"]
    defaults: &defaults
      permalink: true
    markdown_extensions:
      toc:
        <<: *defaults
      admonition: {}
    plugins:
      - search
      - blog:
          enabled: true
      - tags

    """

    /// Bug: INHERIT, !ENV, a merge key, plugins not run and a `markdown_extensions:` map were
    /// all silent (the admonition, turned on by the map, was left as text).
    func testUnreadConfigurationIsReportedAndAMapOfExtensionsIsRead() throws {
        let dir = try makeTempDir(self)
        _ = try writeTestFile(Self.config, "proj/mkdocs.yml", in: dir)
        _ = try writeTestFile("# Home\n\n!!! note\n    Inside.\n", "proj/docs/index.md", in: dir)
        let out = dir.appendingPathComponent("out").path
        let r = try NotepressBinary.run([dir.appendingPathComponent("proj").path, "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        for expected in ["mkdocs.yml:1:1: warning: INHERIT:", "mkdocs.yml:2:12: warning: !ENV",
                         "mkdocs.yml:7:5: warning: a YAML merge key (<<) is not read",
                         "mkdocs.yml:11:5: warning: plugin 'blog' is not run", "mkdocs.yml:13:5: warning: plugin 'tags' is not run"] {
            XCTAssertTrue(r.stderr.contains(expected), "\(expected) in \(r.stderr)")
        }
        XCTAssertFalse(r.stderr.contains("plugin 'search'"), r.stderr)
        XCTAssertEqual(r.stderr.components(separatedBy: "plugin 'blog'").count, 2, r.stderr)
        let html = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        XCTAssertTrue(html.contains("markdown-alert-note"), html)
        XCTAssertFalse(html.contains("!!! note"), html)
    }

    /// Bug: PyMdown's block form of snippets (`--8<--` alone, file names, `--8<--`) was left as
    /// text (the markers and the file names shown in the page), without a word.
    func testBlockSnippetsIncludeEachFileNamed() throws {
        let dir = try makeTempDir(self)
        _ = try writeTestFile("site_name: S\nmarkdown_extensions:\n  - pymdownx.snippets\n", "proj/mkdocs.yml", in: dir)
        _ = try writeTestFile("One *a*.\n", "proj/inc/a.md", in: dir)
        _ = try writeTestFile("Two b.\n", "proj/inc/b.md", in: dir)
        _ = try writeTestFile("# Home\n\n--8<--\ninc/a.md\n; a comment\n\ninc/none.md\n\ninc/b.md\n--8<--\n\nAfter.\n", "proj/docs/index.md", in: dir)
        let out = dir.appendingPathComponent("out").path
        let r = try NotepressBinary.run([dir.appendingPathComponent("proj").path, "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("index.md:7:1: warning: --8<-- \"inc/none.md\": no such file"), r.stderr)
        let html = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        XCTAssertTrue(html.contains("<p dir=\"auto\">One <em>a</em>.</p>"), html)
        XCTAssertTrue(html.contains("<p dir=\"auto\">Two b.</p>\n<p dir=\"auto\">After.</p>"), html)
        XCTAssertFalse(html.contains("8&lt;") || html.contains("inc/a.md") || html.contains("a comment"), html)
    }
}
