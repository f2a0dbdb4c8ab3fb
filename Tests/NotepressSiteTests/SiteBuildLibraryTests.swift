import Foundation
import XCTest
import NotepressTestSupport
@testable import Notepress
@testable import NotepressSite

/// The site build as a library call (``SiteBuild``), without the command line (issue 51 item 1):
/// pages written, what the report counts, what the observer is told.
final class SiteBuildLibraryTests: XCTestCase {
    /// Records what a build tells.
    final class Recorder: SiteBuildObserver, @unchecked Sendable {
        private let lock = NSLock()
        private(set) var total = -1
        private(set) var done: [String] = []
        private(set) var messages: [SiteBuildMessage] = []
        private(set) var finished = false
        func willConvert(total: Int) { self.total = total }
        func converted(_ status: FileOutcome.Status, path: String) {
            lock.lock(); done.append(status.rawValue + " " + PathText.lastComponent(path)); lock.unlock()
        }
        func didConvert() { finished = true }
        func tell(_ message: SiteBuildMessage) { messages.append(message) }
    }

    private func request(_ notes: String, _ out: String) -> SiteBuildRequest {
        var options = ConversionOptions()
        options.width = 80
        let loader = DocumentLoader(sourceDateEpoch: Date(timeIntervalSince1970: 1_700_000_000))
        var r = SiteBuildRequest(inputs: [notes], output: out, loader: loader, writers: [HTMLWriter()], options: options,
                                 version: "test")
        r.jobs = 2
        r.keepForExit = false
        return r
    }

    func testSiteBuildWritesPagesAndCountsThemWithoutTheCommandLine() throws {
        let dir = try makeTempDir(self)
        _ = try writeTestFile("# Alpha\n\nSee [[beta]] and [gone](missing.md).\n", "notes/alpha.md", in: dir)
        _ = try writeTestFile("# Beta\n\nBack to [[alpha]].\n", "notes/beta.md", in: dir)
        _ = try writeTestFile("not a note\n", "notes/data.bin", in: dir)
        let notes = dir.appendingPathComponent("notes").path, out = dir.appendingPathComponent("site").path
        let recorder = Recorder()
        let report = try SiteBuild.run(request(notes, out), observer: recorder)
        XCTAssertEqual(report.converted, 2)
        XCTAssertEqual(report.unchanged, 0)
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.brokenLinks, 1, "missing.md")
        XCTAssertFalse(report.failed, "a broken link fails only with strictLinks")
        XCTAssertGreaterThan(report.written, 2, "two pages and the site pages")
        for page in ["alpha.html", "beta.html", "index.html", Manifest.fileName] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/" + page), page)
        }
        let alpha = try String(contentsOfFile: out + "/alpha.html", encoding: .utf8)
        XCTAssertTrue(alpha.contains("href=\"beta.html\""), "the wiki link resolved against the site table")
        XCTAssertEqual(recorder.total, 2)
        XCTAssertEqual(recorder.done.sorted(), ["converted alpha.md", "converted beta.md"])
        XCTAssertTrue(recorder.finished)
        XCTAssertTrue(recorder.messages.contains { if case .note(let t) = $0 { return t.contains("missing.md") } else { return false } },
                      "the link report is told: \(recorder.messages)")

        // Again: nothing changed, nothing written; with strictLinks the broken link fails the run.
        var strict = request(notes, out)
        strict.strictLinks = true
        let again = try SiteBuild.run(strict)
        XCTAssertEqual(again.converted, 0)
        XCTAssertEqual(again.unchanged, 2)
        XCTAssertEqual(again.written, 0)
        XCTAssertTrue(again.failed)
        XCTAssertEqual(again.brokenLinkErrors.count, 1)
        XCTAssertTrue(again.brokenLinkErrors[0].contains(": error: "), again.brokenLinkErrors[0])
    }

    func testSiteBuildRefusesAnOutputFolderInsideTheInput() throws {
        let dir = try makeTempDir(self)
        _ = try writeTestFile("# Alpha\n", "notes/alpha.md", in: dir)
        let notes = dir.appendingPathComponent("notes").path
        XCTAssertThrowsError(try SiteBuild.run(request(notes, notes + "/site"))) { error in
            XCTAssertTrue(error is SiteBuildRefusal, "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: notes + "/site/alpha.html"))
    }
}
