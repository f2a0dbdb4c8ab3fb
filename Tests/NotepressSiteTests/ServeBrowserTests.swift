import Foundation
import XCTest
import NotepressTestSupport

/// `notepress serve` with a page open in real Chromium (headless, driven over
/// `--remote-debugging-port` by Benchmarks/save_to_reload.py): the page reloads after each save
/// of its note, shows the new text, and keeps its scroll position.
final class ServeBrowserTests: XCTestCase {
    func testAnOpenPageReloadsAfterASaveAndKeepsItsScrollPosition() throws {
        let long = (1...80).map { "Paragraph \($0) of a long note." }.joined(separator: "\n\n")
        let (input, output, _) = try makeSiteFolder(self, ["long.md": "# Long\n\n" + long + "\n", "other.md": "# Other\n"])
        let s = try ServedSite([input, "-o", output, "-q"])
        addTeardownBlock { _ = s.stop(SIGKILL) }
        let r = try runTool("python3", [TestPaths.root.appendingPathComponent("Benchmarks/save_to_reload.py").path,
                                        s.url + "long.html", input + "/long.md", "--rounds", "3", "--scroll", "500"])
        XCTAssertEqual(r.status, 0, r.output)
        let json = try XCTUnwrap(r.output.split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any], r.output)
        XCTAssertEqual(json["reloads"] as? Int, 3, r.output)
        let times = json["times_ms"] as? [Double] ?? []
        XCTAssertEqual(times.count, 3)
        XCTAssertTrue(times.allSatisfy { $0 < 1000 }, "save to reload took \(times) ms")
        XCTAssertEqual(json["scroll_before"] as? Int, 500)
        XCTAssertEqual(json["scroll_after"] as? [Int], [500, 500, 500], "the reloaded page keeps its scroll position: \(r.output)")
        XCTAssertEqual(json["saved_text_shown"] as? Bool, true, "the reloaded page shows the saved text")
        XCTAssertEqual(s.stop(), 0)
    }
}
