import Foundation
import XCTest
import NotepressTestSupport

/// `feed.xml` (with `--base-url`): the newest pages, whatever their place in the folder.
final class FeedOrderTests: XCTestCase {
    /// Issue 52 item 3: the feed took its first N pages (in path order) and sorted those, so with
    /// `--feed-size 2` the newest post, last by name, was missing and `<updated>` went back years.
    func testFeedSizeTwoKeepsTheNewestPostsWhereverTheyAre() throws {
        let site = try makeSiteFolder(self, [
            "index.md": "# Home\n",
            "a-old.md": "---\ncreated: 2019-03-01\n---\n# Old\n",
            "b-older.md": "---\ncreated: 2018-01-01\n---\n# Older\n",
            "m-middle.md": "---\ncreated: 2024-02-01\n---\n# Middle\n",
            "z-newest.md": "---\ncreated: 2025-06-30\n---\n# Newest\n",
        ])
        // The undated home page takes SOURCE_DATE_EPOCH's date (2017), older than every post.
        let r = try NotepressBinary.run(["convert", site.input, "-o", site.output, "-q",
                                         "--base-url", "https://example.org/", "--feed-size", "2"],
                                        environment: ["SOURCE_DATE_EPOCH": "1500000000"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let feed = try String(contentsOfFile: site.output + "/feed.xml", encoding: .utf8)
        let entries = feed.components(separatedBy: "<entry>").dropFirst().map { e -> String in
            let t = e.range(of: "<title>")!.upperBound
            return String(e[t...].prefix { $0 != "<" })
        }
        XCTAssertEqual(entries, ["Newest", "Middle"], feed)
        let head = feed.components(separatedBy: "<entry>")[0]
        XCTAssertTrue(head.contains("<updated>2025-06-30T00:00:00Z</updated>"), "the feed's own date is the newest post's: \(head)")
    }
}
