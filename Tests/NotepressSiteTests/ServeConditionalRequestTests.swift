import Foundation
import XCTest
import NotepressTestSupport

/// `notepress serve` and the browser's cache: a served page's bytes depend on the build (its
/// generation, the error overlay), so its validator must change with the build, not only with the
/// file on disk.
final class ServeConditionalRequestTests: XCTestCase {
    /// Issue 52 item 7: the page's ETag ignored the build generation, so after a failed build
    /// (the page's file unchanged on disk) a browser revalidating with `If-None-Match` got 304
    /// and kept showing the page without the error overlay.
    func testFailedBuildChangesThePagesETagSoTheBrowserGetsTheOverlay() throws {
        let (input, output, _) = try makeSiteFolder(self, ["index.md": "# Home\n", "other.md": "# Other\n\nFirst text.\n"])
        let s = try ServedSite([input, "-o", output, "-q"])
        addTeardownBlock { _ = s.stop(SIGKILL) }
        let first = try s.get("/other.html")
        XCTAssertEqual(first.status, 200)
        XCTAssertFalse(first.body.contains("notepress-error-overlay"))
        let tag = try XCTUnwrap(Self.header(first, "ETag"), first.headers)
        XCTAssertEqual(try s.get("/other.html", ["-H", "If-None-Match: \(tag)"]).status, 304, "unchanged: the cache is used")
        // A note that does not convert: the build fails, other.html stays as it is on disk.
        let onDisk = FileManager.default.contents(atPath: output + "/other.html")
        var bad = Data("# Bad\n\nab".utf8)
        bad.append(0xFF)
        bad.append(contentsOf: Array("cd\n".utf8))
        try bad.write(to: URL(fileURLWithPath: input + "/bad.md"))
        // Waited for as the browser sees it (the overlay served), with a bound only a hung server reaches.
        XCTAssertNotNil(try s.waitFor("/other.html", seconds: 60) { $0.body.contains("notepress-error-overlay") }, s.stderr)
        XCTAssertEqual(FileManager.default.contents(atPath: output + "/other.html"), onDisk, "the page's file is unchanged")
        // The browser revalidates with the ETag it has: the page has changed for it.
        let again = try s.get("/other.html", ["-H", "If-None-Match: \(tag)"])
        XCTAssertEqual(again.status, 200, "a 304 keeps the page without the error in the browser")
        XCTAssertTrue(again.body.contains("notepress-error-overlay"), again.body)
        XCTAssertNotEqual(Self.header(again, "ETag"), tag)
    }

    /// The value of header `name` in `r`, if any.
    static func header(_ r: ServedSite.Response, _ name: String) -> String? {
        r.headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }
}
