import Foundation
import XCTest
import NotepressTestSupport

/// fuzz-site seed 1006789: an input that failed kept no manifest entry, so the outputs it had in
/// the folder (from an earlier run, or written before the writer that failed) were unknown to
/// `--prune` and stayed published after the input was deleted.
final class FailedInputPruneTests: XCTestCase {
    func testPruneRemovesOutputsOfAnInputThatFailedBeforeItWasDeleted() throws {
        let d = try makeTempDir(self)
        let notes = d.appendingPathComponent("notes"), out = d.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        let a = notes.appendingPathComponent("a.md")
        try Data("# A\n".utf8).write(to: a)
        try Data("# B\n".utf8).write(to: notes.appendingPathComponent("b.md"))
        let first = try NotepressBinary.run(["convert", notes.path, "-o", out.path, "-t", "html,json"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let page = out.appendingPathComponent("a.html").path, dump = out.appendingPathComponent("a.json").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: page))
        // The input breaks: the run fails it and keeps its old outputs (nothing is lost)…
        try Data([0x23, 0x20, 0xFF, 0x0A]).write(to: a)
        let broken = try NotepressBinary.run(["convert", notes.path, "-o", out.path, "-t", "html,json"])
        XCTAssertEqual(broken.status, 1, broken.stderr)
        XCTAssertTrue(broken.stderr.contains("invalid UTF-8"), broken.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: page))
        // …and once it is deleted, --prune removes them.
        try FileManager.default.removeItem(at: a)
        let pruned = try NotepressBinary.run(["convert", notes.path, "-o", out.path, "-t", "html,json", "--prune"])
        XCTAssertEqual(pruned.status, 0, pruned.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: page), "a.html of the deleted input is still published")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dump), "a.json of the deleted input is still published")
        XCTAssertTrue(pruned.stderr.contains("removed \(page)"), pruned.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("b.html").path))
    }

    /// A failed input is converted again on the next run (its entry has no hashes), and once
    /// fixed it is written and then skipped like any other.
    func testFailedInputIsConvertedAgainUntilFixed() throws {
        let d = try makeTempDir(self)
        let notes = d.appendingPathComponent("notes"), out = d.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        let a = notes.appendingPathComponent("a.md")
        try Data("# A\n".utf8).write(to: a)
        XCTAssertEqual(try NotepressBinary.run(["convert", notes.path, "-o", out.path]).status, 0)
        try Data([0x23, 0x20, 0xFF, 0x0A]).write(to: a)
        XCTAssertEqual(try NotepressBinary.run(["convert", notes.path, "-o", out.path]).status, 1)
        let again = try NotepressBinary.run(["convert", notes.path, "-o", out.path])
        XCTAssertEqual(again.status, 1, "a failed input was skipped as unchanged: \(again.stderr)")
        try Data("# Fixed\n".utf8).write(to: a)
        let fixed = try NotepressBinary.run(["convert", notes.path, "-o", out.path])
        XCTAssertEqual(fixed.status, 0, fixed.stderr)
        XCTAssertTrue(fixed.stderr.hasPrefix("converted 1, skipped 0 (unchanged)"), fixed.stderr)
        XCTAssertTrue(try String(contentsOfFile: out.appendingPathComponent("a.html").path, encoding: .utf8).contains("Fixed"))
        let skip = try NotepressBinary.run(["convert", notes.path, "-o", out.path])
        XCTAssertTrue(skip.stderr.hasPrefix("converted 0, skipped 1 (unchanged)"), skip.stderr)
    }
}
