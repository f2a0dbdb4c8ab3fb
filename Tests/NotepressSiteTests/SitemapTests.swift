import Foundation
@testable import NotepressSite
import XCTest
import NotepressTestSupport

/// Issue 46 item 6: a sitemap index past 50 000 URLs (or 50 MiB), and `lastmod` and the Atom
/// feed's `updated` from `updated`/`modified` front matter (else the note's date).
///
/// The 50 001-URL case through the binary is in `make bench` (Benchmarks/run --only site-scale
/// builds 100 000 notes with --base-url and checks the index); a folder that large is too slow
/// for the test suite, and the binary has no switch to lower the limit, so the splitting is
/// tested here on ``SiteFeeds/sitemaps(_:baseURL:urlLimit:byteLimit:)`` with small limits.
final class SitemapTests: XCTestCase {
    /// The protocol's rules for a sitemap index (sitemaps.org 0.9) as a schema.
    static let indexSchema = """
    <?xml version="1.0" encoding="UTF-8"?>
    <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://www.sitemaps.org/schemas/sitemap/0.9"
      xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" elementFormDefault="qualified">
      <xs:element name="sitemapindex"><xs:complexType><xs:sequence>
        <xs:element name="sitemap" maxOccurs="50000"><xs:complexType><xs:sequence>
          <xs:element name="loc" type="xs:anyURI"/>
          <xs:element name="lastmod" minOccurs="0"><xs:simpleType><xs:union memberTypes="xs:date xs:dateTime"/></xs:simpleType></xs:element>
        </xs:sequence></xs:complexType></xs:element>
      </xs:sequence></xs:complexType></xs:element>
    </xs:schema>
    """

    func testPastTheURLLimitTheSitemapIsAnIndexOfFilesWithinTheLimit() throws {
        let urls: [(loc: String, lastmod: String?)] = (1...7).map { ("https://example.org/n\($0).html", $0 == 5 ? "2024-03-0\($0)T00:00:00Z" : nil) }
        let files = SiteFeeds.sitemaps(urls, baseURL: "https://example.org/", urlLimit: 3, byteLimit: SiteFeeds.sitemapByteLimit)
        XCTAssertEqual(files.map(\.path), ["sitemap.xml", "sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml"])
        let text = files.map { String(decoding: $0.bytes, as: UTF8.self) }
        guard text.count == 4 else { return }
        XCTAssertTrue(text[0].contains("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"), text[0])
        XCTAssertTrue(text[0].contains("<sitemap><loc>https://example.org/sitemap-1.xml</loc></sitemap>\n"
                                       + "<sitemap><loc>https://example.org/sitemap-2.xml</loc><lastmod>2024-03-05T00:00:00Z</lastmod></sitemap>"), text[0])
        XCTAssertEqual(text[1...].map { $0.components(separatedBy: "<url>").count - 1 }, [3, 3, 1])
        XCTAssertTrue(text[3].contains("<url><loc>https://example.org/n7.html</loc></url>"))
        let dir = try makeTempDir(self)
        let xsd = dir.appendingPathComponent("index.xsd").path
        try Self.indexSchema.write(toFile: xsd, atomically: true, encoding: .utf8)
        try Data(files[0].bytes).write(to: dir.appendingPathComponent("sitemap.xml"))
        let lint = try runTool("xmllint", ["--noout", "--schema", xsd, dir.appendingPathComponent("sitemap.xml").path])
        XCTAssertEqual(lint.status, 0, lint.output)

        // Exactly at the limit: one file; by bytes: a new file before the limit is passed.
        XCTAssertEqual(SiteFeeds.sitemaps(Array(urls.prefix(3)), baseURL: "https://example.org/", urlLimit: 3, byteLimit: 1 << 20).map(\.path), ["sitemap.xml"])
        let small = SiteFeeds.sitemaps(urls, baseURL: "https://example.org/", urlLimit: 50_000, byteLimit: 300)
        XCTAssertGreaterThan(small.count, 2)
        for f in small.dropFirst() { XCTAssertLessThanOrEqual(f.bytes.count, 300) }
        XCTAssertEqual(SiteFeeds.sitemapURLLimit, 50_000)
    }

    /// `lastmod` and the feed's `updated` come from `updated:`/`modified:`/`lastmod:` (the
    /// feed's own `updated` the latest of its entries'); a note without them whose file is older
    /// than its date (SOURCE_DATE_EPOCH caps the file times here) keeps its date.
    func testLastmodAndFeedUpdatedComeFromUpdatedOrModifiedFrontMatter() throws {
        let site = try makeSiteFolder(self, [
            "index.md": "---\ncreated: 2020-01-01\n---\n# Home\n",
            "a.md": "---\ncreated: 2024-05-01\nupdated: 2025-02-03\n---\n# Alpha\n",
            "b.md": "---\ncreated: 2024-06-01\nmodified: 2024-07-09T10:00:00Z\n---\n# Beta\n",
            "c.md": "---\ncreated: 2023-01-01\nlastmod: 2023-02-02\n---\n# Gamma\n",
            "d.md": "---\ncreated: 2022-01-01\n---\n# Delta\n",
            "e.tid": "created: 20210101000000000\nmodified: 20250301120000000\ntitle: Epsilon\n\nText.\n",
            // Every spelling of the field (audit: `date modified`, Obsidian's, went unread).
            "f.md": "---\ncreated: 2020-01-01\nlast_modified_at: 2021-04-04\n---\n# F\n",
            "g.md": "---\ncreated: 2020-01-01\ndate modified: 2021-05-05\n---\n# G\n",
            "h.md": "---\ncreated: 2020-01-01\ndateModified: 2021-06-06\n---\n# H\n",
        ])
        let r = try NotepressBinary.run(["convert", site.input, "-o", site.output, "-q", "--base-url", "https://example.org/"],
                                        environment: ["SOURCE_DATE_EPOCH": "1500000000"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let sitemap = try String(contentsOfFile: site.output + "/sitemap.xml", encoding: .utf8)
        for (page, date) in [("a", "2025-02-03T00:00:00Z"), ("b", "2024-07-09T10:00:00Z"), ("c", "2023-02-02T00:00:00Z"),
                             ("d", "2022-01-01T00:00:00Z"), ("e", "2025-03-01T12:00:00Z"), ("f", "2021-04-04T00:00:00Z"),
                             ("g", "2021-05-05T00:00:00Z"), ("h", "2021-06-06T00:00:00Z")] {
            XCTAssertTrue(sitemap.contains("<url><loc>https://example.org/\(page).html</loc><lastmod>\(date)</lastmod></url>"), "\(page): \(sitemap)")
        }
        XCTAssertTrue(sitemap.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset "), "one file below the limit")
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.output + "/sitemap-1.xml"))
        let feed = try String(contentsOfFile: site.output + "/feed.xml", encoding: .utf8)
        XCTAssertTrue(feed.contains("<generator>Notepress</generator>"))
        XCTAssertTrue(feed.contains("<link rel=\"alternate\" type=\"text/html\" href=\"https://example.org/\"/>\n<updated>2025-03-01T12:00:00Z</updated>"), feed)
        XCTAssertTrue(feed.contains("<id>https://example.org/a.html</id>\n<link rel=\"alternate\" type=\"text/html\" href=\"https://example.org/a.html\"/>\n<updated>2025-02-03T00:00:00Z</updated>"), feed)
        XCTAssertTrue(feed.contains("href=\"https://example.org/d.html\"/>\n<updated>2022-01-01T00:00:00Z</updated>"), feed)
    }
}
