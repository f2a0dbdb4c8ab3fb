import Foundation
import XCTest
import NotepressTestSupport
@testable import NotepressSite
@testable import NotepressCLI

/// Issue 30, item 7, each through the real binary.
final class BuildScriptSmallFaultsTests: XCTestCase {
    /// `-o file.txt` on a folder made a folder named `file.txt` and exited 0.
    func testOutputFileNameForAFolderIsAUsageError() throws {
        let (input, _, dir) = try makeSiteFolder(self, ["a.md": "# A\n"])
        let r = try NotepressBinary.run(["convert", input, "-o", dir + "/file.txt"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("-o \(dir)/file.txt looks like a file name; converting a folder needs an output folder"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/file.txt"))
        // A trailing slash asks for that folder.
        let ok = try NotepressBinary.run(["convert", input, "-o", dir + "/file.txt/", "-q"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/file.txt/a.html"))
    }

    /// An output folder `_site` inside the input folder was refused even when excluded.
    func testOutputFolderInsideTheInputIsAllowedWhenExcluded() throws {
        let (input, _, _) = try makeSiteFolder(self, ["a.md": "# A\n", "b/c.md": "# C\n"])
        let site = input + "/_site"
        let refused = try NotepressBinary.run(["convert", input, "-o", site])
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("is inside the input folder"), refused.stderr)
        let r = try NotepressBinary.run(["convert", input, "-o", site, "--exclude", "_site", "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: site + "/b/c.html"))
        // Again (now _site holds pages): still nothing of _site is read as input.
        try Data("_site/\n".utf8).write(to: URL(fileURLWithPath: input + "/.notepressignore"))
        let again = try NotepressBinary.run(["convert", input, "-o", site, "-v"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: site + "/_site"), again.stderr)
        XCTAssertTrue(again.stderr.contains("converted 0, skipped 2 (unchanged)"), again.stderr)
    }

    /// A newline in a file name split the one-line messages: it is written `\n`.
    func testNewlineInAFileNameIsEscapedInMessages() throws {
        let (input, out, _) = try makeSiteFolder(self, ["good.md": "# G\n"])
        try Data([0x61, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: input + "/x\ny.md"))
        let r = try NotepressBinary.run(["convert", input, "-o", out, "-v"])
        XCTAssertEqual(r.status, 1, r.stderr)
        let lines = r.stderr.components(separatedBy: "\n")
        XCTAssertTrue(lines.contains("  \(input)/x\\ny.md:1:2: error: invalid UTF-8 (byte 0xFF); convert the file to UTF-8 or name its encoding (--encoding)"),
                      r.stderr)
        XCTAssertTrue(lines.contains("failed \(input)/x\\ny.md"), r.stderr)
        XCTAssertFalse(lines.contains { $0 == "y.md" || $0.hasPrefix("y.md:") }, r.stderr)
    }

    /// The progress bar flooded terminals narrower than ~55 columns (each redraw wrapped and
    /// scrolled). In tmux at 40 columns the bar stays on one line shorter than the terminal.
    func testProgressBarFitsAFortyColumnTerminal() throws {
        let (input, out, dir) = try makeSiteFolder(self, ["n.md": "# N\n"])
        for i in 0..<1500 { try Data("# N\(i)\n".utf8).write(to: URL(fileURLWithPath: "\(input)/n\(i).md")) }
        let q = { (s: String) in "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let done = dir + "/done"
        let session = try TmuxSession(width: 40, height: 20, command:
            "\(q(NotepressBinary.url.path)) convert \(q(input)) -o \(q(out)) -j 1; echo rc=$? > \(q(done)); sleep 60")
        defer { session.kill() }
        var seenBar = false
        let deadline = Date(timeIntervalSinceNow: 600)  // only a hung run reaches it
        while !FileManager.default.fileExists(atPath: done) && Date() < deadline {
            let lines = session.lines()
            if lines.contains(where: { $0.hasPrefix("[") }) { seenBar = true }
            XCTAssertLessThanOrEqual(lines.filter { $0.hasPrefix("[") || $0.contains("files") }.count, 1, lines.joined(separator: "\n"))
            XCTAssertTrue(lines.filter { $0.hasPrefix("[") }.allSatisfy { $0.count < 40 }, lines.joined(separator: "\n"))
            usleep(50_000)
        }
        let lines = try session.waitForLines { $0.contains { $0.contains("output in") } }
        XCTAssertEqual(try String(contentsOfFile: done, encoding: .utf8), "rc=0\n")
        XCTAssertTrue(seenBar, "the bar was drawn: \(lines)")
        // The bar's line, then the summary (wrapped by the terminal: it is long): no stack of bars.
        XCTAssertEqual(lines.filter { $0.hasPrefix("[") }.count, 1, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains { $0.hasPrefix("[") && $0.hasSuffix("1501/1501  0:00 left") && $0.count == 39 }, lines.joined(separator: "\n"))
        XCTAssertEqual(ProgressReporter.bar(done: 5, total: 3000, elapsed: 1, width: 40).count, 39)
        XCTAssertEqual(ProgressReporter.bar(done: 5, total: 3000, elapsed: 1, width: 12), "5/3000")
    }
}
