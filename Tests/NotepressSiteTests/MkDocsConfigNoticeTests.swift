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
}
